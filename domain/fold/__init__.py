"""``evolve(state, event) -> state``: the pure fold of one event into the game state.

Evolve never checks rules (``decide`` did, and an import's audit does) and never fails on an
event ``decide`` produced. The fold of each event type is registered by class in ``FOLDS`` by
the modules of this package, grouped by topic. ``ActionsReverted`` carries the state it restores
(computed from the history, and checked against it on import), so it folds like any other event.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.events import Event
from domain.fold import cards, designations, game, judging, players, stack  # noqa: F401  (each registers its folds)
from domain.fold.table import FOLDS
from domain.state import GameState


def evolve(state: GameState, event: Event) -> GameState:
    """Fold one event into the state. ``GameStarted`` ignores ``state`` (pass any value)."""
    payload = event.payload
    return FOLDS[type(payload)](state, payload)


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold events from the start (or from ``state``)."""
    current: Any = state
    for event in events:
        current = evolve(current, event)
    if current is None:
        raise ValueError("fold of no events from no state")
    result: GameState = current
    return result


__all__ = ["FOLDS", "evolve", "fold"]
