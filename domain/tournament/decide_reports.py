"""The players' match reports (issue 38): a player reports their own match from their event
link, the opponent confirms it in one step (it becomes the tournament's ``ResultReported``, the
same result a scorekeeper enters) or disputes it, and the scorekeeper or a judge settles a
dispute by entering the result with a reason (``decide_results.report``).

Every check runs before an event is built. The order of the refusals: the table exists; the
player plays at it (``403 not_your_match``) and has not dropped (``403 report_by_dropped_player``;
``domain.tournament.report_access``); the match has no result yet (``match_already_reported``);
a pod's result is the scorekeeper's (``pod_reported_by_staff``: a pod has three or four players, and
one confirmation can't speak for the others); then the report's own state.
"""

from __future__ import annotations

from domain.errors import Code as TC
from domain.tournament.commands import ConfirmReport, DisputeReport, PlayerReport
from domain.tournament.decide_results import check_result
from domain.tournament.errors import refuse
from domain.tournament.events import (
    MatchReportConfirmed,
    MatchReportDisputed,
    MatchReportFiled,
    ResultReported,
    TournamentEvent,
)
from domain.tournament.lookups import round_of, settings_of, table_of
from domain.tournament.player_report import DISPUTED, FINAL, OPEN, PENDING, PlayerResultReport
from domain.tournament.report_access import check_reporter
from domain.tournament.state import COMMANDER, Round, Table, TournamentState

MAX_NOTE = 500
"""The longest note a dispute keeps."""


def report_state(table: Table) -> str:
    """``open``, ``pending``, ``disputed`` or ``final`` (``domain.tournament.player_report``)."""
    if table.result is not None:
        return FINAL
    if table.report is None:
        return OPEN
    return DISPUTED if table.report.disputed_by is not None else PENDING


def _players_table(state: TournamentState, round: int, table: int, player: str) -> tuple[Round, Table]:
    settings = settings_of(state)
    rnd = round_of(state, round)
    found = table_of(rnd, table)
    where = f"round {rnd.number} table {found.number}"
    entry = state.players.get(player)
    check_reporter(player, found.players, entry.dropped_after if entry is not None else None, where)
    if found.result is not None:
        raise refuse(f"{where} has its result: the scorekeeper corrects it", TC.MATCH_ALREADY_REPORTED)
    if settings.kind == COMMANDER:
        raise refuse(f"{where} is a pod: the scorekeeper enters its result", TC.POD_REPORTED_BY_STAFF)
    return rnd, found


def _waiting(rnd: Round, table: Table, player: str) -> PlayerResultReport:
    """The report the opponent answers: one there, not the player's own, not disputed."""
    where = f"round {rnd.number} table {table.number}"
    report = table.report
    if report is None:
        raise refuse(f"{where} has no report waiting: report the result instead", TC.NO_REPORT_TO_CONFIRM)
    if report.disputed_by is not None:
        raise refuse(f"{where}'s report is disputed: the scorekeeper or a judge settles it", TC.RESULT_DISPUTED)
    if report.player == player:
        raise refuse(f"{where}'s report is {player!r}'s own: the opponent answers it", TC.NOT_YOUR_REPORT)
    return report


def file_report(state: TournamentState, c: PlayerReport) -> list[TournamentEvent]:
    rnd, table = _players_table(state, c.round, c.table, c.player)
    if table.report is not None:
        code = TC.RESULT_DISPUTED if table.report.disputed_by is not None else TC.REPORT_PENDING
        score = "-".join(str(n) for n in (*table.report.games, table.report.draws))
        disputed = code is TC.RESULT_DISPUTED
        then = "the scorekeeper or a judge settles it" if disputed else "the opponent confirms or disputes it"
        raise refuse(
            f"round {rnd.number} table {table.number} already has {table.report.player}'s report {score} "
            f"({report_state(table)}): {then}",
            code,
        )
    result = check_result(state, rnd, table, c.games, c.draws)
    return [
        MatchReportFiled(
            round=rnd.number,
            table=table.number,
            player=c.player,
            games=list(result.games),
            draws=result.draws,
            token=c.token,
        )
    ]


def confirm_report(state: TournamentState, c: ConfirmReport) -> list[TournamentEvent]:
    rnd, table = _players_table(state, c.round, c.table, c.player)
    report = _waiting(rnd, table, c.player)
    # Checked again on today's state: a no-show or a bracket rule may refuse it now.
    result = check_result(state, rnd, table, report.games, report.draws)
    return [
        MatchReportConfirmed(round=rnd.number, table=table.number, player=c.player, token=c.token),
        ResultReported(
            round=rnd.number, table=table.number, games=list(result.games), draws=result.draws, by=report.player
        ),
    ]


def dispute_report(state: TournamentState, c: DisputeReport) -> list[TournamentEvent]:
    rnd, table = _players_table(state, c.round, c.table, c.player)
    _waiting(rnd, table, c.player)
    note = c.note.strip()[:MAX_NOTE] if isinstance(c.note, str) and c.note.strip() else None
    return [MatchReportDisputed(round=rnd.number, table=table.number, player=c.player, note=note, token=c.token)]
