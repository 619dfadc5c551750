"""Events of the end of the game and of the record itself (CR 104, 800.4; MIPG 1.4)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events.base import DomainEvent, doc, event_type, optional

Json = dict[str, Any]


@event_type("PlayerLost")
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLost(DomainEvent):
    """A player loses the game or concedes, and leaves it (CR 104.3, 800.4a)."""

    player: str = doc("Who lost.")
    rule: str = doc("The loss condition (`CR 704.5a`, `CR 104.3a`, ...).")
    reason: str = doc("A readable sentence (`conceded`, `life 0 or less`, ...).")


@event_type("TeamLost")
@dataclass(frozen=True, slots=True, kw_only=True)
class TeamLost(DomainEvent):
    """A team loses the game (CR 704.6a/b, 810.8a)."""

    team: str = doc("The team.")
    rule: str = doc("The loss condition.")
    reason: str = doc("A readable sentence.")


@event_type("GameEnded")
@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(DomainEvent):
    """The game is over: one player or team is left (CR 104.2a), or it is a draw (104.4a)."""

    winners: list[str] = doc("The winning player ids (empty for a draw).")
    draw: bool = doc("True for a draw.")
    rule: str | None = optional("The draw's rule (present for a draw).")


@event_type("NoteAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class NoteAdded(DomainEvent):
    """A judge's note on the record; it changes nothing in the game."""

    text: str = doc("The note (at most 10,000 characters).")


@event_type("ActionsReverted")
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionsReverted(DomainEvent):
    """A backup (MIPG 1.4): the state becomes the state at `to_version`; nothing is deleted."""

    to_version: int = doc("The version the game goes back to.")
    reverted_versions: list[int] = doc("The versions it reverts, `to_version + 1` to the head before it.")
    reason: str = doc("Why, on the record (required, not blank).")
    restored_state: Json = doc("The whole state at `to_version` (hidden from lower roles).")
