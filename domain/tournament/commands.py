"""Tournament commands: what a scorekeeper, judge or player asks for; ``decide`` turns each into
events or refuses it.

Commands carry everything a decision needs that the state can't know: the random seed of a
pairing and the wall-clock time of a clock change come from the service, so ``decide`` is pure
and the same command on the same state always gives the same events.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.tournament.decklists_commands import DecklistCommand


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateEvent:
    """Announce the tournament (see ``EventCreated`` for the fields' meaning)."""

    name: str
    format: str
    rel: str = "regular"
    rounds: int | None = None
    round_minutes: int = 50
    top_cut: int | None = None
    kind: str = "two_player"
    win_points: int = 3
    draw_points: int = 1
    best_of: int = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterPlayer:
    """Add a player; after round 1 is paired this is a late entry."""

    player: str
    name: str
    wizards_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DropPlayer:
    """Drop a player from the next round on (MTR 2.10)."""

    player: str
    reason: str = "requested"
    by: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkNoShow:
    """A player didn't show up for their match in the current round."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PairRound:
    """Pair the next Swiss round with the service's random ``seed`` (recorded in the event)."""

    seed: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PairTopCut:
    """Pair the next single-elimination round (no randomness: seeds come from standings)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportResult:
    """Report a match: games won per seat, and drawn games."""

    round: int
    table: int
    games: tuple[int, ...]
    draws: int = 0
    by: str | None = None
    reason: str | None = None
    """Why (optional; needed to settle a disputed players' report)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerReport:
    """A player reports their own match from their event link; the opponent confirms it."""

    round: int
    table: int
    player: str
    games: tuple[int, ...]
    draws: int = 0
    token: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfirmReport:
    """The opponent confirms the report waiting at their table: it becomes the result."""

    round: int
    table: int
    player: str
    token: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DisputeReport:
    """The opponent disputes the report waiting at their table: staff settles it."""

    round: int
    table: int
    player: str
    note: str | None = None
    token: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectResult:
    """Replace a reported result; ``reason`` and ``by`` go on the record."""

    round: int
    table: int
    games: tuple[int, ...]
    draws: int
    reason: str
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportIntentionalDraw:
    """The players agree to a draw (MTR 2.4); ``games`` are the games played before it (equal
    wins), ``None`` if none were played."""

    round: int
    table: int
    games: tuple[int, ...] | None = None
    draws: int | None = None
    by: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureTable:
    """Mark a table of a round as featured (``featured=False``: unmark it)."""

    round: int
    table: int
    featured: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class StartRound:
    """Start the round's clock (it runs for the event's ``round_minutes``)."""

    round: int
    at: str
    """ISO 8601 with a UTC offset, as for every clock command."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PauseRound:
    """Stop the round's clock."""

    round: int
    at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ResumeRound:
    """Run the round's clock again."""

    round: int
    at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EndRound:
    """Call time on the round."""

    round: int
    at: str


TournamentCommand = (
    CreateEvent
    | RegisterPlayer
    | DropPlayer
    | MarkNoShow
    | FeatureTable
    | PairRound
    | PairTopCut
    | ReportResult
    | PlayerReport
    | ConfirmReport
    | DisputeReport
    | CorrectResult
    | ReportIntentionalDraw
    | StartRound
    | PauseRound
    | ResumeRound
    | EndRound
    | DecklistCommand
)
