"""The decisions on match results: report, correct (with a reason), intentional draw (MTR 2.1,
2.4), each checked against the table and the event's kind before any event is built."""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import Code as TC
from domain.tournament.commands import CorrectResult, ReportIntentionalDraw, ReportResult
from domain.tournament.cut import cut_seeds
from domain.tournament.errors import refuse
from domain.tournament.events import IntentionalDraw, ResultCorrected, ResultReported, TournamentEvent
from domain.tournament.lookups import is_int, round_of, settings_of, table_of, text_of
from domain.tournament.state import COMMANDER, SWISS, TOP_CUT, MatchResult, Round, Table, TournamentState, evolve

MAX_DRAWN_GAMES = 3
"""Drawn games in one two-player match: an intentional draw with no game played is 0-0-3."""


def check_result(state: TournamentState, rnd: Round, table: Table, games: Sequence[int], draws: int) -> MatchResult:
    settings = settings_of(state)
    shape = f"games {list(games)!r}, draws {draws!r} at round {rnd.number} table {table.number}"
    if not (isinstance(games, Sequence) and all(is_int(g) and g >= 0 for g in games) and is_int(draws)):
        raise refuse(f"games and draws must be counts (integers >= 0): {shape}", TC.INVALID_RESULT)
    if len(games) != len(table.players) or draws < 0:
        raise refuse(f"one game count per seat ({len(table.players)}) is needed: {shape}", TC.INVALID_RESULT)
    result = MatchResult(tuple(games), draws)
    if settings.kind == COMMANDER:
        # A pod plays one game: a winner, or a draw.
        if any(g > 1 for g in games) or sum(games) + draws != 1:
            raise refuse(f"a pod's result is one game won by one player, or drawn: {shape}", TC.INVALID_RESULT)
        seat = result.winner_seat()
        winner = None if seat is None else table.players[seat]
        if winner is not None and rnd.number in state.players[winner].no_shows:
            raise refuse(f"player {winner!r} did not show up in round {rnd.number}", TC.NO_SHOW_CANNOT_WIN)
        return result
    # MTR 2.1: best of N, played until a player has won the games needed (2 of 3); drawn games
    # don't count toward them.
    need = settings.wins_needed
    if any(g > need for g in games) or games[0] == games[1] == need or draws > MAX_DRAWN_GAMES:
        raise refuse(
            f"a best-of-{settings.best_of} match ends when a player has won {need} games: {shape}", TC.INVALID_RESULT
        )
    if sum(games) + draws == 0:
        raise refuse(
            f"no game was played: report an intentional draw or a no-show instead ({shape})", TC.INVALID_RESULT
        )
    if rnd.stage == TOP_CUT and result.winner_seat() is None:
        raise refuse(
            f"single-elimination matches may not end in a draw (MTR 2.4): {shape}", TC.DRAW_IN_SINGLE_ELIMINATION
        )
    return result


def report(state: TournamentState, c: ReportResult) -> list[TournamentEvent]:
    rnd = round_of(state, c.round)
    table = table_of(rnd, c.table)
    if table.result is not None:
        raise refuse(
            f"round {rnd.number} table {table.number} is already reported; correct it instead",
            TC.MATCH_ALREADY_REPORTED,
        )
    reason = None if c.reason is None else text_of(c.reason, "reason")
    if reason is None and table.report is not None and table.report.disputed_by is not None:
        raise refuse(
            f"round {rnd.number} table {table.number}'s players' report is disputed by "
            f"{table.report.disputed_by!r}: settling it needs a reason",
            TC.SETTLE_NEEDS_REASON,
        )
    result = check_result(state, rnd, table, c.games, c.draws)
    return [
        ResultReported(
            round=rnd.number, table=table.number, games=list(result.games), draws=result.draws, by=c.by, reason=reason
        )
    ]


def correct(state: TournamentState, c: CorrectResult) -> list[TournamentEvent]:
    rnd = round_of(state, c.round)
    table = table_of(rnd, c.table)
    if table.result is None:
        raise refuse(f"round {rnd.number} table {table.number} has no result to correct", TC.MATCH_NOT_REPORTED)
    reason, by = text_of(c.reason, "reason"), text_of(c.by, "by")
    result = check_result(state, rnd, table, c.games, c.draws)
    if (result.games, result.draws) == (table.result.games, table.result.draws):
        raise refuse(
            f"round {rnd.number} table {table.number} is already {list(result.games)}-{result.draws}",
            TC.CORRECTION_CHANGES_NOTHING,
        )
    if rnd.stage == TOP_CUT and rnd.number < len(state.rounds):
        seat = result.winner_seat()
        old = table.winner()
        if seat is None or old != table.players[seat]:
            raise refuse(
                f"round {rnd.number + 1} of the bracket is paired with {old!r}: the winner can't change now",
                TC.BRACKET_MOVED_ON,
            )
    corrected = ResultCorrected(
        round=rnd.number, table=table.number, games=list(result.games), draws=result.draws, reason=reason, by=by
    )
    if rnd.stage == SWISS and state.cut_seeds:
        # The bracket is paired from the Swiss standings (MTR 10.4: the cut is the top players
        # after the Swiss rounds) and the pairings stand; a correction that would seat another
        # player in it, or another seed, is refused, as the bracket's own are once it moved on.
        seeds = cut_seeds(evolve(state, corrected), len(state.cut_seeds))
        if tuple(seeds) != state.cut_seeds:
            raise refuse(
                f"the top cut is paired with seeds {list(state.cut_seeds)}; this correction would make them "
                f"{seeds}: it can't change who made the cut or their seeds now",
                TC.BRACKET_MOVED_ON,
            )
    return [corrected]


def intentional_draw(state: TournamentState, c: ReportIntentionalDraw) -> list[TournamentEvent]:
    settings = settings_of(state)
    rnd = round_of(state, c.round)
    table = table_of(rnd, c.table)
    if table.result is not None:
        raise refuse(
            f"round {rnd.number} table {table.number} is already reported; correct it instead",
            TC.MATCH_ALREADY_REPORTED,
        )
    if rnd.stage == TOP_CUT:
        raise refuse("single-elimination matches may not end in a draw (MTR 2.4)", TC.DRAW_IN_SINGLE_ELIMINATION)
    games = tuple(c.games) if c.games is not None else (0,) * len(table.players)
    if settings.kind == COMMANDER:
        draws = 1 if c.draws is None else c.draws
    else:
        # MTR 2.4: games played are recorded as they were; with none played the draw is 0-0-3.
        draws = c.draws if c.draws is not None else (MAX_DRAWN_GAMES if sum(games) == 0 else 0)
    result = check_result(state, rnd, table, games, draws)
    if result.winner_seat() is not None or (settings.kind == COMMANDER and any(result.games)):
        raise refuse(f"an intentional draw needs equal game wins, got {list(games)}", TC.INVALID_RESULT)
    return [
        IntentionalDraw(round=rnd.number, table=table.number, games=list(result.games), draws=result.draws, by=c.by)
    ]
