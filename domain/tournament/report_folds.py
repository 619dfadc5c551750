"""The folds of the players' match reports (``MatchReportFiled``, ``MatchReportConfirmed``,
``MatchReportDisputed``), registered with ``domain.tournament.state``'s fold table; kept here so
the state module stays small. A confirmation's result is the ``ResultReported`` saved with it."""

from __future__ import annotations

import dataclasses

from domain.tournament.events import MatchReportConfirmed, MatchReportDisputed, MatchReportFiled
from domain.tournament.player_report import PlayerResultReport
from domain.tournament.state import FOLDS, TournamentState, _with_table


def _filed(state: TournamentState, e: MatchReportFiled) -> TournamentState:
    table = state.rounds[e.round - 1].tables[e.table - 1]
    report = PlayerResultReport(player=e.player, games=tuple(e.games), draws=e.draws)
    return _with_table(state, e.round, dataclasses.replace(table, report=report))


def _confirmed(state: TournamentState, e: MatchReportConfirmed) -> TournamentState:
    return state  # the ResultReported of the same save records the result


def _disputed(state: TournamentState, e: MatchReportDisputed) -> TournamentState:
    table = state.rounds[e.round - 1].tables[e.table - 1]
    assert table.report is not None  # decide refuses a dispute with no report
    report = dataclasses.replace(table.report, disputed_by=e.player, note=e.note)
    return _with_table(state, e.round, dataclasses.replace(table, report=report))


FOLDS[MatchReportFiled] = _filed
FOLDS[MatchReportConfirmed] = _confirmed
FOLDS[MatchReportDisputed] = _disputed
