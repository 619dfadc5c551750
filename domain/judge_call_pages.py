"""Which judge calls a game's state carries, and the pages of ``GET /v1/games/{id}/judge-calls``.

The state carries every open call (a judge answers those) but only the latest
``CLOSED_CALLS_IN_STATE`` closed ones, with ``closed_call_count`` for all of them: every closed
call in every answer of the state made each read of a long game grow without bound (issue 33,
finding 13: 2.2 KB to 270 KB after 1,000 calls). The closed calls left out are read by pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from domain.errors import Code, NotFound

CLOSED_CALLS_IN_STATE = 20
"""How many closed calls (the latest opened) the state still carries."""
MAX_PAGE = 500
"""Most calls in one page of ``GET .../judge-calls``."""

Status = Literal["open", "closed", "all"]
Call = Mapping[str, Any]


def is_open(call: Call) -> bool:
    return bool(call.get("open", True))


def closed_call_count(calls: Sequence[Call]) -> int:
    return sum(1 for c in calls if not is_open(c))


def calls_in_state(calls: Sequence[Call]) -> list[dict[str, Any]]:
    """Every open call and the latest ``CLOSED_CALLS_IN_STATE`` closed ones, in the order they
    were made (as ``calls`` always was)."""
    closed = [i for i, c in enumerate(calls) if not is_open(c)]
    kept = set(closed[-CLOSED_CALLS_IN_STATE:]) if CLOSED_CALLS_IN_STATE else set()
    return [dict(c) for i, c in enumerate(calls) if is_open(c) or i in kept]


def _matches(call: Call, status: Status) -> bool:
    return status == "all" or (status == "open") == is_open(call)


def calls_page(calls: Sequence[Call], status: Status, after: str | None, limit: int) -> dict[str, Any]:
    """The calls of ``status`` made after the call ``after`` (from the start without it), at
    most ``limit``, in the order they were made. ``next_after`` is the call to page on from, or
    ``None`` on the last page; a call's place never moves, so each call is in one page only,
    even if it is answered between two pages."""
    start = 0
    if after is not None:
        place = next((i for i, c in enumerate(calls) if c.get("call") == after), None)
        if place is None:
            raise NotFound(f"there is no judge call {after!r} in this game to page after", Code.UNKNOWN_CALL)
        start = place + 1
    chosen = [c for c in calls[start:] if _matches(c, status)]
    page = chosen[:limit]
    more = len(chosen) > limit
    return {
        "status": status,
        "calls": [dict(c) for c in page],
        "next_after": page[-1].get("call") if more and page else None,
        "total": sum(1 for c in calls if _matches(c, status)),
    }
