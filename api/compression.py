"""Compressed answers for the clients that ask for them (``Accept-Encoding: gzip``).

Starlette's ``GZipMiddleware`` does the work (maintained, streaming-aware, leaves
``text/event-stream`` and already-encoded answers alone). It is only put in a request's way when
the request asks for gzip: on every other request it would still wrap the answer (about 100,000
instructions an action, measured with bench/asgi_instructions.py), and most API clients of a
venue's scorekeeping tools, and the load generators, never ask.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

MINIMUM_SIZE = 1024
"""Smaller answers gain too little (a few hundred bytes) for the time it takes."""
LEVEL = 6
"""Nearly level 9's size in about half its time."""


def asks_for_gzip(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"accept-encoding":
            return b"gzip" in value.lower()
    return False


class GzipWhenAsked:
    """``GZipMiddleware`` for the requests that take gzip; the app itself for the others."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=MINIMUM_SIZE, compresslevel=LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and asks_for_gzip(scope):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
