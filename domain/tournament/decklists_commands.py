"""The decklists' commands (issue 42): what a player, scorekeeper or judge asks for.

Each carries what the pure decision can't know: the time (from the service's clock), the random
seed of a deck-check pick, and the card catalog's facts a list is checked against."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from domain.tournament.decklists_legality import CardFacts


@dataclass(frozen=True, slots=True, kw_only=True)
class SubmitDecklist:
    """Register (or replace) ``player``'s list from its text."""

    player: str
    text: str
    at: str
    by: str
    catalog: Mapping[str, CardFacts] = field(default_factory=dict)
    """Card facts by case-folded name (the server's card catalog)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SetDecklistDeadline:
    deadline: str | None
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LockDecklists:
    locked: bool
    by: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PickDeckChecks:
    """Tables of ``round`` to check: ``tables`` as named, or ``random`` of them drawn with ``seed``."""

    round: int
    tables: tuple[int, ...] = ()
    random: int = 0
    seed: int = 0
    by: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class PublishDecklists:
    scope: str
    by: str


DecklistCommand = SubmitDecklist | SetDecklistDeadline | LockDecklists | PickDeckChecks | PublishDecklists
DECKLIST_COMMANDS = (SubmitDecklist, SetDecklistDeadline, LockDecklists, PickDeckChecks, PublishDecklists)
