"""Blocking store calls off the event loop, in one hop.

Every store call (SQLite, psycopg, the group commit's wait) blocks, so a request runs it in a
worker thread. Starlette's ``run_in_threadpool`` goes through anyio (a task, a capacity
limiter, a checkpoint) and cost about 70 µs of CPU per hop here, against about 35 µs for
the event loop's own ``run_in_executor`` (docs/performance.md); every action makes one. The
pool has as many threads as anyio's default limiter (40), so as many calls wait at once.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

__all__ = ["THREADS", "in_thread"]

THREADS = 40
"""Worker threads: store calls that may block at once (group commit followers wait in them)."""

P = ParamSpec("P")
T = TypeVar("T")

_pool = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="mtg-ledger-store")


async def in_thread(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` in a worker thread, with the caller's context variables."""
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(_pool, partial(context.run, fn, *args, **kwargs))
