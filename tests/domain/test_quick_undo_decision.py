"""A player token's quick undo of its own last action (issue 30, contract item 6;
``domain.permissions.check_quick_undo``, docs/judges.md): the game's head action, recorded by that very
token, at most 30 seconds before ``now`` (the ledger's clock, passed in)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain import events as ev
from domain.errors import Forbidden, GameError
from domain.permissions import Grant
from domain.state import GameState
from domain.undo import QUICK_UNDO_WINDOW, Entry, Undo, decide_undo, reaches
from tests.domain.helpers import two_player

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE = Grant("Alice's link", "player", "g1", "P1")
ALICE_AS = ("Alice's link", "player")
BOB_AS = ("Bob's link", "player")
JUDGE = Grant("Jane", "judge")


def _log(*tail: Entry) -> list[Entry]:
    """v1 the start, v2 a scorekeeper's action, then ``tail``."""
    return [
        Entry(1, ev.GameStarted, "a0", actor=("Sam", "scorekeeper"), recorded_at=T0),
        Entry(2, ev.LifeGained, "a1", actor=("Sam", "scorekeeper"), recorded_at=T0),
        *tail,
    ]


#: Alice's damage to Bob at T0 + 1 s: v3 DamageDealt, v4 LifeLost, v5 its report.
ALICES_REPORT = (
    Entry(3, ev.DamageDealt, "a2", actor=ALICE_AS, recorded_at=T0 + timedelta(seconds=1)),
    Entry(4, ev.LifeLost, "a2", actor=ALICE_AS, recorded_at=T0 + timedelta(seconds=1)),
    Entry(
        5,
        ev.ReportAwaitingAcknowledgement,
        "a2",
        data={"report": "report-5", "reporter": "P1", "players": ["P2"]},
        actor=ALICE_AS,
        recorded_at=T0 + timedelta(seconds=1),
    ),
)


def _state(rel: str | None = None) -> GameState:
    extra: dict[str, Any] = {"tournament": {"event": "GP", "round": 1, "table": 1, "rel": rel}} if rel else {}
    return two_player(**extra).state


def _decide(
    log: list[Entry],
    after: float,
    command: Undo | None = None,
    grant: Grant = ALICE,
    state: GameState | None = None,
) -> Any:
    command = command if command is not None else Undo("quick undo", actions=1)
    state = state if state is not None else _state()
    head = log[-1].version
    target = command.target(log)
    at_target = state if reaches(target, head) else None
    now = T0 + timedelta(seconds=after)
    return decide_undo(command, target, head, state, log, at_target, grant, now).payload


def _code(log: list[Entry], after: float, **kwargs: Any) -> str:
    with pytest.raises(GameError) as refused:
        _decide(log, after, **kwargs)
    assert isinstance(refused.value, Forbidden)  # every refusal of a quick undo is a 403
    return str(refused.value.code)


def test_ones_own_last_action_within_30_seconds_is_taken_back() -> None:
    reverted = _decide(_log(*ALICES_REPORT), after=31)  # recorded at 1 s: 30 s old, the limit
    assert (reverted.to_version, reverted.reverted_versions) == (2, [3, 4, 5])
    assert QUICK_UNDO_WINDOW.total_seconds() == 30


def test_after_30_seconds_it_is_a_judges_backup() -> None:
    assert _code(_log(*ALICES_REPORT), after=31.001) == "quick_undo_expired"


def test_someone_elses_last_action_is_refused() -> None:
    bobs = Entry(6, ev.LifeGained, "a3", actor=BOB_AS, recorded_at=T0 + timedelta(seconds=2))
    assert _code(_log(*ALICES_REPORT, bobs), after=3) == "not_your_action"
    judges = Entry(6, ev.LifeGained, "a3", actor=("Jane", "judge"), recorded_at=T0 + timedelta(seconds=2))
    assert _code(_log(*ALICES_REPORT, judges), after=3) == "not_your_action"


def test_a_token_of_the_same_name_for_another_player_is_refused() -> None:
    """Names are free: a token named like Alice's but acting as P2 did not make P1's report."""
    other = Grant("Alice's link", "player", "g1", "P2")
    assert _code(_log(*ALICES_REPORT), after=3, grant=other) == "not_your_action"


def test_an_action_answered_since_is_no_longer_the_last() -> None:
    """Bob acknowledged it (or a judge was called): it is not the head, a judge backs it up."""
    answer = Entry(6, ev.ReportAcknowledged, "a3", actor=BOB_AS, recorded_at=T0 + timedelta(seconds=2))
    assert _code(_log(*ALICES_REPORT, answer), after=3) == "not_the_last_action"
    call = Entry(6, ev.JudgeCallOpened, "a3", actor=ALICE_AS, recorded_at=T0 + timedelta(seconds=2))
    assert _code(_log(*ALICES_REPORT, call), after=3) == "not_the_last_action"


@pytest.mark.parametrize("command", [Undo("why", to_version=2), Undo("why", actions=2)])
def test_only_the_last_action(command: Undo) -> None:
    assert _code(_log(*ALICES_REPORT), after=3, command=command) == "quick_undo_last_action_only"


def test_at_competitive_rel_ones_own_quick_undo_needs_no_head_judge() -> None:
    """A correction of the record (docs/judges.md): allowed at every REL; a judge's backup
    there is still the head judge's."""
    competitive = _state("competitive")
    assert _decide(_log(*ALICES_REPORT), after=3, state=competitive).to_version == 2
    with pytest.raises(Forbidden) as refused:
        _decide(_log(*ALICES_REPORT), after=3, state=competitive, grant=JUDGE)
    assert refused.value.code == "head_judge_required"


def test_a_scorekeeper_still_may_not_undo() -> None:
    keeper = Grant("Sam", "scorekeeper")
    assert _code(_log(*ALICES_REPORT), after=3, grant=keeper) == "forbidden"
