"""A SQLite application recorder that can be subscribed to, by polling.

The library's ``ProjectionRunner`` tails an application through ``recorder.subscribe()``; the
stock SQLite recorder raises ``NotImplementedError`` there (DESIGN.md, notes on 9.5.6). SQLite
has no LISTEN/NOTIFY, and other processes may write the same file, so this subscription reuses
the library's ``ListenNotifySubscription`` (which pulls new notifications whenever it is woken)
and wakes it on a short timer instead of on a database notification.
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import Event, Thread
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, ListenNotifySubscription, Subscription
from eventsourcing.sqlite import SQLiteApplicationRecorder

POLL_INTERVAL = 0.02
"""Seconds between looks for new events: the read model's lag when idle is about this much."""


class PollingSubscription(ListenNotifySubscription[SQLiteApplicationRecorder]):
    """Pulls notifications after ``gt`` every ``interval`` seconds until stopped."""

    def __init__(
        self,
        recorder: SQLiteApplicationRecorder,
        gt: int | None = None,
        topics: Sequence[str] = (),
        interval: float = POLL_INTERVAL,
    ) -> None:
        self._interval = interval
        self._stopping = Event()
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        self._poll_thread = Thread(target=self._poll, name="sqlite-subscription-poll", daemon=True)
        self._poll_thread.start()

    def _poll(self) -> None:
        while not self._stopping.wait(self._interval):
            self._has_been_notified.set()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)
        finally:
            self._poll_thread.join()


class PollingSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """``SQLiteApplicationRecorder`` plus a polling ``subscribe()``."""

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[ApplicationRecorder]:
        return PollingSubscription(recorder=self, gt=gt, topics=topics)
