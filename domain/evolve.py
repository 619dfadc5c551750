"""``evolve`` and ``fold``: the public face of the fold (``domain.fold`` holds one function per
event type, registered by class)."""

from __future__ import annotations

from domain.fold import FOLDS, evolve, fold

__all__ = ["FOLDS", "evolve", "fold"]
