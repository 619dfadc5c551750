"""Events of cards moving between zones other than onto the battlefield (CR 121, 400, 701.17)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events.base import DomainEvent, doc, event_type, optional

Json = dict[str, Any]


@event_type("CardsMilled")
@dataclass(frozen=True, slots=True, kw_only=True)
class CardsMilled(DomainEvent):
    """A player mills cards, all at once (CR 701.17a)."""

    player: str = doc("Whose library.")
    cards: list[Json] = doc("The named cards milled, top first (now public in the graveyard).")
    requested: int = doc("The N asked for (fewer are milled from a short library).")
    nonland_count: int = doc(
        "How many of the milled cards are nonland cards (front face, CR 712.8a), unnamed ones included."
    )
    cause: str = doc("What made them mill (`manual`, `radiation`, a card name).")
    unnamed_count: int = optional(
        "How many cards from the unknown part of the library were milled without being named (below the "
        "named ones); the report gave how many of all the milled cards were nonland.",
        0,
    )


@event_type("CardsDrawn")
@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDrawn(DomainEvent):
    """A player draws cards (CR 121.2); drawing from an empty library is noted for 704.5b."""

    player: str = doc("Who drew.")
    cards: list[Json] = doc("The cards drawn that are known (hidden from lower roles).")
    unknown_count: int = doc("How many drawn cards are not named.")
    requested: int = doc("The number asked for.")
    from_empty: bool = doc("True when a draw was asked for from an empty library (CR 704.5b).")
    cause: str = doc("What made them draw (`manual`, `draw step`, a card name).")


@event_type("CardsMoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class CardsMoved(DomainEvent):
    """Cards move between a player's zones other than the battlefield."""

    player: str = doc("Whose cards.")
    cards: list[Json] = doc("The cards moved.")
    from_zone: str = doc("`graveyard`, `exile`, `library`, `hand`, `stack` or `command`.", json="from")
    to: str = doc(
        "`hand`, `graveyard`, `library_bottom`, `command` (a commander, CR 903.9a) or `none` (its owner left "
        "the game, CR 800.4a)."
    )
    cause: str = doc("The card or rule that moved them.")
    random_order: bool = optional("True when they go to the bottom of the library in a random order.", False)
