"""The tournament's state, an immutable value, and the fold that builds it from the events.

``evolve(state, event)`` applies one event; ``tournament_state(events)`` folds a whole log. The fold
records what the events say (pairings, results, drops), whatever the pairing code does today.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any, TypeVar

from domain.tournament.decklists_state import NO_DECKLISTS, Decklists
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
    TableFeatured,
    TopCutPaired,
    TournamentEvent,
    tournament_event_classes,
)
from domain.tournament.player_report import PlayerResultReport

SWISS = "swiss"
TOP_CUT = "top_cut"
TWO_PLAYER = "two_player"
COMMANDER = "commander"


@dataclass(frozen=True, slots=True)
class Settings:
    """What ``EventCreated`` announced."""

    name: str
    format: str
    rel: str
    rounds: int | None
    """Swiss rounds announced; ``None`` until round 1 fixes them (``TournamentState.rounds_planned``)."""
    round_minutes: int
    top_cut: int | None
    kind: str
    """``two_player`` or ``commander``."""
    win_points: int
    draw_points: int
    best_of: int = 3
    """Games of a two-player match (1, 3 or 5; MTR 2.1)."""

    @property
    def wins_needed(self) -> int:
        """Game wins that win a match: 1, 2 or 3."""
        return self.best_of // 2 + 1


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """One registered player."""

    key: str
    name: str
    wizards_id: str | None
    index: int
    """Registration order (0 first): the last resort of the standings' order."""
    missed_rounds: int = 0
    """Late entry: rounds 1..N are match losses without an opponent."""
    dropped_after: int | None = None
    """The last round the player is in, once dropped; ``None`` while in the event."""
    drop_reason: str | None = None
    no_shows: tuple[int, ...] = ()
    """Rounds the player didn't show up for."""

    @property
    def active(self) -> bool:
        """Still to be paired in coming rounds."""
        return self.dropped_after is None


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A reported match: games won per seat, drawn games, and whether it was an intentional draw."""

    games: tuple[int, ...]
    draws: int
    intentional: bool = False

    def winner_seat(self) -> int | None:
        """The seat with the most game wins, or ``None`` for a draw (MTR 2.1: equal game wins at
        the end of the round is a drawn match)."""
        best = max(self.games)
        seats = [i for i, g in enumerate(self.games) if g == best]
        return seats[0] if len(seats) == 1 else None


@dataclass(frozen=True, slots=True)
class Table:
    """One match of a round."""

    number: int
    players: tuple[str, ...]
    """Seat order; in the top cut the first seat is the higher seed."""
    result: MatchResult | None = None
    corrections: int = 0
    featured: bool = False
    """A scorekeeper marked the table as featured (``TableFeatured``)."""
    report: PlayerResultReport | None = None
    """The players' report waiting or disputed (``domain.tournament.report_folds``)."""

    def winner(self) -> str | None:
        if self.result is None:
            return None
        seat = self.result.winner_seat()
        return None if seat is None else self.players[seat]


@dataclass(frozen=True, slots=True)
class RoundClock:
    """The round's clock: when it started, how long it was given, the time spent paused."""

    minutes: int | None = None
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused_for: timedelta = timedelta(0)
    ended_at: datetime | None = None
    last_change: datetime | None = None
    """The latest moment the clock recorded: a new change may not be earlier."""

    def remaining(self, now: datetime) -> timedelta | None:
        """Time left at ``now`` (negative once over time); ``None`` before the start."""
        if self.started_at is None or self.minutes is None:
            return None
        stop = self.ended_at or self.paused_at or now
        elapsed = stop - self.started_at - self.paused_for
        return timedelta(minutes=self.minutes) - elapsed


@dataclass(frozen=True, slots=True)
class Round:
    """One round: Swiss (with its seed and byes) or a playoff round."""

    number: int
    stage: str
    """``swiss`` or ``top_cut``."""
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    seed: int | None = None
    cut: int | None = None
    """Top cut: players left in the bracket at this round."""
    clock: RoundClock = RoundClock()

    def table(self, number: int) -> Table | None:
        # Tables are numbered 1..n in order (RoundPaired, TopCutPaired).
        return self.tables[number - 1] if 1 <= number <= len(self.tables) else None

    @property
    def complete(self) -> bool:
        """Every match has a result."""
        return all(t.result is not None for t in self.tables)

    def table_of(self, player: str) -> Table | None:
        return next((t for t in self.tables if player in t.players), None)


@dataclass(frozen=True, slots=True)
class TournamentState:
    """The whole tournament at one point of its log."""

    settings: Settings | None = None
    players: Mapping[str, PlayerEntry] = field(default_factory=lambda: MappingProxyType({}))
    rounds: tuple[Round, ...] = ()
    rounds_planned: int | None = None
    """Swiss rounds: announced, or fixed when round 1 was paired."""
    cut_seeds: tuple[str, ...] = ()
    """The top cut's players in seed order, once it is paired."""
    version: int = 0
    """Events folded so far."""
    decklists: Decklists = NO_DECKLISTS
    """Registered lists, deadline, lock, deck-check picks, publication (issue 42)."""

    @property
    def swiss_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.stage == SWISS)

    @property
    def top_cut_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.stage == TOP_CUT)

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None

    def active_players(self) -> tuple[PlayerEntry, ...]:
        """Players to pair in the next round, in registration order."""
        return tuple(p for p in sorted(self.players.values(), key=lambda p: p.index) if p.active)

    @property
    def champion(self) -> str | None:
        """The winner of the final (a top cut of 2 players, complete)."""
        cut = self.top_cut_rounds
        if cut and cut[-1].cut == 2 and cut[-1].complete:
            return cut[-1].tables[0].winner()
        return None


EMPTY = TournamentState()

E = TypeVar("E", bound=TournamentEvent)
Fold = Callable[[TournamentState, Any], TournamentState]
FOLDS: dict[type[TournamentEvent], Fold] = {}


def _on(cls: type[E]) -> Callable[[Callable[[TournamentState, E], TournamentState]], Fold]:
    def register(handler: Callable[[TournamentState, E], TournamentState]) -> Fold:
        FOLDS[cls] = handler
        return handler

    return register


def missing_folds() -> list[str]:
    """Tournament event types without a fold (a test keeps this empty)."""
    return [cls.TYPE for cls in tournament_event_classes() if cls not in FOLDS]


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    """The state after one event."""
    folded = FOLDS[type(event)](state, event)
    return dataclasses.replace(folded, version=state.version + 1)


def tournament_state(events: Iterable[TournamentEvent]) -> TournamentState:
    """The state after folding ``events`` onto the empty tournament."""
    state = EMPTY
    for event in events:
        state = evolve(state, event)
    return state


def parse_time(text: str) -> datetime:
    """An ISO 8601 moment; one without a UTC offset is refused by ``decide`` before it's stored."""
    return datetime.fromisoformat(text)


# --- folds --------------------------------------------------------------------------------------


def _with_player(state: TournamentState, entry: PlayerEntry) -> TournamentState:
    players = dict(state.players)
    players[entry.key] = entry
    return dataclasses.replace(state, players=MappingProxyType(players))


def _with_round(state: TournamentState, rnd: Round) -> TournamentState:
    rounds = list(state.rounds)
    rounds[rnd.number - 1] = rnd
    return dataclasses.replace(state, rounds=tuple(rounds))


def _with_table(state: TournamentState, number: int, table: Table) -> TournamentState:
    rnd = state.rounds[number - 1]
    tables = list(rnd.tables)
    tables[table.number - 1] = table
    return _with_round(state, dataclasses.replace(rnd, tables=tuple(tables)))


def _tables(pairings: Iterable[PairingJson]) -> tuple[Table, ...]:
    return tuple(Table(number=p["table"], players=tuple(p["players"])) for p in pairings)


@_on(EventCreated)
def _created(state: TournamentState, e: EventCreated) -> TournamentState:
    settings = Settings(
        name=e.name,
        format=e.format,
        rel=e.rel,
        rounds=e.rounds,
        round_minutes=e.round_minutes,
        top_cut=e.top_cut,
        kind=e.kind,
        win_points=e.win_points,
        draw_points=e.draw_points,
        best_of=e.best_of,
    )
    return dataclasses.replace(state, settings=settings, rounds_planned=e.rounds)


@_on(PlayerRegistered)
def _registered(state: TournamentState, e: PlayerRegistered) -> TournamentState:
    entry = PlayerEntry(
        key=e.player, name=e.name, wizards_id=e.wizards_id, index=len(state.players), missed_rounds=e.missed_rounds
    )
    return _with_player(state, entry)


@_on(PlayerDropped)
def _dropped(state: TournamentState, e: PlayerDropped) -> TournamentState:
    entry = dataclasses.replace(state.players[e.player], dropped_after=e.after_round, drop_reason=e.reason)
    return _with_player(state, entry)


@_on(PlayerMarkedNoShow)
def _no_show(state: TournamentState, e: PlayerMarkedNoShow) -> TournamentState:
    entry = state.players[e.player]
    return _with_player(state, dataclasses.replace(entry, no_shows=(*entry.no_shows, e.round)))


@_on(RoundPaired)
def _paired(state: TournamentState, e: RoundPaired) -> TournamentState:
    rnd = Round(number=e.round, stage=SWISS, tables=_tables(e.pairings), byes=tuple(e.byes), seed=e.seed)
    planned = e.rounds_planned if e.rounds_planned is not None else state.rounds_planned
    return dataclasses.replace(state, rounds=(*state.rounds, rnd), rounds_planned=planned)


@_on(TopCutPaired)
def _cut_paired(state: TournamentState, e: TopCutPaired) -> TournamentState:
    rnd = Round(number=e.round, stage=TOP_CUT, tables=_tables(e.pairings), cut=e.cut)
    seeds = tuple(e.seeds) if e.seeds is not None else state.cut_seeds
    return dataclasses.replace(state, rounds=(*state.rounds, rnd), cut_seeds=seeds)


def _set_result(
    state: TournamentState, number: int, table: int, result: MatchResult, corrected: bool
) -> TournamentState:
    old = state.rounds[number - 1].tables[table - 1]
    new = dataclasses.replace(old, result=result, corrections=old.corrections + (1 if corrected else 0))
    return _with_table(state, number, new)


@_on(ResultReported)
def _reported(state: TournamentState, e: ResultReported) -> TournamentState:
    return _set_result(state, e.round, e.table, MatchResult(tuple(e.games), e.draws), corrected=False)


@_on(ResultCorrected)
def _corrected(state: TournamentState, e: ResultCorrected) -> TournamentState:
    return _set_result(state, e.round, e.table, MatchResult(tuple(e.games), e.draws), corrected=True)


@_on(IntentionalDraw)
def _drawn(state: TournamentState, e: IntentionalDraw) -> TournamentState:
    return _set_result(state, e.round, e.table, MatchResult(tuple(e.games), e.draws, intentional=True), corrected=False)


@_on(TableFeatured)
def _featured(state: TournamentState, e: TableFeatured) -> TournamentState:
    table = dataclasses.replace(state.rounds[e.round - 1].tables[e.table - 1], featured=e.featured)
    return _with_table(state, e.round, table)


def _with_clock(state: TournamentState, number: int, clock: RoundClock) -> TournamentState:
    return _with_round(state, dataclasses.replace(state.rounds[number - 1], clock=clock))


@_on(RoundStarted)
def _started(state: TournamentState, e: RoundStarted) -> TournamentState:
    at = parse_time(e.at)
    return _with_clock(state, e.round, RoundClock(minutes=e.minutes, started_at=at, last_change=at))


@_on(RoundPaused)
def _paused(state: TournamentState, e: RoundPaused) -> TournamentState:
    clock = state.rounds[e.round - 1].clock
    at = parse_time(e.at)
    return _with_clock(state, e.round, dataclasses.replace(clock, paused_at=at, last_change=at))


@_on(RoundResumed)
def _resumed(state: TournamentState, e: RoundResumed) -> TournamentState:
    clock = state.rounds[e.round - 1].clock
    assert clock.paused_at is not None  # decide refuses a resume of a running clock
    at = parse_time(e.at)
    paused_for = clock.paused_for + (at - clock.paused_at)
    return _with_clock(
        state, e.round, dataclasses.replace(clock, paused_at=None, paused_for=paused_for, last_change=at)
    )


@_on(RoundEnded)
def _ended(state: TournamentState, e: RoundEnded) -> TournamentState:
    clock = state.rounds[e.round - 1].clock
    at = parse_time(e.at)
    if clock.paused_at is not None:
        # Ending a paused round: the pause lasts until the end, so the clock shows what was left.
        clock = dataclasses.replace(clock, paused_at=None, paused_for=clock.paused_for + (at - clock.paused_at))
    return _with_clock(state, e.round, dataclasses.replace(clock, ended_at=at, last_change=at))
