"""The small framework for automated card behaviour, registered by card name.

A ``Behaviour`` describes what the server automates for one card: its activated abilities (with
costs the server checks), the triggers it watches for, its Saga chapters, replacement effects on
entering, and what it does when it resolves as a spell. Cards the registry doesn't know are
tracked by name and types; their effects are reported as direct actions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from domain.events import Event

if TYPE_CHECKING:
    from domain.state import GameState, Permanent


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """A triggered ability that has triggered and waits to be put on the stack (CR 603.2)."""

    controller: str
    source: str | None
    description: str
    effect: str
    params: Mapping[str, Any] = field(default_factory=dict)
    source_name: str | None = None


#: Watches one event: the permanent (last known if it just left), state before, event, state after.
TriggerWatcher = Callable[["Permanent", "GameState", Event, "GameState"], Iterable[TriggerSpec]]
#: Mana an ability would produce now (CR 106.7): controller's permanent, state, chosen colour.
ManaProducer = Callable[["Permanent", "GameState", str | None], Mapping[str, int]]
#: Types of mana an ability could produce (CR 106.7), for "a type a land could produce".
ManaPossible = Callable[["Permanent", "GameState", frozenset[str]], frozenset[str]]
#: A counter-placement replacement (CR 614.1a): source, state, target, kind, amount -> new amount.
CounterModifier = Callable[["Permanent", "GameState", dict[str, str], str, int], int]


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
    remove_counters: Mapping[str, int] = field(default_factory=dict)
    mana: ManaProducer | None = None
    """Set for a mana ability: it doesn't use the stack (CR 605.3b)."""
    could_produce: ManaPossible | None = None
    effect: str = "described"
    """Resolution routine of a non-mana ability."""
    needs: tuple[str, ...] = ()
    """Choices its resolution needs (``proliferate``, ``targets``, ...)."""
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
    chapters: Mapping[int, Chapter] = field(default_factory=dict)
    enters_with_x_counters: str | None = None
    """"enters with X <kind> counters" (CR 614.1c, X from the spell: 107.3m)."""
    spell_effect: str | None = None
    """Resolution routine when the card resolves as an instant or sorcery."""
    spell_needs: tuple[str, ...] = ()
    counter_modifier: CounterModifier | None = None
    radiation_gain_instead: bool = False
    token_multiplier: int = 0
    """Tokens its controller would create are multiplied by this (0: no effect)."""
    """"You gain life rather than lose life from radiation" for its controller (CR 728.1a)."""


_REGISTRY: dict[str, Behaviour] = {}


def register(behaviour: Behaviour) -> Behaviour:
    """Register a card's behaviour under its exact name (one module per card or family)."""
    if behaviour.name in _REGISTRY:
        raise ValueError(f"behaviour for {behaviour.name!r} registered twice")
    _REGISTRY[behaviour.name] = behaviour
    return behaviour


def behaviour_of(name: str) -> Behaviour | None:
    """The registered behaviour for a card name, if the server automates it."""
    from domain.cards import library  # noqa: F401  (imports register every card module)

    return _REGISTRY.get(name)


def automated_names() -> frozenset[str]:
    from domain.cards import library  # noqa: F401

    return frozenset(_REGISTRY)


def tap_for_mana(mana: str) -> ActivatedAbility:
    """``{T}: Add {<mana>}.``: a fixed mana ability (CR 605.1a)."""
    return ActivatedAbility(
        text=f"{{T}}: Add {{{mana}}}.",
        tap=True,
        mana=lambda perm, state, choice: {mana: 1},
        could_produce=lambda perm, state, seen: frozenset({mana}),
    )
