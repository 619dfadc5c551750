"""Projections take whole batches of records, not one at a time.

The library's ``ProjectionRunner`` calls ``process_event`` once per record, and each call is a
view transaction: under load the read models committed once per EVENT while the ledger
committed once per ACTION (or once per group of actions, ``store.group_commit``), so
they fell behind, took the GIL from the request path and, on SQLite, competed with the appends
for the file's one writer. The read-model runner (``store.read_model_group``) gives each
projection everything the subscription already holds (never waiting for more, so an idle
ledger's lag is unchanged) and the projection writes it in one transaction with the last
record's tracking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from eventsourcing.persistence import Tracking

MAX_BATCH = 500
"""Records per view transaction at most (the subscription pulls 500 at a time)."""


QUIET_FLUSH = 1.0
"""Seconds after the last batch that a read model's position is written when the records it
projected since its last write changed nothing of it (``BatchProjection.flush_tracking``)."""
QUIET_FLUSH_MOST = 30.0
"""Seconds at most such a position waits while batches keep coming."""


class BatchProjection(Protocol):
    name: str

    def process_batch(self, batch: Sequence[tuple[Any, Tracking]]) -> None:
        """Project ``batch`` (records in log order) in one view transaction; a batch that
        changes nothing of the read model is not written at all, its position waits for
        ``flush_tracking`` (or for the next write, which records a later one)."""

    def flush_tracking(self) -> None:
        """Write the position of the records projected since the last write, when they changed
        nothing (the runner calls it once the batches pause, ``QUIET_FLUSH``, at least every
        ``QUIET_FLUSH_MOST`` seconds, and as it stops).

        Why they wait: most records change nothing of most read models (a life change is none
        of the matches' or the outbox's business), and a transaction that only moves the
        position cost each of those read models about 270,000 instructions per action at the
        pace of a quiet server (bench/action_parts.py; docs/performance.md). Not writing it
        loses nothing: a runner starting from an older position folds those records again,
        and they change nothing again."""

    def held_until(self) -> float | None:
        """When what the read model holds back for its readers must be written at the latest
        (``time.monotonic``; the runner writes it then, with ``write_held``), or ``None`` when it
        holds nothing."""

    def write_held(self) -> None:
        """Write what the read model holds back that its readers would see (the game list holds
        rows' new versions for up to a second, ``projections.game_summaries``); a position alone
        is not written here. Called for whoever waits for the read model in this process."""


def in_hand(subscription: Any) -> bool:
    """Whether the recorder subscription holds a pulled record not yet handed out (the
    library's ``ListenNotifySubscription`` keeps its last pull in ``_notifications``)."""
    notifications = getattr(subscription, "_notifications", ())
    index: int = getattr(subscription, "_notifications_index", len(notifications))
    return index < len(notifications)
