"""A PostgreSQL application recorder whose save is one statement, and whose subscriptions
gather the notifications of a few milliseconds into one pull.

A save calls a function the recorder creates with its tables (``SAVE_FUNCTION``): the table
lock, NOTIFY and the INSERT run in the database, in the one implicit transaction of that
statement. The library's save is six statements (BEGIN, the lock timeout, the lock, NOTIFY,
the INSERT, COMMIT), each parsed and bound by psycopg in Python and by the server: on this
2-core machine that was a quarter to a half of a sequential action's CPU on PostgreSQL
(docs/performance.md, issue 15, fifth pass).

Where the function is missing (tables made by an older version), saves take the earlier path:
the library's ``PostgresApplicationRecorder.insert_events`` sends the table lock, the NOTIFY and
ONE ``INSERT ... SELECT FROM unnest(<every event>)`` in psycopg pipeline mode. With a batch of
several megabytes (an imported game of 10,000-100,000 events) that never returns: the client
waits for results while the server still waits for the rest of the message (seen with
eventsourcing 9.5.6 and psycopg 3.3; a few hundred events are fine). Batches above
``PIPELINE_MAX`` events are sent outside pipeline mode instead: the same statements, in the
same single transaction, so the save stays atomic and keeps its notification ids.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, OperationalError, ProgrammingError, StoredEvent, Subscription
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore, PostgresSubscription
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.errors import UndefinedFunction
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier, Literal

log = logging.getLogger("mtg_ledger.store")

SAVE_FUNCTION = "mtg_ledger_save_{}"
"""The function in the database that saves a batch of events (``{}``: the events table)."""
PIPELINE_MAX = 500
"""Events per save above which the insert is not pipelined."""
_BEGIN, _COMMIT = SQL("BEGIN"), SQL("COMMIT")
GATHER = 0.1
"""Seconds a subscription waits after a notification before it pulls (``GatheringSubscription``).
Each pull costs the read-model process about 1.8 ms of CPU for its three views' transactions
whatever it holds, each event about 130 µs more: at 400 actions/s, waiting 100 ms instead of 20
halved that process's CPU per action (360 -> 177 µs) and cut PostgreSQL's by 5-23%
(docs/performance.md, issue 15, tenth pass). A game list, a match page or a webhook then trails
a write by up to a tenth of a second, which nobody reading them sees; SQLite's subscription looks
as often (``store.sqlite_polling.POLL_INTERVAL``)."""


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
    """``PostgresApplicationRecorder`` whose save is one call of a function of its own in the
    database (``SAVE_FUNCTION``), and which falls back to one pipelined transaction (or, for a
    large batch, a plain one) where that function is missing."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.save_function = SAVE_FUNCTION.format(self.events_table_name)
        schema, function = Identifier(self.datastore.schema), Identifier(self.save_function)
        id_type = Identifier(self.datastore.originator_id_type)
        self.save_function_ready = True
        """False once a save found the function missing (its tables were made by an older
        version, and this process was started without creating tables): saves then take the
        pipelined path, as before the function existed."""
        self._call_save_function = SQL(
            "SELECT {schema}.{function}(%b::{id_type}[], %b::bigint[], %b::text[], %b::bytea[])"
        ).format(schema=schema, function=function, id_type=id_type)
        self._save_call: bytes | None = None
        """``_call_save_function`` as the bytes psycopg sends (composed at the first save)."""
        # Created with the tables (``create_table`` runs ``sql_create_statements`` in one
        # transaction). The lock and NOTIFY are the library's own, so writers of this and of
        # older versions still take turns on the one table lock (a rolling upgrade).
        self.sql_create_statements.append(
            SQL(
                "CREATE OR REPLACE FUNCTION {schema}.{function}("
                "ids {id_type}[], versions bigint[], topics text[], states bytea[]) "
                "RETURNS SETOF bigint LANGUAGE plpgsql AS $body$ BEGIN "
                "SET LOCAL lock_timeout = {timeout}; "
                "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
                "NOTIFY {channel}; "
                "RETURN QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
                "SELECT * FROM unnest(ids, versions, topics, states) RETURNING notification_id; "
                "END $body$"
            ).format(
                schema=schema,
                function=function,
                id_type=id_type,
                timeout=Literal(f"{self.datastore.lock_timeout}s"),
                table=Identifier(self.events_table_name),
                channel=Identifier(self.channel_name),
            )
        )

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)  # as the library's
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if self.datastore.enable_db_functions:
            via_function: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return via_function
        if not stored_events:
            return []
        if self.save_function_ready:
            try:
                return self._insert_by_function(stored_events)
            except ProgrammingError as err:
                if not isinstance(err.__cause__, UndefinedFunction):
                    raise
                log.warning("%s is missing (tables made by an older version): saving without it", self.save_function)
                self.save_function_ready = False
        if len(stored_events) <= PIPELINE_MAX:
            return self._insert_in_one_round_trip(stored_events, **kwargs)
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            self._insert_events(curs, stored_events, **kwargs)
            self._insert_stored_events(curs, stored_events, **kwargs)
            ids: Sequence[int] | None = self._fetch_ids_after_insert_events(curs, stored_events, **kwargs)
            return ids

    def _insert_by_function(self, stored_events: Sequence[StoredEvent]) -> list[int]:
        """One statement, so one implicit transaction: the server takes the lock, notifies,
        inserts and commits before it answers (the commit happens at the sync psycopg sends
        with the statement), so the lock is never held while this process reads the answer.
        The events go as four arrays in binary, where the library sends one array of a
        composite type as text (each state as hex, parsed back by the server)."""
        columns = (
            [e.originator_id for e in stored_events],
            [e.originator_version for e in stored_events],
            [e.topic for e in stored_events],
            [e.state for e in stored_events],
        )
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            if self._save_call is None:
                # Composed once: psycopg composes an ``sql.Composed`` again on every execute
                # (quoting each identifier through libpq), bytes it takes as they are.
                self._save_call = self._call_save_function.as_bytes(conn)
            curs.execute(self._save_call, columns, prepare=True)
            return self._notification_ids(curs)

    @staticmethod
    def _notification_ids(curs: Cursor[tuple[Any, ...]]) -> list[int]:
        return [int(row[0]) for row in curs.fetchall()]

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

    def stored_after(self, notification_id: int, limit: int = 1000) -> list[tuple[StoredEvent, int]]:
        """The events stored after ``notification_id``, in log order, each with its notification
        id: up to ``limit`` of them (``store.head_watch`` brings cached heads forward with
        them). The table lock makes the ids follow the commit order, so nothing committed later
        has a lower id. ``ORDER BY`` with ``LIMIT`` keeps it an index range scan when the statement
        is prepared (a generic plan for ``notification_id > $1`` alone scanned the whole table)."""
        statement = SQL(
            "SELECT originator_id, originator_version, topic, state, notification_id FROM {schema}.{table} "
            "WHERE notification_id > %s ORDER BY notification_id LIMIT %s"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            rows = curs.execute(statement, (notification_id, limit), prepare=True).fetchall()
        return [(StoredEvent(r[0], int(r[1]), str(r[2]), bytes(r[3])), int(r[4])) for r in rows]

    def taken_versions(self, keys: Collection[tuple[str, int]]) -> set[tuple[str, int]]:
        """Which of these (stream, version) pairs are stored (``store.group_commit``)."""
        wanted = list(set(keys))
        statement = SQL(
            "SELECT t.originator_id, t.originator_version FROM {schema}.{table} AS t "
            "JOIN unnest(%s::text[], %s::bigint[]) AS k(i, v) ON t.originator_id = k.i AND t.originator_version = k.v"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))
        with self.datastore.get_connection() as conn:
            rows = conn.execute(statement, ([k[0] for k in wanted], [k[1] for k in wanted])).fetchall()
        return {(str(r["originator_id"]), int(r["originator_version"])) for r in rows}
