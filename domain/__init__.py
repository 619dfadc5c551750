"""The rules kernel of MTG Ledger: pure, immutable, no I/O.

``decide(state, command) -> events`` and ``evolve(state, event) -> state``; see ``state``,
``commands``, ``events`` and the rule helpers in ``rules``.
"""

from domain.decide import decide, run
from domain.evolve import evolve, fold

__all__ = ["decide", "evolve", "fold", "run"]
