"""The serving process's start-up heap, kept out of the garbage collector's full passes.

A worker holds a few hundred thousand objects that live as long as it does: the modules of
FastAPI, pydantic, the domain, their functions, classes and schemas. CPython's full collection
(generation 2) walks every one of them each time, and under load one took 120-200 ms in a
serving worker here, several times a minute, holding the GIL: every request in flight waited,
and one such pause in a 3-second window was enough to push p99 past 50 ms
(docs/performance.md, issue 15, sixth pass). ``gc.freeze`` moves what exists at that moment to a
permanent generation that the collector no longer walks; objects made afterwards (cached game
heads, requests) are collected as before.

Frozen objects are still freed by reference counting; only a reference cycle among them would
never be collected, and what is frozen here is the process's own start-up state, which lives
until it exits. So it is done once, by the processes ``serve`` starts (``create_served_app``,
``mtg-ledger project``), and never by the test suite's many short-lived apps, whose cycles it
would keep.
"""

from __future__ import annotations

import gc

__all__ = ["freeze_startup_heap"]


def freeze_startup_heap() -> int:
    """Collect what start-up left behind, then freeze the rest; how many objects are frozen."""
    gc.collect()  # garbage frozen now would never be collected
    gc.freeze()
    return gc.get_freeze_count()
