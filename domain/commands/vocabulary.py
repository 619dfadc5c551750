"""The commands: what a table, judge or tool asks for, as the rules kernel reads it.

These frozen values are the domain's vocabulary (``decide`` dispatches on their types). A request
body becomes one through its model (``domain.commands.bodies``), so a command built from a body
is already well-formed: ids non-empty, amounts in range, cards resolved, counter kinds canonical.
The rules build some themselves (``Choices`` for a card's own effect).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.cards.model import Card
from domain.commands.judging import JudgingCommand

CardResolver = Callable[[Any], Card]
"""Turns a card reference (a name string or a card object) into a ``Card``."""

Target = dict[str, str]


@dataclass(frozen=True, slots=True)
class Choices:
    """Choices carried by ``resolve`` (CR 608.2)."""

    cards: tuple[Card, ...] | None = None
    proliferate: tuple[dict[str, str], ...] | None = None
    targets: tuple[Any, ...] | None = None
    x: int | None = None
    mode: Any = None
    may: bool | None = None
    proliferate_rounds: tuple[tuple[dict[str, str], ...], ...] | None = None
    """For an effect that proliferates more than once: one list of choices per proliferate, given
    as ``"proliferate": [[...], [...]]`` (``proliferate`` then holds the first list)."""
    replacement_order: tuple[str, ...] = ()
    """Ids of replacement-effect sources, in the order to apply them where several modify one
    event (CR 616.1); see ``domain.rules.replacements``."""
    room: str | None = None
    """The room a venture moves the marker into, where the arrows lead to two (CR 701.49b)."""
    nonland_count: int | None = None
    """For a mill from the unknown part of a library the table doesn't name: how many of the
    milled cards were nonland (the rad trigger, CR 728.1, reads only that)."""


@dataclass(frozen=True, slots=True)
class Advance:
    to: str | None = None


@dataclass(frozen=True, slots=True)
class Resolve:
    choices: Choices = field(default_factory=Choices)


@dataclass(frozen=True, slots=True)
class OrderTriggers:
    resolve_first: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AddCounters:
    target: Target
    kind: str
    amount: int
    source: str | None = None
    replacement_order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RemoveCounters:
    target: Target
    kind: str
    amount: int
    up_to: bool = False
    source: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeLife:
    """``lose_life``, ``gain_life`` or ``pay_life``."""

    how: str
    player: str
    amount: int
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Damage:
    target: Target
    amount: int
    source: str | None = None
    """A card name or note, or the id of the permanent dealing the damage (its keywords apply)."""
    infect: bool = False
    toxic: int = 0
    combat: bool = False
    """Combat damage (CR 510): "deals combat damage to a player" abilities trigger on it."""


@dataclass(frozen=True, slots=True)
class Mill:
    player: str
    count: int
    cards: tuple[Card, ...] | None = None
    source: str | None = None
    nonland_count: int | None = None
    """How many of the milled cards were nonland, when the unknown ones are not named."""


@dataclass(frozen=True, slots=True)
class Draw:
    player: str
    count: int
    cards: tuple[Card, ...] | None = None
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Proliferate:
    player: str
    choose: tuple[dict[str, str], ...]
    source: str | None = None
    replacement_order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Move:
    """A permanent moves to another zone, or (``player``, ``card``, ``from_zone``) a commander
    card moves from its owner's graveyard or exile to the command zone (CR 903.9a)."""

    permanent: str | None
    to: str
    player: str | None = None
    card: str | None = None
    """The commander card's name."""
    from_zone: str | None = None


@dataclass(frozen=True, slots=True)
class Sacrifice:
    permanent: str


@dataclass(frozen=True, slots=True)
class Tap:
    permanent: str
    untap: bool = False


@dataclass(frozen=True, slots=True)
class Enter:
    card: Card
    controller: str
    id: str | None = None
    counters: Mapping[str, int] = field(default_factory=dict)
    tapped: bool = False
    token: bool = False
    x: int = 0
    replacement_order: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attack:
    """Declared attackers (CR 508.1): each entry names a creature and what it attacks."""

    player: str
    attackers: tuple[tuple[str, Target], ...]
    """(attacking permanent id, ``{"player": id}`` or ``{"permanent": id}`` it attacks)."""


@dataclass(frozen=True, slots=True)
class Concede:
    player: str


@dataclass(frozen=True, slots=True)
class CounterObject:
    """A spell or ability on the stack is countered (CR 701.6a), reported by hand."""

    object_id: str
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Note:
    text: str


@dataclass(frozen=True, slots=True)
class Cast:
    player: str
    card: Card
    x: int = 0
    targets: tuple[Any, ...] = ()
    from_zone: str = "hand"


@dataclass(frozen=True, slots=True)
class PlayLand:
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class ActivateCosts:
    """Costs an operator names for an ability the server doesn't automate (CR 118)."""

    tap: bool = False
    untap: bool = False
    sacrifice: tuple[str, ...] = ()
    remove_counters: Mapping[str, int] = field(default_factory=dict)
    pay_life: int = 0


@dataclass(frozen=True, slots=True)
class Activate:
    player: str
    permanent: str
    ability: int = 0
    x: int = 0
    costs: ActivateCosts = field(default_factory=ActivateCosts)
    targets: tuple[Any, ...] = ()
    mana: str | None = None


@dataclass(frozen=True, slots=True)
class Designate:
    """A player gets a designation (monarch, initiative, city's blessing), or the game becomes
    day or night (CR 725, 726, 702.131, 731)."""

    designation: str
    """``monarch``, ``initiative``, ``city_blessing``, ``day`` or ``night``."""
    player: str | None = None


@dataclass(frozen=True, slots=True)
class ChooseFirstPlayer:
    """Who takes the first turn (CR 103.1): ``player`` as chosen, or (``player`` ``None``) at
    random. The random pick is the ledger's (``drawn``): the domain never rolls, so a decision
    stays a function of its command and state."""

    player: str | None = None
    drawn: str | None = None
    """The player the ledger picked at random; never taken from a request body."""


@dataclass(frozen=True, slots=True)
class Mulligan:
    """A player takes a mulligan (CR 103.5)."""

    player: str


@dataclass(frozen=True, slots=True)
class KeepHand:
    """A player keeps their hand (CR 103.5), putting cards on the bottom for their mulligans;
    ``bottom`` names some or all of them (``None``: none named)."""

    player: str
    bottom: tuple[Card, ...] | None = None


Command = (
    Advance
    | Resolve
    | OrderTriggers
    | AddCounters
    | RemoveCounters
    | ChangeLife
    | Damage
    | Mill
    | Draw
    | Proliferate
    | Move
    | Sacrifice
    | Tap
    | Enter
    | Concede
    | Note
    | CounterObject
    | Cast
    | PlayLand
    | Activate
    | Attack
    | Designate
    | ChooseFirstPlayer
    | Mulligan
    | KeepHand
    | JudgingCommand
)
