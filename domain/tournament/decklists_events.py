"""The decklists' events on the tournament's record (issue 42): each submission and change of a
list, the deadline, the lock, the tables picked for deck checks and the publication.

They are tournament events (``domain.tournament.events``' registry), so each is sealed in the
tournament's hash chain with who stored it and when: a list can't change silently after the lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from domain.events.base import doc, optional
from domain.tournament.events import TournamentEvent, tournament_event


class EntryJson(TypedDict):
    """One line of a list as stored: the copies and the catalog's name of the card."""

    count: int
    name: str


@tournament_event("DecklistSubmitted")
@dataclass(frozen=True, slots=True, kw_only=True)
class DecklistSubmitted(TournamentEvent):
    """A player's decklist was registered, or replaced by a new one (MTR 2.x, decklists): legal
    for the event's format by the card catalog when it was stored (CR 100.2a, 903.5)."""

    player: str = doc("The player whose list it is.")
    main: list[EntryJson] = doc("The main deck: `{count, name}` lines.")
    sideboard: list[EntryJson] = doc("The sideboard: `{count, name}` lines (may be empty).")
    commander: list[EntryJson] | None = optional("Commander: the commander (CR 903.3); absent otherwise.")
    at: str = doc("When it was submitted (ISO 8601 with a UTC offset).")
    by: str = doc("Who submitted it (the player's token name, or a scorekeeper's).")
    replaces: int = optional("How many lists of this player were stored before this one.", 0)


@tournament_event("DecklistDeadlineSet")
@dataclass(frozen=True, slots=True, kw_only=True)
class DecklistDeadlineSet(TournamentEvent):
    """The scorekeeper set (or cleared) the time after which no list is taken."""

    deadline: str | None = doc("ISO 8601 with a UTC offset; `null`: no deadline.")
    by: str = doc("Who set it.")


@tournament_event("DecklistSubmissionLocked")
@dataclass(frozen=True, slots=True, kw_only=True)
class DecklistSubmissionLocked(TournamentEvent):
    """The scorekeeper locked submission (no list is taken or changed) or unlocked it."""

    locked: bool = doc("`true`: locked from now on; `false`: unlocked.")
    by: str = doc("Who changed it.")


@tournament_event("DeckChecksPicked")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeckChecksPicked(TournamentEvent):
    """A judge picked the tables of a round whose decks are checked (MTR 2.x, deck checks)."""

    round: int = doc("The round.")
    tables: list[int] = doc("The tables picked.")
    how: str = doc("`random` (drawn with `seed`) or `chosen` (named by the judge).")
    seed: int | None = optional("A random pick's seed: drawing again with it gives these tables.")
    by: str = doc("The judge.")


@tournament_event("DecklistsPublished")
@dataclass(frozen=True, slots=True, kw_only=True)
class DecklistsPublished(TournamentEvent):
    """The scorekeeper published the lists after the event: all of them or the top cut's."""

    scope: str = doc("`all` or `top_cut`.")
    players: list[str] = doc("The players whose lists are public from now on.")
    by: str = doc("Who published them.")
