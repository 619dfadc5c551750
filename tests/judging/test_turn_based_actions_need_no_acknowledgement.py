"""Issue 30, bug 2: only a player's own report that changes an opponent's side waits for that
opponent (``domain.judging.reported``, docs/judges.md). Passing the turn (the untap step, CR
502.3) and resolving one's own rad trigger (CR 728.1, with the opponent's Infesting Radroach
triggering) made reports the opponent had to acknowledge, every turn; the real reports still wait.

The first tests run the decision as the ledger does (``run_as`` with a player token's grant);
the last ones go through a store, and check that the record re-imports as written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.commands import parse_command
from domain.decide import run_as
from domain.errors import InvalidExport
from domain.events import Event
from domain.permissions import Grant
from store.results import Actor
from tests.domain.helpers import BEARS, CATALOG, FOREST, Game, multiplayer, perm, two_player
from tests.store.conftest import SCOREKEEPER, Store
from tests.store.forging import rehash

ALICE = Grant("Alice's link", "player", "g1", "P1")
BOB = Grant("Bob's link", "player", "g1", "P2")


def _as(game: Game, grant: Grant, type_: str, **fields: Any) -> list[Event]:
    """One action by a player token, as the ledger decides it."""
    events, game.state = run_as(grant, game.state, parse_command({"type": type_, **fields}, CATALOG.resolve))
    game.events.extend(events)
    return events


def _reports(events: list[Event]) -> list[Any]:
    return [e.payload for e in events if e.type == "ReportAwaitingAcknowledgement"]


def _bobs_end_step(**p1: Any) -> Game:
    """Bob's end step; Alice's Ornithopter and Throne of Geth are tapped."""
    return two_player(
        step="end",
        active="P2",
        p1={"name": "Alice", **p1},
        p2={"name": "Bob"},
        battlefield=[
            perm("ornithopter-2", "Ornithopter", "P1", tapped=True),
            perm("throne-of-geth-4", "Throne of Geth", "P1", tapped=True),
        ],
    )


def test_passing_the_turn_asks_nobody_to_acknowledge_the_untap_step() -> None:
    """The issue's "P1: permanents ornithopter-2, throne-of-geth-4": Bob ends his turn, Alice's
    untap step untaps her permanents (CR 502.3), a turn-based action: nothing waits."""
    game = _bobs_end_step()
    events = _as(game, BOB, "advance", to="next_turn")
    assert [e.type for e in events if e.type == "PermanentUntapped"] == ["PermanentUntapped"] * 2
    assert not game.state.battlefield["ornithopter-2"].tapped
    assert _reports(events) == [] and game.state.reports == ()


def test_jumping_into_the_next_players_main_phase_asks_nobody() -> None:
    """Bob's "to the main phase" runs on into Alice's turn: her untap step, her draw (CR 504.1)
    and her rad trigger put on the stack (CR 728.1, 603.3) are all the server's."""
    game = _bobs_end_step(counters={"rad": 1}, library=[BEARS, FOREST])
    events = _as(game, BOB, "advance", to="precombat_main")
    assert game.state.turn.active_player == "P1" and game.state.stack[-1].effect == "radiation"
    assert _reports(events) == []


def _radroach_game() -> Game:
    """Bob's draw step; Bob has a rad counter and a nonland card on top; an Infesting Radroach
    lies in Alice's graveyard ("whenever an opponent mills a nonland card ...")."""
    return two_player(
        step="draw",
        active="P2",
        p1={"name": "Alice", "graveyard": ["Infesting Radroach"]},
        p2={"name": "Bob", "counters": {"rad": 1}, "library": [BEARS, BEARS]},
    )


def test_resolving_ones_own_rad_trigger_asks_nobody() -> None:
    """The issue's "P1: stack objects s13": Bob resolves his own rad trigger; the milled
    nonland card triggers Alice's Radroach, which the server puts on the stack: its consequence,
    not Bob's report."""
    game = _radroach_game()
    _as(game, BOB, "advance")
    events = _as(game, BOB, "resolve")
    assert [o.controller for o in game.state.stack] == ["P1"]  # Alice's Radroach trigger
    assert _reports(events) == []


def test_resolving_the_other_players_trigger_asks_nobody() -> None:
    """Letting the top of the stack resolve says every player passed (CR 117.4, 608.1); what it
    does the server works out (CR 608.2), whoever sent it."""
    game = _radroach_game()
    _as(game, BOB, "advance")
    events = _as(game, ALICE, "resolve")  # Bob's trigger, resolved from Alice's phone
    assert game.state.players["P2"].life == 19 and _reports(events) == []


def test_a_players_reports_on_an_opponent_still_wait_for_them() -> None:
    """Alice deals 3 to Bob, proliferates Bob's poison, counters Bob's spell: each waits for Bob."""
    game = two_player(
        p1={"name": "Alice"},
        p2={"name": "Bob", "counters": {"poison": 1}, "hand": [{"name": "Shock", "type_line": "Instant"}]},
    )
    [damage] = _reports(_as(game, ALICE, "damage", target={"player": "P2"}, amount=3, source="Lightning Bolt"))
    assert (damage.players, damage.summary) == (["P2"], "Bob: life 20 -> 17")
    [poison] = _reports(_as(game, ALICE, "proliferate", player="P1", choose=[{"player": "P2"}]))
    assert (poison.players, poison.summary) == (["P2"], "Bob: poison counters 1 -> 2")
    _as(game, BOB, "cast", player="P2", card={"name": "Shock", "type_line": "Instant"}, targets=[{"player": "P1"}])
    [countered] = _reports(_as(game, ALICE, "counter", object=game.state.stack[-1].id, source="Counterspell"))
    assert (countered.players, countered.summary) == (["P2"], "Bob: stack objects Shock")


def test_a_report_that_triggers_an_opponents_card_waits_only_for_what_it_changed() -> None:
    """Alice mills herself a nonland card: Bob's Radroach triggers (his stack object), which is
    the server's consequence; her own mill changes only her side, so nothing waits."""
    game = two_player(p1={"name": "Alice", "library": [BEARS]}, p2={"name": "Bob", "graveyard": ["Infesting Radroach"]})
    events = _as(game, ALICE, "mill", player="P1", count=1)
    assert [o.controller for o in game.state.stack] == ["P2"]
    assert _reports(events) == []


def test_leaving_the_game_returns_what_the_leaver_owned_without_a_report() -> None:
    """Alice concedes a three-player game: the permanent she owns under Bob's control leaves
    with her (CR 800.4a), a consequence of her leaving, not a report Bob must answer."""
    game = multiplayer(3, battlefield=[perm("bears", BEARS, "P2", owner="P1")])
    events = _as(game, ALICE, "concede", player="P1")
    assert "bears" not in game.state.battlefield and game.state.status == "in_progress"
    assert _reports(events) == []


# -- through a store: the record re-imports ------------------------------------------------------
TABLE: dict[str, Any] = {
    "variant": "two_player",
    "turn": {"number": 3, "active_player": "P2", "step": "end"},
    "players": [
        {"id": "P1", "name": "Alice", "library": [BEARS, FOREST, BEARS]},
        {"id": "P2", "name": "Bob", "library": [FOREST, FOREST]},
    ],
    "battlefield": [{"id": "ornithopter-2", "card": "Ornithopter", "controller": "P1", "tapped": True}],
}


def test_the_record_of_passed_turns_and_reports_reimports(store: Store) -> None:
    service = store.service()
    service.create_game(TABLE, SCOREKEEPER, "g1")
    service.act("g1", {"type": "advance", "to": "next_turn"}, BOB)
    service.act("g1", {"type": "advance", "to": "precombat_main"}, ALICE)
    done = service.act("g1", {"type": "damage", "target": {"player": "P2"}, "amount": 2, "source": "a ping"}, ALICE)
    assert [r["summary"] for r in done.state.reports] == ["Bob: life 20 -> 18"]
    lines = list(service.export("g1"))
    imported = store.sibling().service().import_game(lines, Actor("Jane", "judge"))
    assert imported.version == len(lines) - 1


def test_an_export_of_the_server_before_issue_30_still_imports(store: Store) -> None:
    """The server before this fix wrote a report for the untap step; such a file still imports
    (its report only asked more of the opponent), and a report naming nobody the action changed
    does not."""
    service = store.service()
    service.create_game(TABLE, SCOREKEEPER, "g1")
    service.act("g1", {"type": "advance", "to": "next_turn"}, BOB)
    lines = list(service.export("g1"))
    last = json.loads(lines[-1])

    def with_report(players: list[str]) -> list[str]:
        report = {
            **last,
            "version": last["version"] + 1,
            "type": "ReportAwaitingAcknowledgement",
            "rule": None,
            "data": {
                "report": "report-1",
                "reporter": "P2",
                "players": players,
                "summary": "P1: permanents ornithopter-2",
            },
        }
        return rehash([*lines, json.dumps(report)])

    assert store.sibling().service().import_game(with_report(["P1"]), Actor("Jane", "judge")).version == len(lines)
    with pytest.raises(InvalidExport) as refused:  # a report naming the reporter itself
        store.sibling().service().import_game(with_report(["P2"]), Actor("Jane", "judge"))
    assert refused.value.code == "invalid_import" and "report of action" in refused.value.message
