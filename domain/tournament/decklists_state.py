"""The decklists part of the tournament's state (issue 42): an immutable value folded from the
decklist events (``domain.tournament.decklists``), held by ``TournamentState.decklists``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from domain.tournament.decklists_text import Entry


@dataclass(frozen=True, slots=True)
class Decklist:
    """A player's registered list (the latest one stored)."""

    player: str
    main: tuple[Entry, ...]
    sideboard: tuple[Entry, ...]
    commander: tuple[Entry, ...]
    at: str
    by: str
    version: int
    """The tournament version that stored it."""
    submissions: int = 1

    def names(self, with_sideboard: bool) -> frozenset[str]:
        """The case-folded card names the list has (the sideboard's too, when asked)."""
        entries = (*self.main, *self.commander, *(self.sideboard if with_sideboard else ()))
        return frozenset(e.name.casefold() for e in entries)


@dataclass(frozen=True, slots=True)
class DeckCheckPick:
    round: int
    tables: tuple[int, ...]
    how: str
    seed: int | None
    by: str


@dataclass(frozen=True, slots=True)
class Decklists:
    lists: Mapping[str, Decklist] = field(default_factory=lambda: MappingProxyType({}))
    deadline: str | None = None
    locked: bool = False
    picks: tuple[DeckCheckPick, ...] = ()
    published: tuple[str, ...] | None = None
    """The players whose lists are public (``None``: not published)."""
    published_scope: str | None = None


NO_DECKLISTS = Decklists()
