"""The fold's dispatch table: one ``(state, payload) -> state`` function per event class."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.events import EventHandlers
from domain.state import GameState

Fold = Callable[[GameState, Any], GameState]

FOLDS: EventHandlers[Fold] = EventHandlers("fold")
"""Filled by the modules of ``domain.fold``; a test checks every event type has an entry."""
