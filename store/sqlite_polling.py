"""A SQLite application recorder that can be subscribed to, by polling.

The library's ``ProjectionRunner`` tails an application through ``recorder.subscribe()``; the
stock SQLite recorder raises ``NotImplementedError`` there (docs/architecture.md, The storage library). SQLite
has no LISTEN/NOTIFY, and other processes may write the same file, so this subscription reuses
the library's ``ListenNotifySubscription`` (which pulls new notifications whenever it is woken)
and wakes it on a short timer instead of on a database notification. The timer asks SQLite
first whether anything was committed since its last look (``PRAGMA data_version``, on a
connection of its own: no query of the log, no transaction), so an idle ledger pulls nothing:
pulling on every tick cost about 2.5 million instructions a second (docs/performance.md).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Collection, Sequence
from threading import Event, Lock, Thread
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, ListenNotifySubscription, StoredEvent, Subscription
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

POLL_INTERVAL = 0.1
"""Seconds between looks for new events: the read models' lag is up to this much. Each pull
that finds events costs a view transaction per read model whatever it holds, so looking every
20 ms instead cost one worker serving 400 actions/s 3-29% more CPU per action (the read models
run in a serving worker on SQLite; docs/performance.md, issue 15, tenth pass); the same wait
as PostgreSQL's (``store.postgres_recorder.GATHER``)."""


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
        pool = self._recorder.datastore.pool
        changes = CommitWatch(None if pool.is_sqlite_memory_mode else pool.db_name)
        try:
            while not self._stopping.wait(self._interval):
                if changes.committed():
                    self._has_been_notified.set()
        finally:
            changes.close()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)
        finally:
            self._poll_thread.join()


class CommitWatch:
    """Whether any connection has committed to a SQLite file since the last look.

    ``PRAGMA data_version`` changes when another connection (of this process or another) has
    committed to the file; this watch's connection never writes, so every commit counts. An
    in-memory database is private to its connections: there every look answers yes."""

    def __init__(self, db_name: str | None) -> None:
        """``db_name``: the file (``None``: an in-memory database)."""
        self._conn: sqlite3.Connection | None = None
        self._seen: int | None = None
        if db_name is not None:
            try:
                self._conn = sqlite3.connect(db_name, uri=True, check_same_thread=False, isolation_level=None)
            except sqlite3.Error:
                self._conn = None  # every look answers yes: the pull says what went wrong

    def committed(self) -> bool:
        if self._conn is None:
            return True
        try:
            version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return True
        seen, self._seen = self._seen, version
        return seen != version

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


_WRITER_LOCKS: dict[str, Lock] = {}
_WRITER_LOCKS_GUARD = Lock()


def writer_lock(datastore: SQLiteDatastore) -> Lock:
    """One lock per SQLite file in this process, held by the ledger's appends and by the
    game-summary view's writes, so that they take turns here.

    Each of the library's SQLite datastores (the ledger's, the view's) lends its writer
    connection under a lock of its own, so the two write at once and SQLite's busy handler
    settles it: the loser sleeps 1, 2, 5, 10, ... ms before it looks again, dead time under
    load (the view records action N while action N+1 appends: about 30% of the throughput,
    docs/performance.md). Writers in other processes still meet at SQLite's own lock.
    """
    key = os.path.realpath(datastore.pool.db_name)
    with _WRITER_LOCKS_GUARD:
        return _WRITER_LOCKS.setdefault(key, Lock())


class PollingSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    """``SQLiteApplicationRecorder`` plus a polling ``subscribe()``; appends hold the process's
    writer lock for the file (``writer_lock``)."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._writer_lock = writer_lock(datastore)

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        with self._writer_lock:
            return super().insert_events(stored_events, **kwargs)

    def taken_versions(self, keys: Collection[tuple[str, int]]) -> set[tuple[str, int]]:
        """Which of these (stream, version) pairs are stored (``store.group_commit``)."""
        wanted = list(set(keys))
        found: set[tuple[str, int]] = set()
        with self.datastore.transaction(commit=False) as curs:
            for i in range(0, len(wanted), 200):
                chunk = wanted[i : i + 200]
                where = " OR ".join(["(originator_id = ? AND originator_version = ?)"] * len(chunk))
                curs.execute(
                    f"SELECT originator_id, originator_version FROM {self.events_table_name} WHERE {where}",
                    [x for key in chunk for x in key],
                )
                found.update((str(r[0]), int(r[1])) for r in curs.fetchall())
        return found

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[ApplicationRecorder]:
        return PollingSubscription(recorder=self, gt=gt, topics=topics)
