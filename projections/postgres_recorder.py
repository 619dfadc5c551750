"""A PostgreSQL application recorder that can store a large batch of events, and whose
subscriptions gather the notifications of a few milliseconds into one pull.

The library's ``PostgresApplicationRecorder.insert_events`` sends the table lock, the NOTIFY
and ONE ``INSERT ... SELECT FROM unnest(<every event>)`` in psycopg pipeline mode. With a
batch of several megabytes (an imported game of 10,000-100,000 events) that never returns:
the client waits for results while the server still waits for the rest of the message (seen
with eventsourcing 9.5.6 and psycopg 3.3; a few hundred events are fine). Batches above
``PIPELINE_MAX`` events are sent outside pipeline mode instead: the same statements, in the
same single transaction, so the save stays atomic and keeps its notification ids.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent, Subscription
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresSubscription
from eventsourcing.utils import retry
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

PIPELINE_MAX = 500
"""Events per save above which the insert is not pipelined."""
_BEGIN, _COMMIT = SQL("BEGIN"), SQL("COMMIT")
GATHER = 0.02
"""Seconds a subscription waits after a notification before it pulls (``GatheringSubscription``):
the SQLite subscription's poll interval, so an idle read model trails a write alike on both."""


class GatheringSubscription(PostgresSubscription):
    """The library's subscription, but a notification starts a short wait before the pull.

    The library pulls on every NOTIFY, that is after every commit of the ledger, and each of the
    three read models (game list, matches, outbox) then pays a query, a decode and a view
    transaction per commit: under load that was more of a worker's CPU than the actions it
    served (docs/performance.md, issue 15, third pass: 608 -> 794 actions/s with one worker).
    Waiting ``gather`` seconds lets the commits of that time arrive first, so one pull and one
    view transaction take them all; an idle read model trails a write by this much more."""

    def __init__(self, *args: Any, gather: float = GATHER, **kwargs: Any) -> None:
        self._gather = gather
        self._pulled = False
        super().__init__(*args, **kwargs)

    def _pull(self) -> None:
        # Overrides the library's private ``ListenNotifySubscription._pull`` (eventsourcing is
        # pinned, constraints.txt): tests/store/test_postgres_subscription.py fails if an
        # upgrade stops calling it once per wake-up. The first pull catches up with what is
        # stored; later ones follow a notification.
        if self._pulled and self._gather > 0 and not self._has_been_stopped:
            time.sleep(self._gather)
        self._pulled = True
        super()._pull()


class LargeBatchPostgresApplicationRecorder(PostgresApplicationRecorder):
    """``PostgresApplicationRecorder`` whose saves hold the events table's lock for one round
    trip at most, and whose large saves don't use pipeline mode."""

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if self.datastore.enable_db_functions:
            via_function: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return via_function
        if not stored_events:
            return []
        if len(stored_events) <= PIPELINE_MAX:
            return self._insert_in_one_round_trip(stored_events, **kwargs)
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            self._insert_events(curs, stored_events, **kwargs)
            self._insert_stored_events(curs, stored_events, **kwargs)
            ids: Sequence[int] | None = self._fetch_ids_after_insert_events(curs, stored_events, **kwargs)
            return ids

    def _insert_in_one_round_trip(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """BEGIN, the table lock, NOTIFY, the INSERT and COMMIT sent as one pipeline, answered by
        one sync. The library syncs after the INSERT (to raise a clash there) and only then
        sends COMMIT: the table lock, which every writer of the store waits for, was held while
        the answer travelled back and the committing thread waited for its process's GIL, then
        for the COMMIT's own round trip (docs/performance.md, issue 15, fourth pass). A clash
        now fails the INSERT on the server, which skips the rest up to the sync; psycopg raises
        it at the sync (``IntegrityError`` from the datastore), and the pooled connection rolls
        the failed transaction back as the error leaves it."""
        with self.datastore.get_connection() as conn:
            control, insert = conn.cursor(), conn.cursor()
            with conn.pipeline():
                control.execute(_BEGIN)
                self._insert_events(insert, stored_events, **kwargs)
                self._insert_stored_events(insert, stored_events, **kwargs)
                control.execute(_COMMIT)
            ids: Sequence[int] | None = self._fetch_ids_after_insert_events(insert, stored_events, **kwargs)
            return ids

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[Any]:
        return GatheringSubscription(recorder=self, gt=gt, topics=topics)

    def heads_after(self, notification_id: int, limit: int = 1000) -> list[tuple[str, int, int]]:
        """The streams written after ``notification_id``, in log order: (stream, version,
        notification id) of up to ``limit`` events (``projections.head_watch``). The table lock
        makes the ids follow the commit order, so nothing committed later has a lower id.
        ``ORDER BY`` with ``LIMIT`` keeps it an index range scan when the statement is prepared
        (a generic plan for ``notification_id > $1`` alone scanned the whole table)."""
        statement = SQL(
            "SELECT originator_id, originator_version, notification_id FROM {schema}.{table} "
            "WHERE notification_id > %s ORDER BY notification_id LIMIT %s"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            rows = curs.execute(statement, (notification_id, limit), prepare=True).fetchall()
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]

    def taken_versions(self, keys: Collection[tuple[str, int]]) -> set[tuple[str, int]]:
        """Which of these (stream, version) pairs are stored (``projections.group_commit``)."""
        wanted = list(set(keys))
        statement = SQL(
            "SELECT t.originator_id, t.originator_version FROM {schema}.{table} AS t "
            "JOIN unnest(%s::text[], %s::bigint[]) AS k(i, v) ON t.originator_id = k.i AND t.originator_version = k.v"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
        with self.datastore.get_connection() as conn:
            rows = conn.execute(statement, ([k[0] for k in wanted], [k[1] for k in wanted])).fetchall()
        return {(str(r["originator_id"]), int(r["originator_version"])) for r in rows}
