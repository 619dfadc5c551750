"""The webhook outbox's tables (``ledger.webhooks``): the documents of ``store.documents``
(the subscriptions) plus a table of deliveries, one row each, whose state is in columns.

Why a table of its own (issue 33, finding 5): the deliverer looked for due deliveries by
reading every delivery document 4 times a second, and delivered ones stayed for ever. Here a
due delivery is found by an index on ``due`` (``NULL`` unless the delivery is pending), and
delivered or dead ones are deleted once their retention is over (``prune``).

Why claims are one statement (finding 6): two processes deliver (``serve`` and the read-model
process, several workers); a claim that reads, then writes, let both send the same delivery.
``claim`` marks due rows with a lease token in ONE ``UPDATE ... RETURNING`` (on PostgreSQL
over ``FOR UPDATE SKIP LOCKED`` rows: a row another claimer holds is skipped, not waited for),
and counts the attempt there. ``finish`` writes the outcome only under the same lease token.

Why one outbox for several logs (issue 39): with several partitions (``ledger.partitions``) a
game's events are in its own database's log, but the subscriptions and the deliveries are in
the home database. The outbox follows every partition's log into the home database's tables,
each log with a tracking position of its own (``partition``: the view class of the k-th other
partition tracks under ``<name>#<table>@p<k>``), written in the same transaction as the
deliveries its records enqueue: each record is enqueued once, and one deliverer sends them all.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from store.documents import ANYWHERE, Doc, DocumentView, PostgresDocumentView, SQLiteDocumentView

DELIVERY_PREFIX = "delivery/"
"""Keys of deliveries (``delivery/<subscription>/<position>``): kept in the deliveries table."""
STATE_COLUMNS = ("status", "attempts")
"""Doc fields the table keeps in columns (they win over the doc's on reading)."""


def _row(key: str, doc: Doc) -> tuple[str, str, str, float | None, int, str]:
    status = doc["status"]
    due = max(doc["next_at"], doc.get("claimed_until", 0.0)) if status == "pending" else None
    return key, doc["subscription"], status, due, int(doc["attempts"]), json.dumps(doc, sort_keys=True)


def _doc(row: Any) -> Doc:
    doc: Doc = json.loads(row["doc"])
    doc.update(status=row["status"], attempts=row["attempts"])
    return doc


_ADDED: dict[str, threading.Event] = {}
_ADDED_GUARD = threading.Lock()


def _added(where: str) -> threading.Event:
    with _ADDED_GUARD:
        return _ADDED.setdefault(where, threading.Event())


class OutboxView(DocumentView):
    """What the deliverer asks of the outbox (both stores)."""

    DELIVERIES: ClassVar[str] = "webhook_deliveries"

    def where(self) -> str:
        """The outbox's database and table, as this process names them."""
        raise NotImplementedError

    def deliveries_added(self) -> threading.Event:
        """Set once a view of this outbox in this process has stored new deliveries (the outbox
        read model's writes): the deliverer waits on it between rounds instead of claiming on a
        timer (``ledger.webhooks``)."""
        return _added(self.where())

    def _announce(self, docs: Mapping[str, Doc]) -> None:
        if any(key.startswith(DELIVERY_PREFIX) for key in docs):
            self.deliveries_added().set()

    def claim(self, now: float, lease: float, token: str, limit: int, skip: Collection[str]) -> list[tuple[str, Doc]]:
        """Take up to ``limit`` due deliveries (oldest first) of subscriptions not in ``skip``
        for ``lease`` seconds under ``token``; each with its attempt counted."""
        raise NotImplementedError

    def finish(self, key: str, token: str, doc: Doc, done_at: float | None) -> bool:
        """Write a claimed delivery's outcome (``doc``: its status, attempts, next_at) if the
        claim is still ``token``'s; ``done_at``: when it was delivered or given up."""
        raise NotImplementedError

    def deliveries(self, subscription: str) -> list[Doc]:
        """One subscription's deliveries, oldest first (the body left out)."""
        raise NotImplementedError

    def cancel(self, subscription: str, now: float) -> int:
        """A deleted subscription's pending deliveries: ``cancelled`` (kept until pruned)."""
        raise NotImplementedError

    def prune(self, delivered_before: float, dead_before: float) -> int:
        """Delete deliveries delivered (or cancelled) before ``delivered_before`` and dead
        ones given up before ``dead_before``; how many."""
        raise NotImplementedError


_CREATE = (
    "CREATE TABLE IF NOT EXISTS {t} (key TEXT PRIMARY KEY, subscription TEXT NOT NULL, status TEXT NOT NULL, "
    "due DOUBLE PRECISION, attempts INTEGER NOT NULL, lease TEXT, done_at DOUBLE PRECISION, doc TEXT NOT NULL)"
)
_INDEXES = (
    # Only pending rows have a ``due``: the index the deliverer reads holds them alone.
    "CREATE INDEX IF NOT EXISTS {i_due} ON {t} (due) WHERE due IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS {i_done} ON {t} (done_at) WHERE done_at IS NOT NULL",
)
_INSERT = (
    "INSERT INTO {t} (key, subscription, status, due, attempts, doc) VALUES (?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (key) DO NOTHING"
)
_FINISH = (
    "UPDATE {t} SET status = ?, due = ?, attempts = ?, lease = NULL, done_at = ?, doc = ? WHERE key = ? AND lease = ?"
)
_LIST = "SELECT key, status, attempts, doc FROM {t} WHERE subscription = ? ORDER BY key"
_CANCEL = (
    "UPDATE {t} SET status = 'cancelled', due = NULL, lease = NULL, done_at = ? "
    "WHERE subscription = ? AND status = 'pending'"
)
_PRUNE = (
    "DELETE FROM {t} WHERE (status IN ('delivered', 'cancelled') AND done_at < ?) OR (status = 'dead' AND done_at < ?)"
)


class _PartitionTracking:
    """The tracking name of a view following another partition's log than the home one's."""

    PARTITION: ClassVar[int] = 0
    """The partition whose log the view's follower folds (0: the home one, whose database
    holds the outbox; its tracking name is the one an outbox of one database always had)."""

    def _own(self, name: str) -> str:
        own: str = super()._own(name)  # type: ignore[misc]
        return f"{own}@p{self.PARTITION}" if self.PARTITION and own != name else own


class SQLiteOutboxView(_PartitionTracking, SQLiteDocumentView, OutboxView):
    def construct_create_table_statements(self) -> list[str]:
        names = {"t": self.DELIVERIES, "i_due": f"{self.DELIVERIES}_due", "i_done": f"{self.DELIVERIES}_done"}
        return [*super().construct_create_table_statements(), *(s.format(**names) for s in (_CREATE, *_INDEXES))]

    def create_table(self) -> None:
        super().create_table()
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            _move_legacy_sqlite(c, self.TABLE, self.DELIVERIES)

    def where(self) -> str:
        return f"sqlite:{os.path.realpath(self.datastore.pool.db_name)}#{self.DELIVERIES}"

    def put_docs(self, docs: Mapping[str, Doc], tracking: Tracking | None, *, after: int | None = ANYWHERE) -> None:
        super().put_docs(docs, tracking, after=after)
        self._announce(docs)  # committed: the deliverer may claim them now

    def _write_doc(self, c: Any, key: str, doc: Doc) -> None:
        if not key.startswith(DELIVERY_PREFIX):
            super()._write_doc(c, key, doc)
            return
        # DO NOTHING: a record folded again must not bring a delivered delivery back.
        c.execute(_INSERT.format(t=self.DELIVERIES), _row(key, doc))

    def claim(self, now: float, lease: float, token: str, limit: int, skip: Collection[str]) -> list[tuple[str, Doc]]:
        sql = (
            f"UPDATE {self.DELIVERIES} SET due = ?, lease = ?, attempts = attempts + 1 WHERE key IN ("
            f"SELECT key FROM {self.DELIVERIES} WHERE due IS NOT NULL AND due <= ? "
            "AND subscription NOT IN (SELECT value FROM json_each(?)) ORDER BY due, key LIMIT ?) "
            "RETURNING key, status, attempts, doc"
        )
        # One write transaction (writers of one SQLite file take turns): no two claimers get a row.
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            c.execute(sql, (now + lease, token, now, json.dumps(sorted(skip)), limit))
            rows = c.fetchall()
        return sorted((row["key"], _doc(row)) for row in rows)

    def finish(self, key: str, token: str, doc: Doc, done_at: float | None) -> bool:
        _, _, status, due, attempts, text = _row(key, doc)
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            c.execute(_FINISH.format(t=self.DELIVERIES), (status, due, attempts, done_at, text, key, token))
            return bool(c.sqlite_cursor.rowcount)

    def deliveries(self, subscription: str) -> list[Doc]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(_LIST.format(t=self.DELIVERIES), (subscription,))
            return [_doc(row) for row in c.fetchall()]

    def cancel(self, subscription: str, now: float) -> int:
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            c.execute(_CANCEL.format(t=self.DELIVERIES), (now, subscription))
            return int(c.sqlite_cursor.rowcount)

    def prune(self, delivered_before: float, dead_before: float) -> int:
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            c.execute(_PRUNE.format(t=self.DELIVERIES), (delivered_before, dead_before))
            return int(c.sqlite_cursor.rowcount)


def _move_legacy_sqlite(c: Any, docs: str, deliveries: str) -> None:
    """Deliveries an older version kept as documents move to the deliveries table (once)."""
    c.execute(f"SELECT key, doc FROM {docs} WHERE substr(key, 1, ?) = ?", (len(DELIVERY_PREFIX), DELIVERY_PREFIX))
    for row in c.fetchall():
        c.execute(_INSERT.format(t=deliveries), _row(row["key"], json.loads(row["doc"])))
    c.execute(f"DELETE FROM {docs} WHERE substr(key, 1, ?) = ?", (len(DELIVERY_PREFIX), DELIVERY_PREFIX))


class PostgresOutboxView(_PartitionTracking, PostgresDocumentView, OutboxView):
    datastore: PostgresDatastore

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._deliveries = Identifier(self.datastore.schema, self.DELIVERIES)
        for statement in (_CREATE, *_INDEXES):
            self.sql_create_statements.append(self._sql(statement))

    def _sql(self, template: str) -> Composed:
        return SQL(template.replace("?", "%s")).format(
            t=self._deliveries,
            i_due=Identifier(f"{self.DELIVERIES}_due"),
            i_done=Identifier(f"{self.DELIVERIES}_done"),
        )

    def create_table(self) -> None:
        super().create_table()
        prefix = (len(DELIVERY_PREFIX), DELIVERY_PREFIX)
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(SQL("SELECT key, doc FROM {0} WHERE left(key, %s) = %s").format(self._table), prefix)
            for row in curs.fetchall():
                curs.execute(self._sql(_INSERT), _row(row["key"], json.loads(row["doc"])))
            curs.execute(SQL("DELETE FROM {0} WHERE left(key, %s) = %s").format(self._table), prefix)

    def where(self) -> str:
        pool = self.datastore.pool
        return f"postgresql:{pool.conninfo} {pool.kwargs!r}/{self.datastore.schema}#{self.DELIVERIES}"

    def put_docs(self, docs: Mapping[str, Doc], tracking: Tracking | None, *, after: int | None = ANYWHERE) -> None:
        super().put_docs(docs, tracking, after=after)
        self._announce(docs)  # committed: the deliverer may claim them now

    def _write_doc(self, curs: Any, key: str, doc: Doc) -> None:
        if not key.startswith(DELIVERY_PREFIX):
            super()._write_doc(curs, key, doc)
            return
        curs.execute(self._sql(_INSERT), _row(key, doc))

    def claim(self, now: float, lease: float, token: str, limit: int, skip: Collection[str]) -> list[tuple[str, Doc]]:
        sql = (
            "UPDATE {t} SET due = ?, lease = ?, attempts = attempts + 1 WHERE key IN ("
            "SELECT key FROM {t} WHERE due IS NOT NULL AND due <= ? AND NOT (subscription = ANY(?)) "
            "ORDER BY due, key LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING key, status, attempts, doc"
        )
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self._sql(sql), (now + lease, token, now, sorted(skip), limit))
            rows = curs.fetchall()
        return sorted((row["key"], _doc(row)) for row in rows)

    def finish(self, key: str, token: str, doc: Doc, done_at: float | None) -> bool:
        _, _, status, due, attempts, text = _row(key, doc)
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self._sql(_FINISH), (status, due, attempts, done_at, text, key, token))
            return bool(curs.rowcount)

    def deliveries(self, subscription: str) -> list[Doc]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._sql(_LIST), (subscription,))
            return [_doc(row) for row in curs.fetchall()]

    def cancel(self, subscription: str, now: float) -> int:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self._sql(_CANCEL), (now, subscription))
            return int(curs.rowcount)

    def prune(self, delivered_before: float, dead_before: float) -> int:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(self._sql(_PRUNE), (delivered_before, dead_before))
            return int(curs.rowcount)


def outbox_view_classes(table: str, partition: int = 0) -> dict[str, type[DocumentView]]:
    """An outbox view class per store, its documents in ``table``; ``partition``: the log its
    follower folds (0: the home partition's; k: the k-th partition's, tracked apart)."""
    suffix = f"_p{partition}" if partition else ""
    attributes = {"TABLE": table, "PARTITION": partition}
    return {
        "sqlite": type(f"SQLiteOutbox_{table}{suffix}", (SQLiteOutboxView,), attributes),
        "postgresql": type(f"PostgresOutbox_{table}{suffix}", (PostgresOutboxView,), attributes),
    }
