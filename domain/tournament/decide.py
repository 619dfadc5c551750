"""``decide(state, command) -> events``: the tournament's rules, pure.

Every check runs before any event is built, so a refused command raises a ``GameError`` (of the
class its code belongs to: ``NotFound``, ``Conflict``, ``InvalidCommand``, ``IllegalAction``) with
a stable ``tournament_code`` and produces nothing. The codes, with their meaning, are
``domain.tournament.errors.TournamentCode``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.tournament.commands import (
    CorrectResult,
    CreateEvent,
    DropPlayer,
    EndRound,
    MarkNoShow,
    PairRound,
    PairTopCut,
    PauseRound,
    RegisterPlayer,
    ReportIntentionalDraw,
    ReportResult,
    ResumeRound,
    StartRound,
    TournamentCommand,
)
from domain.tournament.errors import TournamentCode as TC
from domain.tournament.errors import refuse
from domain.tournament.events import (
    EventCreated,
    IntentionalDraw,
    PairingJson,
    PlayerDropped,
    PlayerMarkedNoShow,
    PlayerRegistered,
    ResultCorrected,
    ResultReported,
    RoundEnded,
    RoundPaired,
    RoundPaused,
    RoundResumed,
    RoundStarted,
    TopCutPaired,
    TournamentEvent,
)
from domain.tournament.pairing import (
    BRACKETS,
    Entrant,
    first_cut_pairings,
    next_cut_pairings,
    pod_pairings,
    recommended_rounds,
    swiss_pairings,
)
from domain.tournament.standings import round_records, standings
from domain.tournament.state import (
    COMMANDER,
    TOP_CUT,
    TWO_PLAYER,
    MatchResult,
    PlayerEntry,
    Round,
    Settings,
    Table,
    TournamentState,
    parse_time,
)

CODES: frozenset[str] = frozenset(TC)
"""Every code ``decide`` raises (``TournamentCode``): stable, the API's problem+json ``code``."""

RELS = ("regular", "competitive", "professional")
"""MTR 1.12 Rules Enforcement Levels."""
MAX_ROUNDS = 20
MAX_ROUND_MINUTES = 600
MAX_SEED = 2**63
"""Seeds stay below this so they survive any JSON reader as an integer."""
MAX_DRAWN_GAMES = 3
"""Drawn games in one two-player match: an intentional draw with no game played is 0-0-3."""


def decide(state: TournamentState, command: TournamentCommand) -> list[TournamentEvent]:
    """The events ``command`` causes in ``state``; raises a ``GameError`` (and causes nothing)
    when it is refused."""
    match command:
        case CreateEvent():
            return _create(state, command)
        case RegisterPlayer():
            return _register(state, command)
        case DropPlayer():
            return _drop(state, command)
        case MarkNoShow():
            return _no_show(state, command)
        case PairRound():
            return _pair_round(state, command)
        case PairTopCut():
            return _pair_top_cut(state)
        case ReportResult():
            return _report(state, command)
        case CorrectResult():
            return _correct(state, command)
        case ReportIntentionalDraw():
            return _intentional_draw(state, command)
        case StartRound() | PauseRound() | ResumeRound() | EndRound():
            return _clock(state, command)
    raise refuse(f"unknown tournament command {type(command).__name__}", TC.INVALID_COMMAND)


# --- lookups ------------------------------------------------------------------------------------


def _settings(state: TournamentState) -> Settings:
    if state.settings is None:
        raise refuse("the tournament has not been created", TC.TOURNAMENT_NOT_CREATED)
    return state.settings


def _player(state: TournamentState, key: str) -> PlayerEntry:
    _settings(state)
    entry = state.players.get(key)
    if entry is None:
        raise refuse(f"unknown player {key!r}", TC.UNKNOWN_PLAYER)
    return entry


def _round(state: TournamentState, number: int) -> Round:
    _settings(state)
    rnd = state.round(number) if _is_int(number) else None
    if rnd is None:
        raise refuse(f"unknown round {number!r} (rounds paired: {len(state.rounds)})", TC.UNKNOWN_ROUND)
    return rnd


def _table(rnd: Round, number: int) -> Table:
    table = rnd.table(number) if _is_int(number) else None
    if table is None:
        raise refuse(f"unknown table {number!r} in round {rnd.number} ({len(rnd.tables)} tables)", TC.UNKNOWN_TABLE)
    return table


def _is_int(value: object) -> bool:
    # bool is an int to Python, never to a scorekeeper.
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise refuse(f"{what} must be a non-empty string, got {value!r}", TC.INVALID_COMMAND)
    return value.strip()


# --- the event and its roster -------------------------------------------------------------------


def _create(state: TournamentState, c: CreateEvent) -> list[TournamentEvent]:
    if state.settings is not None:
        raise refuse(f"the tournament {state.settings.name!r} already exists", TC.TOURNAMENT_ALREADY_CREATED)
    name, fmt = _text(c.name, "name"), _text(c.format, "format")
    if c.rel not in RELS:
        raise refuse(f"rel must be one of {list(RELS)}, got {c.rel!r}", TC.INVALID_REL)
    if c.kind not in (TWO_PLAYER, COMMANDER):
        raise refuse(f"kind must be 'two_player' or 'commander', got {c.kind!r}", TC.INVALID_KIND)
    if c.rounds is not None and not (_is_int(c.rounds) and 1 <= c.rounds <= MAX_ROUNDS):
        raise refuse(f"rounds must be 1-{MAX_ROUNDS} or absent, got {c.rounds!r}", TC.INVALID_ROUNDS)
    if not (_is_int(c.round_minutes) and 1 <= c.round_minutes <= MAX_ROUND_MINUTES):
        raise refuse(f"round_minutes must be 1-{MAX_ROUND_MINUTES}, got {c.round_minutes!r}", TC.INVALID_ROUND_LENGTH)
    if c.top_cut is not None and (not _is_int(c.top_cut) or c.top_cut not in BRACKETS):
        raise refuse(f"top_cut must be 8, 4, 2 or absent, got {c.top_cut!r}", TC.INVALID_TOP_CUT)
    if c.top_cut is not None and c.kind == COMMANDER:
        raise refuse("a top cut is single-elimination two-player matches: not for pods", TC.INVALID_TOP_CUT)
    if not (_is_int(c.win_points) and _is_int(c.draw_points) and c.win_points > c.draw_points >= 0):
        raise refuse(
            f"points must be win > draw >= 0, got win {c.win_points!r}, draw {c.draw_points!r}", TC.INVALID_POINTS
        )
    return [
        EventCreated(
            name=name,
            format=fmt,
            rel=c.rel,
            rounds=c.rounds,
            round_minutes=c.round_minutes,
            top_cut=c.top_cut,
            kind=c.kind,
            win_points=c.win_points,
            draw_points=c.draw_points,
        )
    ]


def _register(state: TournamentState, c: RegisterPlayer) -> list[TournamentEvent]:
    _settings(state)
    key, name = _text(c.player, "player"), _text(c.name, "name")
    if key in state.players:
        raise refuse(f"player {key!r} is already registered", TC.PLAYER_ALREADY_REGISTERED)
    wizards_id = None if c.wizards_id is None else _text(c.wizards_id, "wizards_id")
    if wizards_id is not None:
        holder = next((p for p in state.players.values() if p.wizards_id == wizards_id), None)
        if holder is not None:
            raise refuse(
                f"Wizards id {wizards_id!r} is already registered to {holder.key!r}", TC.WIZARDS_ID_ALREADY_REGISTERED
            )
    swiss = len(state.swiss_rounds)
    if state.top_cut_rounds or (state.rounds_planned is not None and swiss >= state.rounds_planned):
        raise refuse("registration is closed: every Swiss round has been paired", TC.REGISTRATION_CLOSED)
    # Late entry: the rounds already paired are losses (docs/rules.md, Late entry).
    return [PlayerRegistered(player=key, name=name, wizards_id=wizards_id, missed_rounds=swiss)]


def _drop(state: TournamentState, c: DropPlayer) -> list[TournamentEvent]:
    entry = _player(state, c.player)
    if not entry.active:
        raise refuse(
            f"player {entry.key!r} already dropped after round {entry.dropped_after}", TC.PLAYER_ALREADY_DROPPED
        )
    reason = _text(c.reason, "reason")
    # MTR 2.10: a player who drops once the next round is paired is still paired for it.
    return [PlayerDropped(player=entry.key, reason=reason, after_round=len(state.rounds), by=c.by)]


def _no_show(state: TournamentState, c: MarkNoShow) -> list[TournamentEvent]:
    settings = _settings(state)
    entry = _player(state, c.player)
    if not entry.active:
        raise refuse(f"player {entry.key!r} already dropped", TC.PLAYER_ALREADY_DROPPED)
    rnd = state.current_round
    if rnd is None:
        raise refuse("no round has been paired yet", TC.NO_ROUND_IN_PLAY)
    table = rnd.table_of(entry.key)
    if table is None:
        raise refuse(f"player {entry.key!r} is not paired in round {rnd.number}", TC.NOT_PAIRED_THIS_ROUND)
    if table.result is not None:
        raise refuse(f"round {rnd.number} table {table.number} already has a result", TC.MATCH_ALREADY_REPORTED)
    events: list[TournamentEvent] = [PlayerMarkedNoShow(player=entry.key, round=rnd.number, table=table.number)]
    if settings.kind == TWO_PLAYER:
        # IPG 3.1: a player not in their seat 10 minutes into the round gets a Match Loss;
        # the opponent's win is entered 2-0, the scorekeepers' custom for a match not played.
        games = [0 if p == entry.key else 2 for p in table.players]
        events.append(ResultReported(round=rnd.number, table=table.number, games=games, draws=0, by="no_show"))
    # MTR 2.10: a player who doesn't show up for their match is dropped.
    events.append(PlayerDropped(player=entry.key, reason="no_show", after_round=rnd.number))
    return events


# --- pairing ------------------------------------------------------------------------------------


def _require_complete(rnd: Round | None) -> None:
    if rnd is not None and not rnd.complete:
        open_tables = [t.number for t in rnd.tables if t.result is None]
        raise refuse(
            f"round {rnd.number} has no result yet at table(s) {open_tables[:20]}"
            + (f" and {len(open_tables) - 20} more" if len(open_tables) > 20 else ""),
            TC.RESULTS_MISSING,
        )


def entrants(state: TournamentState) -> list[Entrant]:
    """The active players as the pairing sees them: points, standing, opponents met, byes."""
    records = round_records(state)
    ranks = {line.player: line for line in standings(state)}
    out = []
    for entry in state.active_players():
        rows = records[entry.key]
        out.append(
            Entrant(
                key=entry.key,
                points=ranks[entry.key].match_points,
                rank=ranks[entry.key].rank,
                opponents=frozenset(o for r in rows for o in r.opponents),
                had_bye=any(r.outcome == "bye" for r in rows),
            )
        )
    return out


def _pair_round(state: TournamentState, c: PairRound) -> list[TournamentEvent]:
    settings = _settings(state)
    if not (_is_int(c.seed) and 0 <= c.seed < MAX_SEED):
        raise refuse(f"seed must be an integer 0 <= seed < 2**63, got {c.seed!r}", TC.INVALID_SEED)
    if state.top_cut_rounds:
        raise refuse("the Swiss rounds are over: the top cut has begun", TC.SWISS_FINISHED)
    _require_complete(state.current_round)
    swiss = len(state.swiss_rounds)
    if state.rounds_planned is not None and swiss >= state.rounds_planned:
        raise refuse(f"all {state.rounds_planned} Swiss rounds have been paired", TC.ALL_ROUNDS_PAIRED)
    players = entrants(state)
    # MTR 10.2 / Appendix E: with no number announced, round 1 fixes it from the player count.
    planned = recommended_rounds(len(players)) if swiss == 0 and settings.rounds is None else None
    number = len(state.rounds) + 1
    byes: list[str] = []
    if settings.kind == COMMANDER:
        tables: Sequence[Sequence[str]] = pod_pairings(players, c.seed)
    else:
        pairing = swiss_pairings(players, c.seed)
        tables = pairing.tables
        byes = [pairing.bye] if pairing.bye is not None else []
    return [RoundPaired(round=number, seed=c.seed, pairings=_pairings(tables), byes=byes, rounds_planned=planned)]


def _pairings(tables: Sequence[Sequence[str]]) -> list[PairingJson]:
    return [{"table": i + 1, "players": list(players)} for i, players in enumerate(tables)]


def _pair_top_cut(state: TournamentState) -> list[TournamentEvent]:
    settings = _settings(state)
    if settings.top_cut is None:
        raise refuse(f"the event {settings.name!r} has no top cut", TC.NO_TOP_CUT)
    cut_rounds = state.top_cut_rounds
    number = len(state.rounds) + 1
    if not cut_rounds:
        swiss = state.swiss_rounds
        if state.rounds_planned is None or len(swiss) < state.rounds_planned:
            raise refuse(
                f"the Swiss rounds are not over ({len(swiss)} of {state.rounds_planned or '?'} paired)",
                TC.SWISS_NOT_FINISHED,
            )
        _require_complete(state.current_round)
        # MTR 2.10: a player who dropped before the cut is not in it; no one replaces them.
        seeds = [line.player for line in standings(state) if not line.dropped][: settings.top_cut]
        if len(seeds) < settings.top_cut:
            raise refuse(
                f"a top {settings.top_cut} needs {settings.top_cut} players still in the event, got {len(seeds)}",
                TC.NOT_ENOUGH_PLAYERS,
            )
        tables = first_cut_pairings(seeds)
        return [TopCutPaired(round=number, cut=settings.top_cut, pairings=_pairings(tables), seeds=seeds)]
    last = cut_rounds[-1]
    _require_complete(last)
    if last.cut == 2:
        raise refuse("the final has been played: the top cut is over", TC.TOP_CUT_FINISHED)
    winners = [t.winner() for t in last.tables]
    # A top-cut result always has a winner (draws are refused there, MTR 2.4).
    tables = next_cut_pairings([w for w in winners if w is not None], state.cut_seeds)
    return [TopCutPaired(round=number, cut=len(winners), pairings=_pairings(tables))]


# --- results ------------------------------------------------------------------------------------


def _check_result(state: TournamentState, rnd: Round, table: Table, games: Sequence[int], draws: int) -> MatchResult:
    settings = _settings(state)
    shape = f"games {list(games)!r}, draws {draws!r} at round {rnd.number} table {table.number}"
    if not (isinstance(games, Sequence) and all(_is_int(g) and g >= 0 for g in games) and _is_int(draws)):
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
    # MTR 2.1: best of three, played until a player has won 2 games; drawn games don't count.
    if any(g > 2 for g in games) or games[0] == games[1] == 2 or draws > MAX_DRAWN_GAMES:
        raise refuse(f"a best-of-three match ends 2-0, 2-1, 1-1, ...: {shape}", TC.INVALID_RESULT)
    if sum(games) + draws == 0:
        raise refuse(
            f"no game was played: report an intentional draw or a no-show instead ({shape})", TC.INVALID_RESULT
        )
    if rnd.stage == TOP_CUT and result.winner_seat() is None:
        raise refuse(
            f"single-elimination matches may not end in a draw (MTR 2.4): {shape}", TC.DRAW_IN_SINGLE_ELIMINATION
        )
    return result


def _report(state: TournamentState, c: ReportResult) -> list[TournamentEvent]:
    rnd = _round(state, c.round)
    table = _table(rnd, c.table)
    if table.result is not None:
        raise refuse(
            f"round {rnd.number} table {table.number} is already reported; correct it instead",
            TC.MATCH_ALREADY_REPORTED,
        )
    result = _check_result(state, rnd, table, c.games, c.draws)
    return [ResultReported(round=rnd.number, table=table.number, games=list(result.games), draws=result.draws, by=c.by)]


def _correct(state: TournamentState, c: CorrectResult) -> list[TournamentEvent]:
    rnd = _round(state, c.round)
    table = _table(rnd, c.table)
    if table.result is None:
        raise refuse(f"round {rnd.number} table {table.number} has no result to correct", TC.MATCH_NOT_REPORTED)
    reason, by = _text(c.reason, "reason"), _text(c.by, "by")
    result = _check_result(state, rnd, table, c.games, c.draws)
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
    return [
        ResultCorrected(
            round=rnd.number, table=table.number, games=list(result.games), draws=result.draws, reason=reason, by=by
        )
    ]


def _intentional_draw(state: TournamentState, c: ReportIntentionalDraw) -> list[TournamentEvent]:
    settings = _settings(state)
    rnd = _round(state, c.round)
    table = _table(rnd, c.table)
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
    result = _check_result(state, rnd, table, games, draws)
    if result.winner_seat() is not None or (settings.kind == COMMANDER and any(result.games)):
        raise refuse(f"an intentional draw needs equal game wins, got {list(games)}", TC.INVALID_RESULT)
    return [
        IntentionalDraw(round=rnd.number, table=table.number, games=list(result.games), draws=result.draws, by=c.by)
    ]


# --- the round clock ----------------------------------------------------------------------------


def _moment(text: str) -> datetime:
    try:
        at = parse_time(text) if isinstance(text, str) else None
    except ValueError:
        at = None
    if at is None or at.tzinfo is None:
        raise refuse(f"at must be an ISO 8601 time with a UTC offset, got {text!r}", TC.INVALID_TIME)
    return at


def _clock(state: TournamentState, c: StartRound | PauseRound | ResumeRound | EndRound) -> list[TournamentEvent]:
    settings = _settings(state)
    rnd = _round(state, c.round)
    at = _moment(c.at)
    clock = rnd.clock
    stamp = at.isoformat()
    if isinstance(c, StartRound):
        if clock.started_at is not None:
            raise refuse(f"round {rnd.number} started at {clock.started_at.isoformat()}", TC.ROUND_ALREADY_STARTED)
        return [RoundStarted(round=rnd.number, at=stamp, minutes=settings.round_minutes)]
    if clock.started_at is None:
        raise refuse(f"round {rnd.number} has not started", TC.ROUND_NOT_STARTED)
    if clock.ended_at is not None:
        raise refuse(f"round {rnd.number} ended at {clock.ended_at.isoformat()}", TC.ROUND_ALREADY_ENDED)
    if clock.last_change is not None and at < clock.last_change:
        raise refuse(
            f"{stamp} is before the clock's last change ({clock.last_change.isoformat()})", TC.CLOCK_WENT_BACKWARDS
        )
    if isinstance(c, PauseRound):
        if clock.paused_at is not None:
            raise refuse(f"round {rnd.number} is already paused", TC.CLOCK_ALREADY_PAUSED)
        return [RoundPaused(round=rnd.number, at=stamp)]
    if isinstance(c, ResumeRound):
        if clock.paused_at is None:
            raise refuse(f"round {rnd.number}'s clock is running", TC.CLOCK_NOT_PAUSED)
        return [RoundResumed(round=rnd.number, at=stamp)]
    return [RoundEnded(round=rnd.number, at=stamp)]
