"""The players' match reports (issue 38): a player reports their own match, the opponent confirms
it in one step (it becomes the tournament's result, MTR 2.1) or disputes it, and staff settle a
dispute by entering the result with a reason; the scorekeeper corrects any result with a reason."""

from __future__ import annotations

import pytest

from domain.errors import Code, GameError
from domain.tournament import (
    ConfirmReport,
    CorrectResult,
    CreateEvent,
    DisputeReport,
    DropPlayer,
    MatchReportConfirmed,
    MatchReportDisputed,
    MatchReportFiled,
    PairRound,
    PlayerReport,
    RegisterPlayer,
    ReportResult,
    ResultCorrected,
    ResultReported,
    standings,
)
from domain.tournament.decide_reports import report_state
from tests.tournament.helpers import Event


def _event(kind: str = "two_player", players: int = 4) -> tuple[Event, tuple[str, str]]:
    e = Event()
    e.act(CreateEvent(name="FNM", format="Modern", kind=kind, rounds=3))
    for i in range(1, players + 1):
        e.act(RegisterPlayer(player=f"p{i}", name=f"P{i}"))
    e.act(PairRound(seed=7))
    rnd = e.state.rounds[0]
    a, b = rnd.tables[0].players[:2]
    return e, (a, b)


def _refused(e: Event, command: object, code: Code) -> str:
    before = e.state
    with pytest.raises(GameError) as err:
        e.act(command)  # type: ignore[arg-type]
    assert err.value.code == code, err.value.message
    assert e.state is before  # a refusal stores nothing
    return err.value.message


def test_report_then_confirm_is_the_tournaments_result() -> None:
    e, (a, b) = _event()
    events = e.act(PlayerReport(round=1, table=1, player=a, games=(2, 1), draws=0, token="tok-a"))
    assert events == [MatchReportFiled(round=1, table=1, player=a, games=[2, 1], draws=0, token="tok-a")]
    table = e.state.rounds[0].tables[0]
    assert report_state(table) == "pending" and table.result is None
    events = e.act(ConfirmReport(round=1, table=1, player=b, token="tok-b"))
    assert isinstance(events[0], MatchReportConfirmed) and events[0].player == b
    # The confirmed report is the same ResultReported a scorekeeper's entry is (MTR 2.1: 2-1).
    assert events[1] == ResultReported(round=1, table=1, games=[2, 1], draws=0, by=a)
    table = e.state.rounds[0].tables[0]
    assert report_state(table) == "final" and table.winner() == a
    assert next(s for s in standings(e.state) if s.player == a).match_points == 3
    assert e.replayed() == e.state


def test_the_reporter_cannot_confirm_their_own_report() -> None:
    e, (a, _) = _event()
    e.act(PlayerReport(round=1, table=1, player=a, games=(2, 0)))
    _refused(e, ConfirmReport(round=1, table=1, player=a), Code.NOT_YOUR_REPORT)
    _refused(e, DisputeReport(round=1, table=1, player=a), Code.NOT_YOUR_REPORT)


def test_a_player_of_another_table_is_refused() -> None:
    e, _ = _event()
    other = e.state.rounds[0].tables[1].players[0]
    _refused(e, PlayerReport(round=1, table=1, player=other, games=(2, 0)), Code.NOT_YOUR_MATCH)
    _refused(e, ConfirmReport(round=1, table=1, player=other), Code.NOT_YOUR_MATCH)


def test_a_second_report_waits_for_the_first() -> None:
    e, (a, b) = _event()
    e.act(PlayerReport(round=1, table=1, player=a, games=(2, 0)))
    message = _refused(e, PlayerReport(round=1, table=1, player=b, games=(0, 2)), Code.REPORT_PENDING)
    # Says whose report waits, as a score a person reads, and what happens next.
    assert f"{a}'s report 2-0-0 (pending): the opponent confirms or disputes it" in message, message


def test_confirm_without_a_report_is_refused() -> None:
    e, (_, b) = _event()
    _refused(e, ConfirmReport(round=1, table=1, player=b), Code.NO_REPORT_TO_CONFIRM)
    _refused(e, DisputeReport(round=1, table=1, player=b), Code.NO_REPORT_TO_CONFIRM)


def test_an_impossible_report_is_refused_by_the_result_rules() -> None:
    e, (a, _) = _event()
    _refused(e, PlayerReport(round=1, table=1, player=a, games=(3, 0)), Code.INVALID_RESULT)  # MTR 2.1: best of 3


def test_a_final_result_takes_no_report() -> None:
    e, (a, b) = _event()
    e.act(ReportResult(round=1, table=1, games=(2, 0), by="sk"))
    _refused(e, PlayerReport(round=1, table=1, player=a, games=(2, 0)), Code.MATCH_ALREADY_REPORTED)
    _refused(e, ConfirmReport(round=1, table=1, player=b), Code.MATCH_ALREADY_REPORTED)


def test_a_dropped_player_reports_nothing() -> None:
    e, (a, _b) = _event()
    e.act(DropPlayer(player=a))  # MTR 2.10: dropped during round 1, the match still stands
    _refused(e, PlayerReport(round=1, table=1, player=a, games=(2, 0)), Code.REPORT_BY_DROPPED_PLAYER)
    e2, (a2, b2) = _event()
    e2.act(PlayerReport(round=1, table=1, player=a2, games=(2, 0)))
    e2.act(DropPlayer(player=b2))
    _refused(e2, ConfirmReport(round=1, table=1, player=b2), Code.REPORT_BY_DROPPED_PLAYER)


def test_a_dispute_is_settled_by_staff_with_a_reason() -> None:
    e, (a, b) = _event()
    e.act(PlayerReport(round=1, table=1, player=a, games=(2, 0)))
    events = e.act(DisputeReport(round=1, table=1, player=b, note="I won game 2"))
    assert events == [MatchReportDisputed(round=1, table=1, player=b, note="I won game 2")]
    table = e.state.rounds[0].tables[0]
    assert report_state(table) == "disputed" and table.report is not None and table.report.disputed_by == b
    # Disputed: neither player can confirm, report again or dispute again; staff settle it.
    _refused(e, ConfirmReport(round=1, table=1, player=b), Code.RESULT_DISPUTED)
    _refused(e, PlayerReport(round=1, table=1, player=b, games=(1, 2)), Code.RESULT_DISPUTED)
    _refused(e, ReportResult(round=1, table=1, games=(2, 1), by="judge"), Code.SETTLE_NEEDS_REASON)
    events = e.act(ReportResult(round=1, table=1, games=(2, 1), by="judge", reason="game 2 was a's, by the log"))
    assert events == [
        ResultReported(round=1, table=1, games=[2, 1], draws=0, by="judge", reason="game 2 was a's, by the log")
    ]
    assert report_state(e.state.rounds[0].tables[0]) == "final"
    assert e.replayed() == e.state


def test_the_scorekeeper_corrects_a_confirmed_result_with_a_reason() -> None:
    e, (a, b) = _event()
    e.act(PlayerReport(round=1, table=1, player=a, games=(2, 0)))
    e.act(ConfirmReport(round=1, table=1, player=b))
    events = e.act(CorrectResult(round=1, table=1, games=(1, 2), draws=0, reason="slip swapped", by="sk"))
    assert events == [ResultCorrected(round=1, table=1, games=[1, 2], draws=0, reason="slip swapped", by="sk")]
    assert e.state.rounds[0].tables[0].winner() == b


def test_pods_are_reported_by_staff() -> None:
    e, (a, _) = _event(kind="commander", players=8)
    _refused(e, PlayerReport(round=1, table=1, player=a, games=(1, 0, 0, 0)), Code.POD_REPORTED_BY_STAFF)
