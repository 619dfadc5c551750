"""The tournament's write use cases: one message type each, one handler each, one entry.

In the shape of Cosmic Python's message bus: the HTTP edge (or a tool) builds one of these
frozen values and hands it to ``LedgerService.handle`` with the caller and the request's
Idempotency-Key; ``HANDLERS`` maps each type to the one function that carries it out through
``ledger.tournament_service`` (and, for a pairing, runs the games its decision asked for). There
is no method per use case on the facade to forward to it.

A use case names what the caller asks for; the kernel's commands (``domain.tournament``) are
what is decided on the head (a registration's player id, for one, is chosen there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.tournament import CreateEvent
from ledger.decklist_use_cases import DECKLIST_HANDLERS, DecklistUseCase
from ledger.write_path import Submission

if TYPE_CHECKING:  # the facade that runs them (it imports this module)
    from ledger.tournament_facade import TournamentFacade


@dataclass(frozen=True, slots=True)
class CreateTournament:
    """Announce a tournament (``409 tournament_already_created`` if the id is taken)."""

    tournament_id: str
    event: CreateEvent


@dataclass(frozen=True, slots=True)
class RegisterPlayer:
    """Register a player (a late entry once round 1 is paired)."""

    tournament_id: str
    name: str
    wizards_id: str | None = None


@dataclass(frozen=True, slots=True)
class RegisterRoster:
    """Register every row of a roster file in one atomic save."""

    tournament_id: str
    text: str


@dataclass(frozen=True, slots=True)
class DropPlayer:
    """Drop a player (MTR 2.10)."""

    tournament_id: str
    player: str
    reason: str = "requested"


@dataclass(frozen=True, slots=True)
class MarkNoShow:
    tournament_id: str
    player: str


@dataclass(frozen=True, slots=True)
class PairRound:
    """Pair the next Swiss round (the seed from ``secrets`` unless given) and create its games."""

    tournament_id: str
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class PairTopCut:
    """Pair the next top-cut round and create its games."""

    tournament_id: str


@dataclass(frozen=True, slots=True)
class ReportResult:
    """A match's result, in game wins by player id."""

    tournament_id: str
    round: int
    table: int
    wins: Mapping[str, int] = field(default_factory=dict)
    draws: int = 0
    reason: str | None = None
    """Why (optional; settling a disputed players' report needs one)."""


@dataclass(frozen=True, slots=True)
class ReportOwnMatch:
    """A player reports their own match (their event link's player); the opponent confirms."""

    tournament_id: str
    player: str
    round: int
    table: int
    wins: Mapping[str, int]
    draws: int = 0
    token: str | None = None


@dataclass(frozen=True, slots=True)
class ConfirmMatchReport:
    """The opponent confirms the report waiting: it becomes the tournament's result."""

    tournament_id: str
    player: str
    round: int
    table: int
    token: str | None = None


@dataclass(frozen=True, slots=True)
class DisputeMatchReport:
    """The opponent disputes the report waiting: the scorekeeper or a judge settles it."""

    tournament_id: str
    player: str
    round: int
    table: int
    note: str | None = None
    token: str | None = None


@dataclass(frozen=True, slots=True)
class CorrectResult:
    """Correct a reported result, with the reason on the record."""

    tournament_id: str
    round: int
    table: int
    wins: Mapping[str, int]
    draws: int
    reason: str


@dataclass(frozen=True, slots=True)
class IntentionalDraw:
    """MTR 2.4: the players agree to a draw."""

    tournament_id: str
    round: int
    table: int


@dataclass(frozen=True, slots=True)
class NextGame:
    """Create the match's next game (refused once the match is over or while a game is on)."""

    tournament_id: str
    round: int
    table: int


@dataclass(frozen=True, slots=True)
class FeatureTable:
    tournament_id: str
    round: int
    table: int
    featured: bool = True


@dataclass(frozen=True, slots=True)
class RoundClock:
    """Start, pause, resume or end the round's clock at the ledger clock's time."""

    tournament_id: str
    round: int
    action: str


UseCase = (
    CreateTournament
    | RegisterPlayer
    | RegisterRoster
    | DropPlayer
    | MarkNoShow
    | PairRound
    | PairTopCut
    | ReportResult
    | ReportOwnMatch
    | ConfirmMatchReport
    | DisputeMatchReport
    | CorrectResult
    | IntentionalDraw
    | NextGame
    | FeatureTable
    | RoundClock
    | DecklistUseCase
)
Handler = Callable[["TournamentFacade", Any, Submission], dict[str, Any]]


def _create(f: TournamentFacade, c: CreateTournament, by: Submission) -> dict[str, Any]:
    return f.tournament_service.create(c.tournament_id, c.event, by)


def _register(f: TournamentFacade, c: RegisterPlayer, by: Submission) -> dict[str, Any]:
    return f.tournament_service.register(c.tournament_id, c.name, c.wizards_id, by)


def _roster(f: TournamentFacade, c: RegisterRoster, by: Submission) -> dict[str, Any]:
    return f.tournament_service.register_csv(c.tournament_id, c.text, by)


def _drop(f: TournamentFacade, c: DropPlayer, by: Submission) -> dict[str, Any]:
    return f.tournament_service.drop(c.tournament_id, c.player, c.reason, by)


def _no_show(f: TournamentFacade, c: MarkNoShow, by: Submission) -> dict[str, Any]:
    return f.tournament_service.no_show(c.tournament_id, c.player, by)


def _pair(f: TournamentFacade, c: PairRound, by: Submission) -> dict[str, Any]:
    f.complete_rounds(c.tournament_id, by.actor)
    return f.open_round(c.tournament_id, f.tournament_service.pair_round(c.tournament_id, c.seed, by), by)


def _top_cut(f: TournamentFacade, c: PairTopCut, by: Submission) -> dict[str, Any]:
    f.complete_rounds(c.tournament_id, by.actor)
    return f.open_round(c.tournament_id, f.tournament_service.pair_top_cut(c.tournament_id, by), by)


def _report(f: TournamentFacade, c: ReportResult, by: Submission) -> dict[str, Any]:
    return f.tournament_service.report(c.tournament_id, c.round, c.table, c.wins, c.draws, by, c.reason)


def _own_report(f: TournamentFacade, c: ReportOwnMatch, by: Submission) -> dict[str, Any]:
    return f.match_reports.file(c.tournament_id, c.player, c.round, c.table, c.wins, c.draws, c.token, by)


def _confirm_report(f: TournamentFacade, c: ConfirmMatchReport, by: Submission) -> dict[str, Any]:
    return f.match_reports.confirm(c.tournament_id, c.player, c.round, c.table, c.token, by)


def _dispute_report(f: TournamentFacade, c: DisputeMatchReport, by: Submission) -> dict[str, Any]:
    return f.match_reports.dispute(c.tournament_id, c.player, c.round, c.table, c.note, c.token, by)


def _correct(f: TournamentFacade, c: CorrectResult, by: Submission) -> dict[str, Any]:
    return f.tournament_service.correct(c.tournament_id, c.round, c.table, c.wins, c.draws, c.reason, by)


def _draw(f: TournamentFacade, c: IntentionalDraw, by: Submission) -> dict[str, Any]:
    return f.tournament_service.intentional_draw(c.tournament_id, c.round, c.table, by)


def _next_game(f: TournamentFacade, c: NextGame, by: Submission) -> dict[str, Any]:
    f.complete_rounds(c.tournament_id, by.actor)
    game = f.tournament_service.next_game(c.tournament_id, c.round, c.table)
    f.start_match_game(game, by)
    return f.tournament_service.next_game_answer(c.tournament_id, c.round, c.table, game)


def _feature(f: TournamentFacade, c: FeatureTable, by: Submission) -> dict[str, Any]:
    return f.tournament_service.feature(c.tournament_id, c.round, c.table, c.featured, by)


def _clock(f: TournamentFacade, c: RoundClock, by: Submission) -> dict[str, Any]:
    return f.tournament_service.clock(c.tournament_id, c.round, c.action, by)


HANDLERS: dict[type[Any], Handler] = {
    CreateTournament: _create,
    RegisterPlayer: _register,
    RegisterRoster: _roster,
    DropPlayer: _drop,
    MarkNoShow: _no_show,
    PairRound: _pair,
    PairTopCut: _top_cut,
    ReportResult: _report,
    ReportOwnMatch: _own_report,
    ConfirmMatchReport: _confirm_report,
    DisputeMatchReport: _dispute_report,
    CorrectResult: _correct,
    IntentionalDraw: _draw,
    NextGame: _next_game,
    FeatureTable: _feature,
    RoundClock: _clock,
    **DECKLIST_HANDLERS,  # issue 42
}
"""Each use case's one handler (``tests/tournament/test_use_cases.py``: one for every type)."""
