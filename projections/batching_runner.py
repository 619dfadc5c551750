"""A projection runner that hands its projection whole batches of records, not one at a time.

The library's ``ProjectionRunner`` calls ``process_event`` once per record, and each call is a
view transaction: under load the read models committed once per EVENT while the ledger
committed once per ACTION (or once per group of actions, ``projections.group_commit``), so
they fell behind, took the GIL from the request path and, on SQLite, competed with the appends
for the file's one writer. ``BatchingProjectionRunner`` gives the projection everything the
subscription already holds (never waiting for more, so an idle ledger's lag is unchanged) and
the projection writes it in one transaction with the last record's tracking.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Sequence
from threading import Event
from typing import Any, Protocol, TypeVar

from eventsourcing.application import Application
from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.projection import ApplicationSubscription, ProjectionRunner

log = logging.getLogger("mtg_ledger.store")

MAX_BATCH = 500
"""Records per view transaction at most (the subscription pulls 500 at a time)."""

TApplication = TypeVar("TApplication", bound=Application[Any])
TView = TypeVar("TView", bound=TrackingRecorder)


class BatchProjection(Protocol):
    name: str

    def process_batch(self, batch: Sequence[tuple[Any, Tracking]]) -> None:
        """Project ``batch`` (records in log order) in one view transaction."""


class BatchingProjectionRunner(ProjectionRunner[TApplication, TView]):
    """The library's ``ProjectionRunner``, but the records already pulled from the store are
    given to the projection's ``process_batch`` together (see the module docstring)."""

    @staticmethod
    def _process_events_loop(
        subscription: ApplicationSubscription[Any],
        projection: Any,
        is_stopping: Event,
        runner: weakref.ReferenceType[Any],
    ) -> None:
        try:
            pulled = subscription.subscription
            for first in subscription:
                batch = [first]
                while len(batch) < MAX_BATCH and _in_hand(pulled):
                    batch.append(next(subscription))
                projection.process_batch(batch)
        except BaseException as e:
            log.error("%s: the projection runner stopped: %s: %s", projection.name, type(e).__name__, str(e)[:500])
            held = runner()
            if held is not None:
                held._thread_error = e
        finally:
            is_stopping.set()


def _in_hand(subscription: Any) -> bool:
    """Whether the recorder subscription holds a pulled record not yet handed out (the
    library's ``ListenNotifySubscription`` keeps its last pull in ``_notifications``)."""
    notifications = getattr(subscription, "_notifications", ())
    index: int = getattr(subscription, "_notifications_index", len(notifications))
    return index < len(notifications)
