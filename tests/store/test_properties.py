"""Event-sourcing properties under random play (Hypothesis), on SQLite in a temporary directory.

After any sequence of actions, undos and redos: the state after "undo to V" equals the state at
V; an undo right after an action gives back the state before it; no counter is ever negative;
the hash chain verifies; and importing the export reproduces the state at every version.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_event
from hypothesis import strategies as st

import ledger.game_service as game_service
from domain import events as ev
from domain import evolve
from domain.errors import GameError
from domain.events import JUDGE_RECORDS, Event
from domain.state import GameState
from domain.undo import Entry, target_before_last_actions
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor

JUDGE = Actor("property judge", "judge")
CARDS = [
    {"name": "Forest", "type_line": "Basic Land — Forest"},
    {"name": "Lightning Bolt", "type_line": "Instant"},
    {"name": "Grizzly Bears", "type_line": "Creature — Bear", "power": "2", "toughness": "2"},
]
GAME = {
    "variant": "two_player",
    "turn": {"number": 1, "active_player": "P1", "step": "upkeep"},
    "players": [
        {"id": "P1", "counters": {"rad": 2}, "library": CARDS * 6},
        {"id": "P2", "counters": {"poison": 1}, "library": CARDS * 6},
    ],
    "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 2}}],
}

players = st.sampled_from(["P1", "P2"])
targets = st.one_of(players.map(lambda p: {"player": p}), st.just({"permanent": "hydra"}))
kinds = st.sampled_from(["rad", "+1/+1", "poison"])
actions = st.one_of(
    st.builds(
        lambda t, k, n: {"type": "add_counters", "target": t, "kind": k, "amount": n}, targets, kinds, st.integers(1, 3)
    ),
    st.builds(
        lambda t, k, n: {"type": "remove_counters", "target": t, "kind": k, "amount": n, "up_to": True},
        targets,
        kinds,
        st.integers(1, 3),
    ),
    st.builds(lambda p, n: {"type": "lose_life", "player": p, "amount": n}, players, st.integers(1, 4)),
    st.builds(lambda p, n: {"type": "gain_life", "player": p, "amount": n}, players, st.integers(1, 4)),
    st.builds(lambda p, n: {"type": "mill", "player": p, "count": n}, players, st.integers(1, 3)),
    st.builds(
        lambda p: {"type": "proliferate", "player": p, "choose": [{"player": "P1"}, {"permanent": "hydra"}]}, players
    ),
    st.just({"type": "advance"}),
    st.just({"type": "resolve"}),
    st.just({"type": "note", "text": "judge call"}),
)
undo_steps = st.one_of(
    st.floats(0, 1).map(lambda f: ("undo_to", f)),
    st.integers(1, 3).map(lambda n: ("undo_last", n)),
    st.just(("redo", None)),
)
# A few actions first (an empty game has nothing to undo), then actions, undos and redos mixed.
steps = st.tuples(
    st.lists(actions.map(lambda body: ("act", body)), min_size=2, max_size=5),
    st.lists(st.one_of(actions.map(lambda body: ("act", body)), undo_steps, undo_steps), min_size=4, max_size=12),
).map(lambda parts: parts[0] + parts[1])


def no_negative_counters(state: GameState) -> None:
    for counts in (
        *(p.counters for p in state.players.values()),
        *(perm.counters for perm in state.battlefield.values()),
        *(t.counters for t in state.teams.values()),
    ):
        assert all(n > 0 for n in counts.values()), counts


def fold_to(service: LedgerService, version: int) -> GameState:
    state: Any = None
    for event in service.events("g", 0, 1000)[:version]:
        state = evolve(state, Event.parse(event.type, event.data, event.rule))
    result: GameState = state
    return result


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_random_play_with_undos_keeps_every_property(plan: list[tuple[str, Any]]) -> None:
    page, game_service.UNDO_HISTORY_PAGE = game_service.UNDO_HISTORY_PAGE, 2
    with tempfile.TemporaryDirectory() as tmp:
        service = LedgerService(
            f"sqlite:///{Path(tmp) / 'a.sqlite3'}", LedgerSettings(snapshot_interval=3, read_models=False)
        )
        copy = LedgerService(
            f"sqlite:///{Path(tmp) / 'b.sqlite3'}", LedgerSettings(snapshot_interval=4, read_models=False)
        )
        try:
            service.create_game(GAME, JUDGE, "g")
            last_action_from: int | None = None
            for kind, arg in plan:
                head = service.head_version("g")
                if kind == "act":
                    try:
                        result = service.act("g", arg, JUDGE)
                    except GameError as err:
                        # Random actions are often illegal here (an empty stack, too few counters).
                        note_event(f"act refused: {err.code}")
                        assert service.head_version("g") == head, f"refused {arg} stored an event"
                    else:
                        # A judge's note is a record, not a game action: a backup never takes
                        # it back (docs/judges.md), so "undo the last action" skips it.
                        game_action = any(ev.event_class(e.type) not in JUDGE_RECORDS for e in result.events)
                        last_action_from = head if game_action else last_action_from
                    no_negative_counters(service.state_at("g")[1])
                    continue
                history = [
                    Entry(e.version, ev.event_class(e.type), e.action_id, tuple(e.data.get("reverted_versions") or ()))
                    for e in service.events("g", 0, 1000)
                ]
                # Where the undo must go, from the rule over the whole history (None: nothing to
                # undo): the service reads the log backwards in pages (2 events here) and must
                # agree, and an undo it refuses must be one the rule refuses too.
                target: int | None
                if kind == "undo_to":
                    target = 1 + int(arg * (head - 1))
                    request: dict[str, Any] = {"to_version": target, "reason": "property"}
                elif kind == "undo_last":
                    try:
                        target = target_before_last_actions(history, arg)
                    except GameError:
                        target = None
                    request = {"actions": arg, "reason": "property"}
                else:
                    if history[-1].kind is not ev.ActionsReverted:
                        continue
                    target = head - 1
                    request = {"to_version": target, "reason": "redo"}
                by_version = {e.version: e for e in history}
                inside = (
                    target is not None
                    and target + 1 in by_version
                    and target in by_version
                    and by_version[target + 1].action_id == by_version[target].action_id
                )
                if inside:
                    # A backup goes back to the end of an action, never into one (IPG 1.4).
                    with pytest.raises(GameError) as refused:
                        service.undo("g", actor=JUDGE, **request)
                    assert refused.value.code == "not_an_action_boundary", refused.value.message
                    assert service.head_version("g") == head, f"refused {kind} {arg} stored an event"
                    note_event(f"{kind} refused: not_an_action_boundary")
                    continue
                if target is None or target >= head:
                    with pytest.raises(GameError) as refused:
                        service.undo("g", actor=JUDGE, **request)
                    assert refused.value.code == "nothing_to_undo", refused.value.message
                    assert service.head_version("g") == head, f"refused {kind} {arg} stored an event"
                    note_event(f"{kind} refused: nothing_to_undo")
                    continue
                result = service.undo("g", actor=JUDGE, **request)
                note_event(f"{kind} stored")
                # Stored: exactly one ActionsReverted, at the next version, back to the target.
                stored = [(e.version, e.type, e.data["to_version"]) for e in service.events("g", head)]
                assert stored == [(head + 1, "ActionsReverted", target)], stored
                assert [e.version for e in result.events] == [head + 1]
                if kind == "undo_last" and arg == 1 and last_action_from is not None:
                    assert target == last_action_from, "undo right after an action takes back that action"
                last_action_from = None
                expected = service.state_at("g", target)[1]
                assert result.state == expected == fold_to(service, target)
                assert service.state_at("g") == (head + 1, expected)
                no_negative_counters(expected)
            assert service.verify("g").ok
            lines = list(service.export("g"))
            imported = copy.import_game(lines, JUDGE)
            assert imported.version == service.head_version("g")
            for version in range(1, imported.version + 1):
                assert copy.state_at("g", version) == service.state_at("g", version)
                assert service.state_at("g", version)[1] == fold_to(service, version)
        finally:
            service.close()
            copy.close()
            game_service.UNDO_HISTORY_PAGE = page
