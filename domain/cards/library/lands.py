"""Lands with mana abilities beyond the basic land types' intrinsic ones (CR 305.6).

- Wastes — "{T}: Add {C}."
- Meteor Crater — "{T}: Choose a color of a permanent you control. Add one mana of that color."
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.cards.behaviour import ActivatedAbility, Behaviour, register, tap_for_mana
from domain.errors import IllegalAction
from domain.state import GameState, Permanent

register(Behaviour(name="Wastes", abilities=(tap_for_mana("C"),)))


def _colors_you_control(perm: Permanent, state: GameState) -> frozenset[str]:
    found: set[str] = set()
    for other in state.battlefield.values():
        if other.controller == perm.controller:
            found |= other.card.color_set
    return frozenset(found)


def _meteor_crater(perm: Permanent, state: GameState, choice: str | None) -> Mapping[str, int]:
    """With no coloured permanent the colour is undefined: no mana (CR 106.5)."""
    colors = _colors_you_control(perm, state)
    if not colors:
        return {}
    if choice is None:
        if len(colors) == 1:
            return {next(iter(colors)): 1}
        raise IllegalAction(f"Meteor Crater: choose a colour with 'mana', one of {sorted(colors)}", "choice_required")
    if choice not in colors:
        raise IllegalAction(
            f"Meteor Crater: {choice!r} is not a colour of a permanent you control ({sorted(colors)})",
            "illegal_choice",
        )
    return {choice: 1}


register(
    Behaviour(
        name="Meteor Crater",
        abilities=(
            ActivatedAbility(
                text="{T}: Choose a color of a permanent you control. Add one mana of that color.",
                tap=True,
                mana=_meteor_crater,
                could_produce=lambda perm, state, seen: _colors_you_control(perm, state),
            ),
        ),
    )
)
