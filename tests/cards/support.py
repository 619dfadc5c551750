"""A game held in memory for card tests, driven through the domain kernel only:
``domain.setup.game_started`` + ``domain.decide.run`` + ``domain.view.state_view``.

Every accepted action is also checked for the event-sourcing properties the cards must keep:
folding the action's events onto the previous state gives the state ``run`` built, and the
state survives a JSON round trip (``ActionsReverted`` and snapshots rely on it).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.cards.catalog import bundled_catalog
from domain.commands import parse_command
from domain.decide import run
from domain.errors import GameError
from domain.events import Event
from domain.evolve import evolve, fold
from domain.serialize import state_from_json, state_to_json
from domain.setup import game_started
from domain.state import GameState
from domain.view import state_view

CATALOG = bundled_catalog()


def base_body(**overrides: Any) -> dict[str, Any]:
    """Two players at 20 life, P1's turn 3, precombat main phase, empty zones."""
    body: dict[str, Any] = {
        "variant": "two_player",
        "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
        "players": [{"id": "P1"}, {"id": "P2"}],
        "battlefield": [],
    }
    body.update(overrides)
    return body


class Game:
    """One game: its events and the state their fold gives."""

    def __init__(self, body: dict[str, Any] | None = None, **overrides: Any) -> None:
        body = copy.deepcopy(body) if body is not None else base_body(**overrides)
        event = game_started(body, "g1", CATALOG.resolve)
        self.state: GameState = evolve(None, event)  # type: ignore[arg-type]
        self.events: list[Event] = [event]

    # -- acting ------------------------------------------------------------------------------
    def act(self, body: dict[str, Any]) -> list[Event]:
        """Run one action; returns its events (raises ``GameError`` if refused)."""
        before = self.state
        events, after = run(before, parse_command(body, CATALOG.resolve))
        assert fold(events, before) == after, "folding the events must give the state decide built"
        assert state_from_json(state_to_json(after)) == after, "the state must survive a JSON round trip"
        self.state = after
        self.events.extend(events)
        return events

    def refused(self, body: dict[str, Any], code: str) -> GameError:
        """The action is refused with ``code`` and changes nothing."""
        # ``act`` only rebinds ``self.state`` on success, so the object is always the same one;
        # what a refusal could break is its contents: the state's mappings are plain dicts that a
        # rule might write into before it refuses. Compare the content, and the fold of the record.
        before = state_to_json(self.state)
        with pytest.raises(GameError) as info:
            self.act(body)
        assert info.value.code == code, f"expected {code!r}, got {info.value.code!r}: {info.value.message}"
        assert state_to_json(self.state) == before, f"refused {body} changed the state"
        assert state_to_json(fold(self.events)) == before, f"after refused {body} the record folds elsewhere"
        return info.value

    def resolve(self, **choices: Any) -> list[Event]:
        return self.act({"type": "resolve", "choices": choices} if choices else {"type": "resolve"})

    def resolve_all(self, **choices: Any) -> None:
        while self.state.stack:
            self.resolve(**choices)

    def activate(self, player: str, permanent: str, ability: int = 0, **extra: Any) -> list[Event]:
        return self.act({"type": "activate", "player": player, "permanent": permanent, "ability": ability, **extra})

    def cast(self, player: str, card: Any, **extra: Any) -> list[Event]:
        return self.act({"type": "cast", "player": player, "card": card, **extra})

    def enter(self, card: Any, controller: str = "P1", **extra: Any) -> list[Event]:
        return self.act({"type": "enter", "card": card, "controller": controller, **extra})

    def mill(self, player: str, count: int, **extra: Any) -> list[Event]:
        return self.act({"type": "mill", "player": player, "count": count, **extra})

    def damage(self, target: dict[str, str], amount: int, **extra: Any) -> list[Event]:
        return self.act({"type": "damage", "target": target, "amount": amount, **extra})

    def advance(self, to: str | None = None) -> list[Event]:
        return self.act({"type": "advance", "to": to} if to else {"type": "advance"})

    # -- reading -----------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        return state_view(self.state)

    def perm(self, perm_id: str) -> dict[str, Any]:
        return dict(self.view()["battlefield"][perm_id])

    def counters(self, perm_id: str) -> dict[str, int]:
        return dict(self.view()["battlefield"][perm_id]["counters"])

    def player(self, player_id: str) -> dict[str, Any]:
        return dict(self.view()["players"][player_id])

    def rad(self, player_id: str) -> int:
        return int(self.player(player_id)["counters"].get("rad", 0))

    def life(self, player_id: str) -> int:
        return int(self.player(player_id)["life"])

    def stack(self) -> list[dict[str, Any]]:
        return list(self.view()["stack"])

    def top(self) -> dict[str, Any]:
        return self.stack()[-1]

    def on_battlefield(self, name: str) -> list[str]:
        return [pid for pid, p in self.view()["battlefield"].items() if p["name"] == name]


def permanent(perm_id: str, card: Any, controller: str = "P1", **extra: Any) -> dict[str, Any]:
    """A battlefield entry of the create body."""
    return {"id": perm_id, "card": card, "controller": controller, **extra}


def of_type(events: list[Event], type_: str) -> list[Event]:
    return [e for e in events if e.type == type_]


BEAR = {"name": "Grizzly Bears", "type_line": "Creature — Bear", "power": "2", "toughness": "2"}
BOLT = {"name": "Lightning Bolt", "type_line": "Instant"}
FOREST = {"name": "Forest", "type_line": "Basic Land — Forest"}
