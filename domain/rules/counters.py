"""Counters on players and permanents (CR 122)."""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.replacements import counters_to_place
from domain.state import GameState


def count_on(state: GameState, target: dict[str, str], kind: str) -> int:
    """How many ``kind`` counters a player (team-shared poison included, 810.10d) or permanent has."""
    if "permanent" in target:
        return lookup.permanent(state, target["permanent"]).counters.get(kind, 0)
    return state.counters_of_player(target["player"]).get(kind, 0)


def add_counters(
    b: Builder,
    target: dict[str, str],
    kind: str,
    amount: int,
    cause: str,
    rule: str | None = None,
    *,
    by_effect: bool = True,
) -> int:
    """Put counters on a player or permanent (CR 122.6); replacement effects apply (614, 616.1).
    ``by_effect`` is ``False`` for counters a rule puts (a turn-based action): "if an effect
    would put counters" replacements (Doubling Season) don't apply to those.

    Returns how many were actually put (0 emits nothing: no zero-amount events).
    """
    lookup.target_exists(b.state, target)
    amount = counters_to_place(b.state, target, kind, amount, order=b.replacement_order, by_effect=by_effect)
    if amount <= 0:
        return 0
    b.emit(ev.CountersAdded(target=dict(target), kind=kind, amount=amount, cause=cause), rule)
    return amount


def remove_counters(
    b: Builder,
    target: dict[str, str],
    kind: str,
    amount: int,
    cause: str,
    *,
    up_to: bool,
    rule: str | None = None,
) -> int:
    """Remove counters. An effect removes as many as it can (``up_to``); a cost can't remove more
    than are there (CR 122.8, 118.3), which is ``not_enough_counters``."""
    have = count_on(b.state, target, kind)
    if amount > have and not up_to:
        where = f"player {target['player']!r}" if "player" in target else f"permanent {target['permanent']!r}"
        raise IllegalAction(
            f"can't remove {amount} {kind!r} counters from {where}: it has {have}", Code.NOT_ENOUGH_COUNTERS
        )
    n = min(amount, have)
    if n > 0:
        b.emit(ev.CountersRemoved(target=dict(target), kind=kind, amount=n, cause=cause), rule)
    return n
