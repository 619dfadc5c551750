"""Events of the stack: triggers waiting, spells and abilities put on it, leaving it (CR 405, 603, 608)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events.base import DomainEvent, doc, event_type, optional

Json = dict[str, Any]


@event_type("TriggersPending")
@dataclass(frozen=True, slots=True, kw_only=True)
class TriggersPending(DomainEvent):
    """Triggered abilities of one side wait for their controller to order them (CR 603.3b)."""

    controller: str = doc("The player (a team with shared team turns) who orders them.")
    triggers: list[Json] = doc("The stack objects waiting.")
    seq: int = doc("The highest id number among them (the fold keeps `next_seq` above it).")


@event_type("TriggerPutOnStack")
@dataclass(frozen=True, slots=True, kw_only=True)
class TriggerPutOnStack(DomainEvent):
    """A triggered ability is put on the stack (CR 603.3)."""

    object: Json = doc("The stack object.")
    seq: int | None = doc("Its id number.")


@event_type("SpellCast")
@dataclass(frozen=True, slots=True, kw_only=True)
class SpellCast(DomainEvent):
    """A spell is cast: its card moves to the stack (CR 601.2)."""

    player: str = doc("Who cast it.")
    object: Json = doc("The stack object (kind `spell`, `card` the card).")
    from_zone: str = doc("The zone it was cast from (`hand`, `command`, `graveyard`, `exile`, `library`).", json="from")
    seq: int = doc("Its id number.")
    commander_tax: int | None = optional(
        "A commander cast from the command zone: the generic mana its tax added to the cost, 0 included (CR 903.8)."
    )


@event_type("AbilityActivated")
@dataclass(frozen=True, slots=True, kw_only=True)
class AbilityActivated(DomainEvent):
    """An activated ability is activated (CR 602.2); a mana ability resolves at once (605.3b)."""

    player: str = doc("Who activated it.")
    permanent: str = doc("Its source.")
    ability: int = doc("The ability's index among the source's automated abilities.")
    text: str = doc("The ability's Oracle text.")
    object: Json | None = doc("The stack object, or null for a mana ability.")
    seq: int | None = optional("Its id number (abilities that use the stack).")
    mana_ability: bool = optional("True for a mana ability.", False)
    remember: str | None = optional('A "once each turn" key (a loyalty ability, CR 606.3).')


@event_type("StackObjectResolved")
@dataclass(frozen=True, slots=True, kw_only=True)
class StackObjectResolved(DomainEvent):
    """The top object of the stack resolves and leaves it (CR 608.2)."""

    id: str = doc("The stack object's id.")
    description: str = doc("What it was.")
    note: str | None = optional("What the resolution did or why it did nothing.")
    to: str | None = optional("`graveyard` for an instant or sorcery (CR 608.2n).")
    remember: str | None = optional('A "once each turn" key.')


@event_type("StackObjectCountered")
@dataclass(frozen=True, slots=True, kw_only=True)
class StackObjectCountered(DomainEvent):
    """A stack object leaves the stack without resolving: countered (701.6a), every target
    illegal (608.2b), or its controller left the game (800.4a)."""

    id: str = doc("The stack object's id.")
    reason: str = doc("Why.")
    description: str | None = optional("What it was.")
    to: str | None = optional("`graveyard` for a spell's card.")
    note: str | None = optional("A remark on the record.")
