"""Replacement effects of automated cards (CR 614), applied where an event would happen.

Each modifier comes from a card behaviour; with several that apply to one event, the affected
object's controller (or the affected player) chooses their order (CR 616.1). Without a stated
choice the server applies them in the order that gives the affected side the most, which is what
that side would choose for its own counters.
"""

from __future__ import annotations

from itertools import permutations

from domain.cards.behaviour import behaviour_of
from domain.state import GameState


def counters_to_place(state: GameState, target: dict[str, str], kind: str, amount: int) -> int:
    """How many counters end up placed after counter-placement replacements (614.1a, 616.1)."""
    modifiers = []
    for perm in state.battlefield.values():
        behaviour = behaviour_of(perm.card.name)
        if behaviour is not None and behaviour.counter_modifier is not None:
            modifiers.append((perm, behaviour.counter_modifier))
    if not modifiers:
        return amount
    results = []
    for order in permutations(modifiers):
        n = amount
        for perm, modify in order:
            n = modify(perm, state, target, kind, n)
        results.append(n)
    return max(results)


def radiation_life_gain_instead(state: GameState, player_id: str) -> bool:
    """Whether "gain life rather than lose life from radiation" applies to the player (728.1a)."""
    for perm in state.battlefield.values():
        behaviour = behaviour_of(perm.card.name)
        if behaviour is not None and behaviour.radiation_gain_instead and perm.controller == player_id:
            return True
    return False


def tokens_to_create(state: GameState, controller: str, count: int) -> int:
    """How many tokens an effect creates for ``controller`` after replacements (Doubling Season)."""
    for perm in state.battlefield.values():
        behaviour = behaviour_of(perm.card.name)
        if behaviour is not None and behaviour.token_multiplier and perm.controller == controller:
            count *= behaviour.token_multiplier
    return count
