"""Limits of the HTTP layer that are not a body's: open event streams (SSE) per token and in
total, per worker process (docs/api.md, Limits). A stream beyond either is ``429
too_many_streams`` with ``Retry-After``, so one token can't hold the server's reads hostage."""

from __future__ import annotations

import threading
from collections import Counter

from fastapi import Request

from api.auth import Principal
from domain.errors import Busy, Code

RETRY_AFTER_SECONDS = 5


def stream_key(principal: Principal, request: Request) -> str:
    """Whose streams these are: the stored token, else the role and name (the environment's
    admin token), and for anonymous public reads the client's address."""
    if principal.token_id is not None:
        return f"token:{principal.token_id}"
    if principal.name == "anonymous":
        return f"anonymous:{request.client.host if request.client else ''}"
    return f"{principal.role}:{principal.name}"


class StreamSlots:
    """Counts open streams; ``acquire`` refuses one over the limits, ``release`` frees it."""

    def __init__(self, per_key: int, total: int) -> None:
        self.per_key = per_key
        self.total = total
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def acquire(self, key: str) -> None:
        with self._lock:
            if self._open[key] >= self.per_key:
                raise Busy(
                    f"this token already holds {self._open[key]} open event streams (the limit is {self.per_key})",
                    Code.TOO_MANY_STREAMS,
                    retry_after=RETRY_AFTER_SECONDS,
                )
            if sum(self._open.values()) >= self.total:
                raise Busy(
                    f"the server holds {self.total} open event streams, its limit; try again shortly",
                    Code.TOO_MANY_STREAMS,
                    retry_after=RETRY_AFTER_SECONDS,
                )
            self._open[key] += 1

    def release(self, key: str) -> None:
        with self._lock:
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]

    def open(self, key: str | None = None) -> int:
        """Open streams of ``key``, or of everyone."""
        with self._lock:
            return self._open[key] if key is not None else sum(self._open.values())
