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

from eventsourcing.persistence import StoredEvent, Subscription
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresSubscription
from psycopg.sql import SQL, Identifier

PIPELINE_MAX = 500
"""Events per save above which the insert is not pipelined."""
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
    """``PostgresApplicationRecorder`` whose large saves don't use pipeline mode."""

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if len(stored_events) <= PIPELINE_MAX or self.datastore.enable_db_functions:
            pipelined: Sequence[int] | None = super().insert_events(stored_events, **kwargs)
            return pipelined
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            self._insert_events(curs, stored_events, **kwargs)
            self._insert_stored_events(curs, stored_events, **kwargs)
            ids: Sequence[int] | None = self._fetch_ids_after_insert_events(curs, stored_events, **kwargs)
            return ids

    def subscribe(self, gt: int | None = None, topics: Sequence[str] = ()) -> Subscription[Any]:
        return GatheringSubscription(recorder=self, gt=gt, topics=topics)

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
