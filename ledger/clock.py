"""Time on the record: every stored action carries one ``recorded_at`` in RFC 3339 UTC."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
"""The time source (tests pass a fixed one)."""
Now = Callable[[], str]
"""The current time as it is recorded (``rfc3339`` of a ``Clock``)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def rfc3339(moment: datetime) -> str:
    """``2026-04-17T12:34:56.789012Z``: RFC 3339, UTC, microseconds."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def recorder(clock: Clock) -> Now:
    """The ``Now`` of ``clock``."""
    return lambda: rfc3339(clock())
