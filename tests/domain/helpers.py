"""Small builders for rule-by-rule tests of the kernel.

``Game`` is a test double of a stored game: it keeps the events in memory, starts from
``game_started`` and applies each action with ``domain.run``. A refused action raises its
``GameError`` as-is and changes nothing (the test can then assert on ``code``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain import fold, run
from domain.cards.catalog import bundled_catalog
from domain.commands import parse_command
from domain.events import Event
from domain.serialize import state_to_json
from domain.setup import game_started
from domain.state import GameState
from domain.view import state_view

CATALOG = bundled_catalog()

# -- cards given as objects (no catalog entry needed) ---------------------------------------------
BEARS = {"name": "Grizzly Bears", "type_line": "Creature — Bear", "power": "2", "toughness": "2"}
BOLT = {"name": "Lightning Bolt", "type_line": "Instant"}
SHOCK = {"name": "Shock", "type_line": "Instant"}
FOREST = {"name": "Forest", "type_line": "Basic Land — Forest"}
RELIC = {"name": "Mystery Relic", "type_line": "Artifact"}
"""An artifact the server doesn't automate: its costs are named by the operator."""
GOLEM = {"name": "Mystery Golem", "type_line": "Artifact Creature — Golem", "power": "3", "toughness": "3"}
"""A creature the server doesn't automate."""
RACER = {
    "name": "Hasty Racer",
    "type_line": "Creature — Goblin",
    "power": "1",
    "toughness": "1",
    "oracle_text": "Haste",
}
SAGA = {
    "name": "Test Saga",
    "type_line": "Enchantment — Saga",
    "oracle_text": "I — Nothing happens.\nII — Nothing happens again.\nIII — The end.",
}
WALKER = {"name": "Test Walker", "type_line": "Legendary Planeswalker — Tester", "loyalty": "3"}


def player(pid: str, **extra: Any) -> dict[str, Any]:
    return {"id": pid, **extra}


def perm(pid: str, card: Any, controller: str = "P1", **extra: Any) -> dict[str, Any]:
    return {"id": pid, "card": card, "controller": controller, **extra}


class Game:
    """A game held in memory: the events from ``GameStarted`` and the state they fold to."""

    def __init__(self, body: dict[str, Any]) -> None:
        start = game_started(body, "g1", CATALOG.resolve)
        self.events: list[Event] = [start]
        self.state: GameState = fold([start])

    # -- acting ---------------------------------------------------------------------------------
    def act(self, type_: str, **fields: Any) -> list[Event]:
        """Parse and run one action; returns its events. A refusal raises and stores nothing."""
        command = parse_command({"type": type_, **fields}, CATALOG.resolve)
        events, state = run(self.state, command)
        self.events.extend(events)
        self.state = state
        return events

    def advance(self, to: str | None = None) -> list[Event]:
        return self.act("advance", to=to) if to else self.act("advance")

    def resolve(self, **choices: Any) -> list[Event]:
        return self.act("resolve", choices=choices) if choices else self.act("resolve")

    # -- reading --------------------------------------------------------------------------------
    @property
    def view(self) -> dict[str, Any]:
        return state_view(self.state)

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state, for "nothing changed" checks."""
        return state_to_json(self.state)

    def life(self, pid: str) -> int:
        return self.state.life_of(pid)

    def counters(self, pid: str) -> dict[str, int]:
        return dict(self.state.players[pid].counters)

    def perm_counters(self, perm_id: str) -> dict[str, int]:
        return dict(self.state.battlefield[perm_id].counters)

    def team_counters(self, team: str) -> dict[str, int]:
        return dict(self.state.teams[team].counters)


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: Iterable[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


def one(events: Iterable[Event], type_: str) -> Event:
    found = of_type(events, type_)
    assert len(found) == 1, f"expected one {type_}, got {types(events)}"
    return found[0]


# -- ready-made games -------------------------------------------------------------------------------
def two_player(
    *,
    p1: dict[str, Any] | None = None,
    p2: dict[str, Any] | None = None,
    battlefield: list[dict[str, Any]] | None = None,
    step: str = "precombat_main",
    number: int = 4,
    active: str = "P1",
    **extra: Any,
) -> Game:
    body: dict[str, Any] = {
        "variant": "two_player",
        "players": [player("P1", **(p1 or {})), player("P2", **(p2 or {}))],
        "battlefield": battlefield or [],
        "turn": {"number": number, "active_player": active, "step": step},
        **extra,
    }
    return Game(body)


def multiplayer(
    n: int = 3,
    *,
    players: dict[str, dict[str, Any]] | None = None,
    battlefield: list[dict[str, Any]] | None = None,
    step: str = "precombat_main",
    number: int = 4,
    active: str = "P1",
) -> Game:
    ids = [f"P{i}" for i in range(1, n + 1)]
    extra = players or {}
    return Game(
        {
            "variant": "multiplayer",
            "players": [player(pid, **extra.get(pid, {})) for pid in ids],
            "battlefield": battlefield or [],
            "turn": {"number": number, "active_player": active, "step": step},
        }
    )


def two_headed_giant(
    *,
    players: dict[str, dict[str, Any]] | None = None,
    teams: dict[str, dict[str, Any]] | None = None,
    battlefield: list[dict[str, Any]] | None = None,
    step: str = "precombat_main",
    number: int = 4,
    active: str = "A1",
    rules_edition: str | None = None,
) -> Game:
    """Team A (A1, A2) and team B (B1, B2), seated A1, A2, B1, B2."""
    extra = players or {}
    body: dict[str, Any] = {
        "variant": "two_headed_giant",
        "players": [player(pid, team=pid[0], **extra.get(pid, {})) for pid in ("A1", "A2", "B1", "B2")],
        "battlefield": battlefield or [],
        "turn": {"number": number, "active_player": active, "step": step},
    }
    if teams:
        body["teams"] = teams
    if rules_edition:
        body["rules_edition"] = rules_edition
    return Game(body)


def archenemy(*, step: str = "untap", number: int = 1, library: list[Any] | None = None) -> Game:
    """The archenemy E (team E, listed first) against H1 and H2 (team H), each with ``library``."""
    cards = library or []
    return Game(
        {
            "variant": "archenemy",
            "players": [
                player("E", team="E", library=cards),
                player("H1", team="H", library=cards),
                player("H2", team="H", library=cards),
            ],
            "turn": {"number": number, "active_player": "E", "step": step},
        }
    )
