"""Power and toughness as the rules read them: printed value, counters, until-end-of-turn
changes, and static bonuses of Auras attached to the creature (CR 613.4, layer 7)."""

from __future__ import annotations

from domain.cards.behaviour import behaviour_of
from domain.state import GameState, Permanent


def _aura_bonus(state: GameState, perm: Permanent) -> tuple[int, int]:
    power = toughness = 0
    for other in state.battlefield.values():
        if other.attached_to != perm.id:
            continue
        behaviour = behaviour_of(other.card.name)
        if behaviour is not None and behaviour.enchanted_bonus is not None:
            power += behaviour.enchanted_bonus[0]
            toughness += behaviour.enchanted_bonus[1]
    return power, toughness


def toughness_in(state: GameState, perm: Permanent) -> int | None:
    """Toughness with Aura bonuses (613.4c); ``None`` when the printed value isn't a number."""
    base = perm.toughness()
    return None if base is None else base + _aura_bonus(state, perm)[1]


def power_in(state: GameState, perm: Permanent) -> int | None:
    base = perm.power()
    return None if base is None else base + _aura_bonus(state, perm)[0]
