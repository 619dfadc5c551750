"""A SQLite application recorder that can be subscribed to, by polling.

The library's ``ProjectionRunner`` tails an application through ``recorder.subscribe()``; the
stock SQLite recorder raises ``NotImplementedError`` there (docs/architecture.md, The storage library). SQLite
has no LISTEN/NOTIFY, and other processes may write the same file, so this subscription reuses
the library's ``ListenNotifySubscription`` (which pulls new notifications whenever it is woken)
and wakes it on a short timer instead of on a database notification. The timer asks SQLite
first whether anything was committed since its last look (``PRAGMA data_version``, on a
connection of its own) and, if so, whether the log holds a newer record than the last pulled
(its highest rowid), so an idle ledger pulls nothing (pulling on every tick cost about 2.5
million instructions a second, docs/performance.md), nor does a commit of the read models' own.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections.abc import Collection, Sequence
from threading import Event, Lock, Thread
from typing import Any

from eventsourcing.persistence import (
    ApplicationRecorder,
    ListenNotifySubscription,
    Notification,
    OperationalError,
    StoredEvent,
    Subscription,
)
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

POLL_INTERVAL = 0.1
"""Seconds between looks for new events: the read models' lag is up to this much. Each pull
that finds events costs a view transaction per read model whatever it holds, so looking every
20 ms instead cost one worker serving 400 actions/s 3-29% more CPU per action (the read models
run in a serving worker on SQLite; docs/performance.md, issue 15, tenth pass); the same wait
as PostgreSQL's (``store.postgres_recorder.GATHER``)."""


class PollingSubscription(ListenNotifySubscription[Any]):
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
        self._log = LogReader(recorder)
        super().__init__(recorder=self._log, gt=gt, topics=topics)  # its pulls read through ours
        self._poll_thread = Thread(target=self._poll, name="sqlite-subscription-poll", daemon=True)
        self._poll_thread.start()

    def _poll(self) -> None:
        recorder = self._log.recorder
        pool = recorder.datastore.pool
        changes = CommitWatch(None if pool.is_sqlite_memory_mode else pool.db_name)
        table = recorder.events_table_name
        try:
            while not self._stopping.wait(self._interval):
                # Most commits are the read models' own writes (or the outbox's): only a newer
                # record is worth the library's pull (a pool, a transaction: about 250,000
                # instructions when it finds nothing).
                if changes.committed() and changes.newest(table) > (self._last_notification_id or 0):
                    self._has_been_notified.set()
        finally:
            changes.close()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)  # the pulling thread has ended: its reads too
        finally:
            self._poll_thread.join()
            self._log.close()


class LogReader:
    """A subscription's reads of the log, on a connection of its own: one ``SELECT`` in
    autocommit (its own consistent read), where the recorder's ``select_notifications`` takes a
    connection from the datastore's pool and opens and rolls back a transaction around it:
    about a third fewer instructions per pull (bench/action_parts.py, ``pull``). Anything but
    the subscription's own query (a ``stop``, topics, an in-memory database, whose connections
    share nothing) goes to the recorder."""

    def __init__(self, recorder: SQLiteApplicationRecorder) -> None:
        self.recorder = recorder
        pool = recorder.datastore.pool
        self._conn = None if pool.is_sqlite_memory_mode else _connect(pool.db_name)
        self._sql = (
            f"SELECT rowid, originator_id, originator_version, topic, state FROM {recorder.events_table_name} "
            "WHERE rowid {op} ? ORDER BY rowid LIMIT ?"
        )

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        if self._conn is None or stop is not None or topics:
            return self.recorder.select_notifications(start, limit, stop, topics, inclusive_of_start=inclusive_of_start)
        sql = self._sql.format(op=">=" if inclusive_of_start else ">")
        try:
            rows = self._conn.execute(sql, (start or 0, limit)).fetchall()
        except sqlite3.Error as err:
            raise OperationalError(err) from err
        convert = self.recorder.convert_originator_id
        return [
            Notification(id=r[0], originator_id=convert(r[1]), originator_version=r[2], topic=r[3], state=r[4])
            for r in rows
        ]

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


def _connect(db_name: str) -> sqlite3.Connection | None:
    """A connection of this module's own to the file (``None`` when it cannot be opened: the
    caller then asks the recorder, which reports why)."""
    try:
        return sqlite3.connect(db_name, uri=True, check_same_thread=False, isolation_level=None)
    except sqlite3.Error:
        return None


class CommitWatch:
    """Whether any connection has committed to a SQLite file since the last look.

    ``PRAGMA data_version`` changes when another connection (of this process or another) has
    committed to the file; this watch's connection never writes, so every commit counts. An
    in-memory database is private to its connections: there every look answers yes."""

    def __init__(self, db_name: str | None) -> None:
        """``db_name``: the file (``None``: an in-memory database)."""
        # No connection (in memory, or it cannot be opened): every look answers yes, and the
        # pull says what went wrong.
        self._conn = None if db_name is None else _connect(db_name)
        self._seen: int | None = None

    def committed(self) -> bool:
        if self._conn is None:
            return True
        try:
            version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return True
        seen, self._seen = self._seen, version
        return seen != version

    def newest(self, table: str) -> int:
        """The highest rowid of ``table`` (the notification id of the log's last record); when
        it cannot tell (in memory, an error), higher than any."""
        if self._conn is None:
            return sys.maxsize
        try:
            row = self._conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()
        except sqlite3.Error:
            return sys.maxsize
        return int(row[0] or 0)

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


class LockedTables:
    """Creates a SQLite recorder's tables holding the process's writer lock for the file, and
    tries again when SQLite refuses the upgrade to a write.

    The library's ``create_table`` opens a deferred transaction: its first ``CREATE TABLE IF NOT
    EXISTS`` of a table that exists (the shared ``tracking`` table) only reads, and the next
    statement that writes must upgrade that read. SQLite refuses the upgrade at once, without
    waiting (no busy handler), when another connection committed since the read began (WAL
    snapshots): "database is locked" while a server's read models start beside its first writes
    (seen in CI) or beside another process. The writer lock keeps this process's writers out;
    another process's commit is met by trying again in a new transaction.
    """

    datastore: SQLiteDatastore

    def create_table(self) -> None:
        deadline = time.monotonic() + CREATE_TABLE_PATIENCE
        wait = 0.005
        while True:
            try:
                with writer_lock(self.datastore):
                    super().create_table()  # type: ignore[misc]
                return
            except OperationalError as error:
                if "locked" not in str(error) or time.monotonic() + wait > deadline:
                    raise
            time.sleep(wait)  # another process holds the file's write lock: let it finish
            wait = min(wait * 2, 0.25)


CREATE_TABLE_PATIENCE = 10.0
"""Seconds a start waits for another process's writes before it gives up (SQLite's busy timeout
by default, ``store.database_url``)."""


class PollingSQLiteApplicationRecorder(LockedTables, SQLiteApplicationRecorder):
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
