"""``decide(state, command) -> events``: the tournament's rules, pure.

Every check runs before any event is built, so a refused command raises a ``GameError`` (of the
class its code belongs to: ``NotFound``, ``Conflict``, ``InvalidCommand``, ``IllegalAction``) with
its stable ``code`` (a member of ``domain.errors.Code``) and produces nothing. This module holds
the event, its roster and the pairings; the results are decided in ``decide_results``, the round
clock in ``decide_clock``, and the lookups they share are ``lookups``.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import Code as TC
from domain.tournament.commands import (
    ConfirmReport,
    CorrectResult,
    CreateEvent,
    DisputeReport,
    DropPlayer,
    EndRound,
    FeatureTable,
    MarkNoShow,
    PairRound,
    PairTopCut,
    PauseRound,
    PlayerReport,
    RegisterPlayer,
    ReportIntentionalDraw,
    ReportResult,
    ResumeRound,
    StartRound,
    TournamentCommand,
)
from domain.tournament.cut import cut_seeds
from domain.tournament.decide_clock import clock_change
from domain.tournament.decide_reports import confirm_report, dispute_report, file_report
from domain.tournament.decide_results import correct, intentional_draw, report
from domain.tournament.decide_tables import feature
from domain.tournament.decklists import decide_decklists
from domain.tournament.decklists_commands import DECKLIST_COMMANDS
from domain.tournament.errors import CODES, refuse
from domain.tournament.events import (
    EventCreated,
    PairingJson,
    PlayerDropped,
    PlayerMarkedNoShow,
    PlayerRegistered,
    ResultReported,
    RoundPaired,
    TopCutPaired,
    TournamentEvent,
)
from domain.tournament.lookups import is_int, player_of, settings_of, text_of
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
from domain.tournament.state import COMMANDER, TWO_PLAYER, Round, TournamentState

__all__ = ["CODES", "decide", "entrants"]

RELS = ("casual", "regular", "competitive", "professional")
"""MTR 1.12 Rules Enforcement Levels; ``casual`` is the API's name for Regular (the games of a
``casual`` event are created at ``regular``)."""
BEST_OF = (1, 3, 5)
"""MTR 2.1: matches are best of three unless announced otherwise; best of one and of five exist."""
MAX_ROUNDS = 20
MAX_ROUND_MINUTES = 600
MAX_SEED = 2**53
"""Seeds stay below this: the hash chain's canonical JSON (RFC 8785) carries integers exactly up to 2**53."""


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
            return report(state, command)
        case PlayerReport():
            return file_report(state, command)
        case ConfirmReport():
            return confirm_report(state, command)
        case DisputeReport():
            return dispute_report(state, command)
        case CorrectResult():
            return correct(state, command)
        case ReportIntentionalDraw():
            return intentional_draw(state, command)
        case FeatureTable():
            return feature(state, command)
        case StartRound() | PauseRound() | ResumeRound() | EndRound():
            return clock_change(state, command)
        case _ if isinstance(command, DECKLIST_COMMANDS):  # issue 42
            return decide_decklists(state, command)
    raise refuse(f"unknown tournament command {type(command).__name__}", TC.INVALID_COMMAND)


# --- the event and its roster -------------------------------------------------------------------


def _create(state: TournamentState, c: CreateEvent) -> list[TournamentEvent]:
    if state.settings is not None:
        raise refuse(f"the tournament {state.settings.name!r} already exists", TC.TOURNAMENT_ALREADY_CREATED)
    name, fmt = text_of(c.name, "name"), text_of(c.format, "format")
    if c.rel not in RELS:
        raise refuse(f"rel must be one of {list(RELS)}, got {c.rel!r}", TC.INVALID_REL)
    if c.kind not in (TWO_PLAYER, COMMANDER):
        raise refuse(f"kind must be 'two_player' or 'commander', got {c.kind!r}", TC.INVALID_KIND)
    if c.rounds is not None and not (is_int(c.rounds) and 1 <= c.rounds <= MAX_ROUNDS):
        raise refuse(f"rounds must be 1-{MAX_ROUNDS} or absent, got {c.rounds!r}", TC.INVALID_ROUNDS)
    if not (is_int(c.round_minutes) and 1 <= c.round_minutes <= MAX_ROUND_MINUTES):
        raise refuse(f"round_minutes must be 1-{MAX_ROUND_MINUTES}, got {c.round_minutes!r}", TC.INVALID_ROUND_LENGTH)
    if c.top_cut is not None and (not is_int(c.top_cut) or c.top_cut not in BRACKETS):
        raise refuse(f"top_cut must be 8, 4, 2 or absent, got {c.top_cut!r}", TC.INVALID_TOP_CUT)
    if c.top_cut is not None and c.kind == COMMANDER:
        raise refuse("a top cut is single-elimination two-player matches: not for pods", TC.INVALID_TOP_CUT)
    if not (is_int(c.win_points) and is_int(c.draw_points) and c.win_points > c.draw_points >= 0):
        raise refuse(
            f"points must be win > draw >= 0, got win {c.win_points!r}, draw {c.draw_points!r}", TC.INVALID_POINTS
        )
    best_of = 1 if c.kind == COMMANDER else c.best_of
    if not (is_int(best_of) and best_of in BEST_OF):
        raise refuse(f"best_of must be 1, 3 or 5, got {c.best_of!r}", TC.INVALID_BEST_OF)
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
            best_of=best_of,
        )
    ]


def _register(state: TournamentState, c: RegisterPlayer) -> list[TournamentEvent]:
    settings_of(state)
    key, name = text_of(c.player, "player"), text_of(c.name, "name")
    if key in state.players:
        raise refuse(f"player {key!r} is already registered", TC.PLAYER_ALREADY_REGISTERED)
    wizards_id = None if c.wizards_id is None else text_of(c.wizards_id, "wizards_id")
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
    entry = player_of(state, c.player)
    if not entry.active:
        raise refuse(
            f"player {entry.key!r} already dropped after round {entry.dropped_after}", TC.PLAYER_ALREADY_DROPPED
        )
    reason = text_of(c.reason, "reason")
    # MTR 2.10: a player who drops once the next round is paired is still paired for it.
    return [PlayerDropped(player=entry.key, reason=reason, after_round=len(state.rounds), by=c.by)]


def _no_show(state: TournamentState, c: MarkNoShow) -> list[TournamentEvent]:
    settings = settings_of(state)
    entry = player_of(state, c.player)
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
        games = [0 if p == entry.key else settings.wins_needed for p in table.players]
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
    settings = settings_of(state)
    if not (is_int(c.seed) and 0 <= c.seed < MAX_SEED):
        raise refuse(f"seed must be an integer 0 <= seed < 2**53, got {c.seed!r}", TC.INVALID_SEED)
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
    settings = settings_of(state)
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
        seeds = cut_seeds(state, settings.top_cut)
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
