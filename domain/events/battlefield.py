"""Events of permanents and mana (CR 106, 110, 302, 400.7, 508, 611)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events.base import DomainEvent, doc, event_type, optional

Json = dict[str, Any]


@event_type("PermanentEntered")
@dataclass(frozen=True, slots=True, kw_only=True)
class PermanentEntered(DomainEvent):
    """A permanent enters the battlefield (CR 110.1)."""

    permanent: Json = doc("The permanent, as it enters (with the counters it enters with).")
    seq: int | None = optional("The id number the server gave it.")
    from_zone: str | None = optional("The zone its card came from (`hand`).", json="from")
    land_play: bool = optional("True when it is the player's land play (CR 305.1).", False)


@event_type("PermanentLeft")
@dataclass(frozen=True, slots=True, kw_only=True)
class PermanentLeft(DomainEvent):
    """A permanent leaves the battlefield: a new object in its new zone (CR 400.7)."""

    permanent: str = doc("Its id.")
    name: str = doc("Its card's name.")
    to: str = doc(
        "`graveyard`, `exile`, `hand`, `library_top`, `library_bottom`, `command` (a commander, CR 903.9b) or `none`."
    )
    reason: str = doc("Why (`destroyed`, `sacrificed`, `moved`, ...).")
    last_known: Json = doc("The permanent as it last existed (CR 603.10a looks back at it).")


@event_type("PermanentTapped")
@dataclass(frozen=True, slots=True, kw_only=True)
class PermanentTapped(DomainEvent):
    """A permanent becomes tapped (CR 701.26a)."""

    permanent: str = doc("Its id.")
    cause: str = doc("`manual`, `cost`, `attack`, ...")


@event_type("PermanentUntapped")
@dataclass(frozen=True, slots=True, kw_only=True)
class PermanentUntapped(DomainEvent):
    """A permanent becomes untapped (CR 701.26b, 502.3)."""

    permanent: str = doc("Its id.")
    cause: str = doc("`manual`, `cost`, `untap step`, ...")


@event_type("ControlChanged")
@dataclass(frozen=True, slots=True, kw_only=True)
class ControlChanged(DomainEvent):
    """A permanent gets a new controller (CR 701.12b exchange, 110.2)."""

    permanent: str = doc("Its id.")
    controller: str = doc("The new controller.")
    cause: str = doc("The card that changed it, or why control returned.")
    ends_effects: bool = optional(
        "True when control returns because the effects that gave it away ended: their player left "
        "the game (CR 800.4a).",
        False,
    )


@event_type("PowerToughnessModified")
@dataclass(frozen=True, slots=True, kw_only=True)
class PowerToughnessModified(DomainEvent):
    """A permanent's power and toughness change until end of turn (CR 611.2, layer 7c)."""

    permanent: str = doc("Its id.")
    power: int = doc("The change to its power.")
    toughness: int = doc("The change to its toughness.")
    until: str = doc("`end_of_turn`.")
    cause: str = doc("The card that changed them.")


@event_type("AttackersDeclared")
@dataclass(frozen=True, slots=True, kw_only=True)
class AttackersDeclared(DomainEvent):
    """The active player declares attackers (CR 508.1); their taps follow as events."""

    player: str = doc("The attacking player.")
    attackers: list[Json] = doc("`[{permanent, attacks, defending_player}]`.")
    remember: str = doc('The "once each turn" key of the declaration (CR 508.1).')


@event_type("ManaAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class ManaAdded(DomainEvent):
    """Mana is added to a player's pool (CR 106.3)."""

    player: str = doc("Whose pool.")
    mana: dict[str, int] = doc('`{"G": 1}`; types `W U B R G C`.')
    source: str = doc("The permanent that produced it.")
    cause: str | None = optional("The triggered mana ability's card (CR 605.4a).")


@event_type("ManaPoolEmptied")
@dataclass(frozen=True, slots=True, kw_only=True)
class ManaPoolEmptied(DomainEvent):
    """A player's mana pool empties at the end of a step or phase (CR 106.4)."""

    player: str = doc("Whose pool.")
    lost: dict[str, int] = doc("The mana that emptied.")
