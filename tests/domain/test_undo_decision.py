"""Undo as a command decided in the domain (``domain.undo.Undo``, ``decide_undo``): which versions
a backup reverts, the judge records it keeps, and its refusals in their order, with no store."""

from __future__ import annotations

from typing import Any

import pytest

from domain import events as ev
from domain.errors import Forbidden, GameError
from domain.permissions import Grant
from domain.state import GameState
from domain.undo import Entry, Undo, decide_undo, reaches
from tests.domain.helpers import two_player

JUDGE = Grant("Jane", "judge")
HEAD_JUDGE = Grant("Hana", "head_judge")

# v1 the start; v2 one action; v3-v4 one action; v5 a note (a judge record); v6 one action.
LOG = [
    Entry(1, ev.GameStarted, "a0"),
    Entry(2, ev.LifeGained, "a1"),
    Entry(3, ev.CountersAdded, "a2"),
    Entry(4, ev.CardsMilled, "a2"),
    Entry(5, ev.NoteAdded, "a3"),
    Entry(6, ev.LifeLost, "a4"),
]
HEAD = 6


def _state(rel: str | None = None) -> GameState:
    extra: dict[str, Any] = {"tournament": {"event": "GP", "round": 1, "table": 1, "rel": rel}} if rel else {}
    return two_player(**extra).state


def _decide(command: Undo, log: list[Entry] = LOG, state: GameState | None = None, grant: Grant | None = None) -> Any:
    state = state if state is not None else _state()
    target = command.target(log)
    at_target = state if reaches(target, HEAD) else None
    return decide_undo(command, target, HEAD, state, log, at_target, grant).payload


def _code(command: Undo, **kwargs: Any) -> str:
    with pytest.raises(GameError) as refused:
        _decide(command, **kwargs)
    return str(refused.value.code)


def test_a_backup_reverts_the_game_actions_after_its_target_and_keeps_the_judge_records() -> None:
    reverted = _decide(Undo("misreported", to_version=2))
    assert (reverted.to_version, reverted.reverted_versions) == (2, [3, 4, 6])


def test_undo_the_last_action_passes_over_judge_records() -> None:
    assert Undo("oops").target(LOG) == 5  # the note at v5 is not an action
    assert Undo("oops", actions=2).target(LOG) == 2  # v3-v4 are one action


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (Undo("   ", to_version=HEAD), "reason_required"),  # a blank reason first, even out of range
        (Undo("why", to_version=HEAD), "nothing_to_undo"),
        (Undo("why", to_version=0), "invalid_version"),
        (Undo("why", to_version=3), "not_an_action_boundary"),  # v3 is inside the action v3-v4
        (Undo("   ", to_version=2), "reason_required"),  # in range, the reason is checked last
    ],
)
def test_refusals(command: Undo, code: str) -> None:
    assert _code(command) == code


def test_a_game_ending_penalty_after_the_target_stands() -> None:
    penalty = Entry(5, ev.PenaltyGiven, "a3", data={"penalty": "Game Loss", "player": "P1"})
    assert _code(Undo("why", to_version=2), log=[*LOG[:4], penalty, LOG[5]]) == "penalty_stands"


def test_at_competitive_rel_a_backup_is_the_head_judges() -> None:
    competitive = _state("competitive")
    with pytest.raises(Forbidden) as refused:
        _decide(Undo("why", to_version=2), state=competitive, grant=JUDGE)
    assert refused.value.code == "head_judge_required"
    assert "competitive REL" in refused.value.message
    assert _decide(Undo("why", to_version=2), state=competitive, grant=HEAD_JUDGE).to_version == 2
    assert _decide(Undo("why", to_version=2), state=_state("regular"), grant=JUDGE).to_version == 2
    # A target inside an action is refused before the caller is asked about.
    assert _code(Undo("why", to_version=3), state=competitive, grant=JUDGE) == "not_an_action_boundary"


@pytest.mark.parametrize(
    "fields",
    [
        {"to_version": 2, "actions": 1},
        {"reason": 7},
        {"actions": 0},
        {"actions": True},
        {"to_version": -1},
    ],
)
def test_a_malformed_undo_is_refused_when_it_is_made(fields: dict[str, Any]) -> None:
    with pytest.raises(GameError) as refused:
        Undo(**{"reason": "why", **fields})
    assert refused.value.code == "invalid_field"
