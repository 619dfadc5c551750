"""The small framework for automated card behaviour, registered by card name.

A ``Behaviour`` describes what the server automates for one card: its activated abilities (with
costs the server checks), the triggers it watches for (on the battlefield or from a graveyard),
its Saga chapters, replacement effects (entering with counters, counter placement, token
creation, radiation life loss), triggered mana abilities, static abilities the rules read (haste
for all creatures), and what it does when it resolves as a spell. Cards the registry doesn't know
are tracked by name and types; their effects are reported as direct actions.

Resolution routines are registered by key in ``domain.rules.effects``; trigger watchers are
usually built with ``domain.cards.watchers.trigger``. ``docs/cards.md`` has a worked example.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.events import Event

if TYPE_CHECKING:
    from domain.cards.model import Card
    from domain.state import GameState, Permanent


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """A triggered ability that has triggered and waits to be put on the stack (CR 603.2).

    ``params`` travel with the stack object. Keys the framework reads: ``needs`` (choices its
    resolution needs), ``once_per_turn`` (a key: "this ability triggers only once each turn";
    a second trigger in the same turn is dropped).
    """

    controller: str
    source: str | None
    description: str
    effect: str
    params: Mapping[str, Any] = field(default_factory=dict)
    source_name: str | None = None


#: Watches one event: the permanent (last known if it just left), state before, event, state after.
TriggerWatcher = Callable[["Permanent", "GameState", Event, "GameState"], Iterable[TriggerSpec]]
#: Watches one event from a card in a graveyard: the card, its owner, state before, event, after.
GraveyardWatcher = Callable[["Card", str, "GameState", Event, "GameState"], Iterable[TriggerSpec]]
#: Mana an ability would produce now (CR 106.7): controller's permanent, state, chosen colour.
ManaProducer = Callable[["Permanent", "GameState", str | None], Mapping[str, int]]
#: Types of mana an ability could produce (CR 106.7), for "a type a land could produce"; the
#: frozenset holds the ids already being asked about (it breaks loops, 106.7's Exotic Orchards).
ManaPossible = Callable[["Permanent", "GameState", frozenset[str]], frozenset[str]]
#: A counter-placement replacement (CR 614.1a): its source, state, target, kind, amount, and
#: whether the counters are put by an effect (``False`` for a cost, CR 118) -> the new amount.
CounterModifier = Callable[["Permanent", "GameState", dict[str, str], str, int, bool], int]
#: A triggered mana ability "whenever a player taps a land for mana" (CR 605.1b, 605.4a,
#: 106.12a): its source, the land tapped, state, the mana the land produced, the tapping player's
#: stated choice (``mana``) -> the mana it adds to that player's pool.
ManaTrigger = Callable[["Permanent", "Permanent", "GameState", Mapping[str, int], str | None], Mapping[str, int]]
#: Checks the targets chosen for a spell or ability (CR 601.2c, 115.1): state, controller,
#: targets as given; raises ``IllegalAction`` (``illegal_target``) naming the bad one.
TargetCheck = Callable[["GameState", str, Sequence[Any]], None]


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """One activated ability with the costs the server checks and pays (CR 602, 118)."""

    text: str
    """The Oracle text of the ability."""
    tap: bool = False
    """{T} in the cost (CR 107.5)."""
    untap: bool = False
    """{Q} in the cost (CR 107.6)."""
    sacrifice_artifact: int = 0
    """How many artifacts the cost sacrifices ("Sacrifice an artifact")."""
    sacrifice_self: bool = False
    """"Sacrifice this <permanent>" in the cost (CR 701.21)."""
    remove_counters: Mapping[str, int] = field(default_factory=dict)
    """"Remove N <kind> counters from this <permanent>" in the cost (CR 118.3)."""
    loyalty: int | None = None
    """A loyalty ability's cost (+N / −N loyalty counters, CR 606.4); it is activated only at
    sorcery speed, once per turn per permanent (606.3), and −N needs N counters (606.6)."""
    mana: ManaProducer | None = None
    """Set for a mana ability: it doesn't use the stack (CR 605.3b)."""
    could_produce: ManaPossible | None = None
    effect: str = "described"
    """Resolution routine of a non-mana ability."""
    needs: tuple[str, ...] = ()
    """Choices its resolution needs (``proliferate``, ``targets``, ...)."""
    targets: TargetCheck | None = None
    """Checks the ``targets`` named on activation (CR 602.2b, 601.2c)."""
    any_player: bool = False
    """"Any player may activate this ability" (CR 602.2 exception)."""


@dataclass(frozen=True, slots=True)
class Chapter:
    """A Saga chapter ability (CR 714.2)."""

    description: str
    effect: str
    needs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Behaviour:
    """Everything the server automates for one card."""

    name: str
    abilities: tuple[ActivatedAbility, ...] = ()
    watchers: tuple[TriggerWatcher, ...] = ()
    """Triggered abilities that work while the card is on the battlefield (and leaves-the-
    battlefield ones, which look back in time, CR 603.10a)."""
    graveyard_watchers: tuple[GraveyardWatcher, ...] = ()
    """Triggered abilities that work while the card is in a graveyard (CR 113.6k)."""
    chapters: Mapping[int, Chapter] = field(default_factory=dict)
    enters_with_x_counters: str | None = None
    """"enters with X <kind> counters" (CR 614.1c, X from the spell: 107.3m)."""
    spell_effect: str | None = None
    """Resolution routine when the card resolves as an instant or sorcery."""
    spell_needs: tuple[str, ...] = ()
    spell_targets: TargetCheck | None = None
    enchanted_bonus: tuple[int, int] | None = None
    """An Aura's static "enchanted creature gets +P/+T" (CR 613.4c, layer 7c)."""
    """Checks the ``targets`` named when the card is cast (CR 601.2c); an Aura's target is the
    permanent it will enchant (303.4a)."""
    counter_modifier: CounterModifier | None = None
    radiation_gain_instead: bool = False
    """"You gain life rather than lose life from radiation" for its controller (CR 728.1a)."""
    token_multiplier: int = 0
    """Tokens its controller would create are multiplied by this (0: no effect)."""
    mana_triggers: tuple[ManaTrigger, ...] = ()
    """Triggered mana abilities (CR 605.1b): they resolve at once (605.4a)."""
    creatures_have_haste: bool = False
    """"All creatures have haste" (CR 702.10): summoning sickness (302.6) stops mattering."""


_REGISTRY: dict[str, Behaviour] = {}
_SEALED = False
"""Set once every card module of ``domain.cards.library`` has registered: reading the registry
before that would silently treat an automated card as an unknown one. (Registering later, as the
framework tests do with fixture cards, is allowed.)"""


def register(behaviour: Behaviour) -> Behaviour:
    """Register a card's behaviour under its exact name (one module per card or family)."""
    if behaviour.name in _REGISTRY:
        raise ValueError(f"behaviour for {behaviour.name!r} registered twice")
    _REGISTRY[behaviour.name] = behaviour
    return behaviour


def seal_registry() -> None:
    """Called by ``domain.cards.library`` once all its modules are imported."""
    global _SEALED
    _SEALED = True


def _registry() -> dict[str, Behaviour]:
    if not _SEALED:
        raise RuntimeError("the card library is not loaded yet: import domain (domain.cards.library)")
    return _REGISTRY


def behaviour_of(name: str) -> Behaviour | None:
    """The registered behaviour for a card name, if the server automates it."""
    return _registry().get(name)


def automated_names() -> frozenset[str]:
    return frozenset(_registry())


def tap_for_mana(mana: str) -> ActivatedAbility:
    """``{T}: Add {<mana>}.``: a fixed mana ability (CR 605.1a)."""
    return ActivatedAbility(
        text=f"{{T}}: Add {{{mana}}}.",
        tap=True,
        mana=lambda perm, state, choice: {mana: 1},
        could_produce=lambda perm, state, seen: frozenset({mana}),
    )
