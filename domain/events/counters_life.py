"""Events of counters, life and damage (CR 119, 120, 122, 701.34)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events.base import DomainEvent, doc, event_type, optional

Json = dict[str, Any]


@event_type("CountersAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class CountersAdded(DomainEvent):
    """Counters are put on a player or a permanent (CR 122.6), after replacement effects."""

    target: Json = doc("`{player: id}` or `{permanent: id}`.")
    kind: str = doc("The counter kind (`+1/+1`, `rad`, `poison`, ...).")
    amount: int = doc("How many (at least 1).")
    cause: str = doc("What put them (`manual`, a card name, `proliferate`, `cost`, ...).")


@event_type("CountersRemoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class CountersRemoved(DomainEvent):
    """Counters are removed from a player or a permanent (CR 122.8)."""

    target: Json = doc("`{player: id}` or `{permanent: id}`.")
    kind: str = doc("The counter kind.")
    amount: int = doc("How many (at least 1).")
    cause: str = doc("What removed them (`manual`, `radiation`, `sba`, `cost`, ...).")


@event_type("Proliferated")
@dataclass(frozen=True, slots=True, kw_only=True)
class Proliferated(DomainEvent):
    """A player proliferates (CR 701.34a); the `CountersAdded` that follow carry the change."""

    player: str = doc("Who proliferated.")
    chosen: list[Json] = doc("The players and permanents chosen (with `kind` in games before 2019-05-03).")
    cause: str = doc("The card or ability.")


@event_type("LifeLost")
@dataclass(frozen=True, slots=True, kw_only=True)
class LifeLost(DomainEvent):
    """A player loses life (CR 119.3), or pays it (119.4)."""

    player: str = doc("Who lost it.")
    amount: int = doc("How much (at least 1).")
    cause: str = doc("What made them lose it.")
    life_after: int = doc("The life total (the team's, in Two-Headed Giant) after the loss.")
    paid: bool = optional("True when the life was paid as a cost (CR 119.4).", False)


@event_type("LifeGained")
@dataclass(frozen=True, slots=True, kw_only=True)
class LifeGained(DomainEvent):
    """A player gains life (CR 119.3)."""

    player: str = doc("Who gained it.")
    amount: int = doc("How much (at least 1).")
    cause: str = doc("What made them gain it.")
    life_after: int = doc("The life total after the gain.")


@event_type("DamageDealt")
@dataclass(frozen=True, slots=True, kw_only=True)
class DamageDealt(DomainEvent):
    """Damage is dealt (CR 120.3); its results follow as life, counter or damage events."""

    source: str = doc("A card name, a permanent id or `manual`.")
    target: Json = doc("`{player: id}` or `{permanent: id}`.")
    amount: int = doc("How much damage.")
    infect: bool = doc("The source has infect (CR 702.90): counters instead of life loss.")
    toxic: int = doc("The source's toxic N (CR 702.164): poison counters as well.")
    combat: bool = optional("True for combat damage.", False)
    commander: str | None = optional(
        "Combat damage to a player by a commander: `OWNER:Commander Name`, the key of the player's "
        "`commander_damage` it adds to (CR 903.10a)."
    )
