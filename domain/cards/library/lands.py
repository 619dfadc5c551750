"""Lands: the basic lands, and those with mana abilities beyond the basic land types' intrinsic
ones (CR 305.6).

- Plains, Island, Swamp, Mountain, Forest — "({T}: Add {W}.)" and so on: the intrinsic ability
  of the basic land type (305.6).
- Wastes — "{T}: Add {C}."
- Meteor Crater — "{T}: Choose a color of a permanent you control. Add one mana of that color."
  With no coloured permanent the colour is undefined: no mana (CR 106.5).
- Exotic Orchard — "{T}: Add one mana of any color that a land an opponent controls could
  produce." Colours only, never {C} (ruling 2009-02-01); what an opponent's land could produce
  is read from its mana abilities, ignoring costs and whether it is tapped (106.7). Two Exotic
  Orchards facing each other with no other lands produce nothing (the CR 106.7 example): the
  question "what could it produce" is asked once per permanent and a loop answers "none".
- Reflecting Pool — "{T}: Add one mana of any type that a land you control could produce."
  Types include colorless (106.7); the Pool itself adds nothing to the answer.
- Dryad Arbor — "(This land isn't a spell, it's affected by summoning sickness, and it has
  "{T}: Add {G}.")" A Land Creature — Forest Dryad: the Forest type gives it "{T}: Add {G}"
  (305.6); as a creature its {T} needs it under its controller's control since their turn
  began (302.6, unless it has haste); it is played with ``play_land``, not cast; it is green
  (its colour indicator: the catalog's ``colors``), so Meteor Crater can make {G} from it.

A mana ability that offers several types takes the activation's ``mana`` (``"mana": "U"``); with
one possible type it is used; with none, the ability resolves and adds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from domain.cards.behaviour import ActivatedAbility, Behaviour, register, tap_for_mana
from domain.cards.watchers import are_opponents
from domain.errors import Code, IllegalAction
from domain.rules.activate import could_produce
from domain.state import MANA_TYPES, GameState, Permanent

COLORS = frozenset({"W", "U", "B", "R", "G"})

register(Behaviour(name="Wastes", abilities=(tap_for_mana("C"),)))
# The basic lands' and Dryad Arbor's mana abilities come from their land types
# (``domain.rules.activate.BASIC_LAND_MANA``); registering them marks them automated.
for _name in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Dryad Arbor"):
    register(Behaviour(name=_name))


def _one_of(name: str, options: frozenset[str], choice: str | None) -> Mapping[str, int]:
    """One mana of a type among ``options``: none possible is no mana (106.5, 106.7)."""
    if not options:
        return {}
    if choice is None:
        if len(options) == 1:
            return {next(iter(options)): 1}
        raise IllegalAction(f"{name}: choose the mana with 'mana', one of {sorted(options)}", Code.CHOICE_REQUIRED)
    if choice not in options:
        raise IllegalAction(
            f"{name}: {choice!r} is not one of the types it can add now ({sorted(options)})", Code.ILLEGAL_CHOICE
        )
    return {choice: 1}


def _mana_ability(
    text: str, name: str, options: Callable[[Permanent, GameState, frozenset[str]], frozenset[str]]
) -> ActivatedAbility:
    return ActivatedAbility(
        text=text,
        tap=True,
        mana=lambda perm, state, choice: _one_of(name, options(perm, state, frozenset()), choice),
        could_produce=options,
    )


def _colors_you_control(perm: Permanent, state: GameState, seen: frozenset[str]) -> frozenset[str]:
    found: set[str] = set()
    for other in state.battlefield.values():
        if other.controller == perm.controller:
            found |= other.card.color_set
    return frozenset(found)


def _lands_could_produce(perm: Permanent, state: GameState, seen: frozenset[str], opponents: bool) -> frozenset[str]:
    seen = seen | {perm.id}
    found: set[str] = set()
    for other in state.battlefield.values():
        if not other.card.is_land or other.id in seen:
            continue
        if opponents and not are_opponents(state, perm.controller, other.controller):
            continue
        if not opponents and other.controller != perm.controller:
            continue
        found |= could_produce(other, state, seen)
    return frozenset(found)


def _exotic_orchard(perm: Permanent, state: GameState, seen: frozenset[str]) -> frozenset[str]:
    return _lands_could_produce(perm, state, seen, opponents=True) & COLORS


def _reflecting_pool(perm: Permanent, state: GameState, seen: frozenset[str]) -> frozenset[str]:
    return _lands_could_produce(perm, state, seen, opponents=False) & frozenset(MANA_TYPES)


register(
    Behaviour(
        name="Meteor Crater",
        abilities=(
            _mana_ability(
                "{T}: Choose a color of a permanent you control. Add one mana of that color.",
                "Meteor Crater",
                _colors_you_control,
            ),
        ),
    )
)
register(
    Behaviour(
        name="Exotic Orchard",
        abilities=(
            _mana_ability(
                "{T}: Add one mana of any color that a land an opponent controls could produce.",
                "Exotic Orchard",
                _exotic_orchard,
            ),
        ),
    )
)
register(
    Behaviour(
        name="Reflecting Pool",
        abilities=(
            _mana_ability(
                "{T}: Add one mana of any type that a land you control could produce.",
                "Reflecting Pool",
                _reflecting_pool,
            ),
        ),
    )
)
