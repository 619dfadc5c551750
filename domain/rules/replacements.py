"""Replacement effects of automated cards (CR 614), applied where an event would happen.

- Counter placement (614.1a): each ``Behaviour.counter_modifier`` on the battlefield may change
  how many counters are put. Each applies at most once to one event (614.5). With several, the
  affected object's controller (or the affected player) chooses the order (616.1, 616.1e-f).
  That choice is an explicit ``replacement_order`` (source permanent ids, first applied first) on
  the action; the modifiers it doesn't name follow in the default order. With no stated choice
  the server uses the order that puts the most counters, which is what a player chooses for
  their own +1/+1 counters (Hardened Scales then Doubling Season: 1 -> 2 -> 4, not 1 -> 2 -> 3).
- Token creation (Doubling Season's first ability): ``tokens_to_create``.
- "You gain life rather than lose life from radiation" (728.1a): ``radiation_life_gain_instead``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from domain.cards.behaviour import CounterModifier, behaviour_of
from domain.state import GameState, Permanent


def counter_modifiers(state: GameState) -> list[tuple[Permanent, CounterModifier]]:
    """Every counter-placement replacement on the battlefield, with its source."""
    found = []
    for perm in state.battlefield.values():
        behaviour = behaviour_of(perm.card.name)
        if behaviour is not None and behaviour.counter_modifier is not None:
            found.append((perm, behaviour.counter_modifier))
    return found


def _apply(
    state: GameState,
    order: Sequence[tuple[Permanent, CounterModifier]],
    target: dict[str, str],
    kind: str,
    amount: int,
    by_effect: bool,
) -> int:
    n = amount
    for perm, modify in order:
        if n <= 0:
            break
        n = modify(perm, state, target, kind, n, by_effect)
    return n


def counters_to_place(
    state: GameState,
    target: dict[str, str],
    kind: str,
    amount: int,
    *,
    order: Sequence[str] = (),
    by_effect: bool = True,
) -> int:
    """How many counters end up placed after counter-placement replacements (614.1a, 616.1).

    ``order`` is the affected side's stated choice (source ids, first applied first); sources it
    doesn't name are applied after them in the order that gives the most. ``by_effect`` is
    ``False`` for counters put as a cost (a loyalty ability's +N: Doubling Season doesn't apply).
    """
    modifiers = counter_modifiers(state)
    if not modifiers:
        return amount
    rank = {pid: i for i, pid in enumerate(order)}
    named = sorted((m for m in modifiers if m[0].id in rank), key=lambda m: rank[m[0].id])
    rest = [m for m in modifiers if m[0].id not in rank]
    if len(rest) > 6:  # 6! orders at most; beyond that, battlefield order (any order is legal)
        return _apply(state, named + rest, target, kind, amount, by_effect)
    return max(_apply(state, named + list(tail), target, kind, amount, by_effect) for tail in permutations(rest))


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
