"""Commands of judges and of players answering reports (docs/judges.md).

Built by the judging routes (``api/routes/judging.py``) from their bodies; decided by
``domain.judging``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Penalties of the IPG (1.1, Definition of Penalties), least severe first.
PENALTIES: tuple[str, ...] = ("Warning", "Game Loss", "Match Loss", "Disqualification")
#: Penalties that end the game the penalised player is in.
GAME_ENDING_PENALTIES = frozenset({"Game Loss", "Match Loss", "Disqualification"})

#: The infractions of the Magic Infraction Procedure Guide, by section (docs/judges.md).
INFRACTIONS: dict[str, str] = {
    "2.1": "Missed Trigger",
    "2.2": "Looking at Extra Cards",
    "2.3": "Hidden Card Error",
    "2.4": "Mulligan Procedure Error",
    "2.5": "Game Rule Violation",
    "2.6": "Failure to Maintain Game State",
    "3.1": "Tardiness",
    "3.2": "Outside Assistance",
    "3.3": "Slow Play",
    "3.4": "Decklist Problem",
    "3.5": "Deck Problem",
    "3.6": "Limited Procedure Violation",
    "3.7": "Communication Policy Violation",
    "3.8": "Marked Cards",
    "3.9": "Insufficient Shuffling",
    "4.1": "Unsporting Conduct — Minor",
    "4.2": "Unsporting Conduct — Major",
    "4.3": "Improperly Determining a Winner",
    "4.4": "Bribery and Wagering",
    "4.5": "Aggressive Behavior",
    "4.6": "Theft of Tournament Material",
    "4.7": "Stalling",
    "4.8": "Cheating",
}


@dataclass(frozen=True, slots=True)
class CallJudge:
    called_by: str
    question: str


@dataclass(frozen=True, slots=True)
class AnswerCall:
    call: str
    ruling: str


@dataclass(frozen=True, slots=True)
class GivePenalty:
    player: str
    section: str
    penalty: str
    reason: str | None = None
    call: str | None = None


@dataclass(frozen=True, slots=True)
class ExtendTime:
    minutes: int
    reason: str
    call: str | None = None


@dataclass(frozen=True, slots=True)
class CheckDecks:
    players: tuple[str, ...]
    result: str


@dataclass(frozen=True, slots=True)
class Acknowledge:
    report: str
    by: str
    """The acknowledging player, or ``judge``."""
    as_judge: bool = False
    """A judge's acknowledgement (decided by the token's role, ``domain.permissions``), never by
    ``by``: a player's id may be ``judge`` too."""


@dataclass(frozen=True, slots=True)
class Dispute:
    report: str
    by: str
    reason: str


JudgingCommand = CallJudge | AnswerCall | GivePenalty | ExtendTime | CheckDecks | Acknowledge | Dispute
