"""A small read-model kit: JSON documents by key, kept by a follower of the notification log.

The matches read model (``projections.matches``) and the webhook outbox
(``ledger.webhooks``) are each a ``DocumentProjection``: a pure ``changes(record, get)``
says which documents one stored record changes, and the view writes those documents and the
tracking record (the notification id) in ONE transaction, in the same database as the events.
So each follower has its own tracking position: a restart resumes after the last record it
recorded and loses nothing (DESIGN.md, Wave 2 notes). As for the game list
(``projections.game_list``), the runner takes the records it has pulled in batches, one
transaction each (``store.batching_runner``), and runs in one elected process per
deployment (``store.runner_election``), not in every worker.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier

from store.application import LedgerApplication
from store.database_url import StoreKind
from store.elected_projection import ElectedProjection
from store.read_model_group import ReadModelGroup
from store.sqlite_polling import writer_lock

log = logging.getLogger("mtg_ledger.store")
Doc = dict[str, Any]
Get = Callable[[str], "Doc | None"]


class DocumentView(TrackingRecorder, ABC):
    """Documents by key (``TABLE``), plus the tracking position."""

    TABLE: ClassVar[str] = ""

    @abstractmethod
    def get_doc(self, key: str) -> Doc | None: ...

    @abstractmethod
    def docs(self, prefix: str) -> dict[str, Doc]:
        """Every document whose key starts with ``prefix``."""

    @abstractmethod
    def put_docs(self, docs: Mapping[str, Doc], tracking: Tracking | None) -> None:
        """Write documents (and ``tracking``, when given) in one transaction."""

    @abstractmethod
    def close(self) -> None: ...


class _OwnTracking:
    """Tracking under a name of this view's own (``<application>#<table>``): the tracking table
    is shared by every follower in one database (SQLite keeps one row per application name), so
    each follower keeps its own position rather than moving the game list's."""

    TABLE: ClassVar[str] = ""
    table_migration_identifier: str

    def _own(self, name: str) -> str:
        return name if name == self.table_migration_identifier else f"{name}#{self.TABLE}"

    def _insert_tracking(self, c: Any, tracking: Tracking) -> None:
        own = Tracking(self._own(tracking.application_name), tracking.notification_id)
        super()._insert_tracking(c, own)  # type: ignore[misc]

    def max_tracking_id(self, application_name: str) -> int | None:
        found: int | None = super().max_tracking_id(self._own(application_name))  # type: ignore[misc]
        return found

    def has_tracking_id(self, application_name: str, notification_id: int | None) -> bool:
        if notification_id is None:
            return True
        found = self.max_tracking_id(application_name)
        return found is not None and found >= notification_id


class SQLiteDocumentView(_OwnTracking, SQLiteTrackingRecorder, DocumentView):
    datastore: SQLiteDatastore

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._writer_lock = writer_lock(datastore)

    def construct_create_table_statements(self) -> list[str]:
        statements = super().construct_create_table_statements()
        statements.append(f"CREATE TABLE IF NOT EXISTS {self.TABLE} (key TEXT PRIMARY KEY, doc TEXT NOT NULL)")
        return statements

    def insert_tracking(self, tracking: Tracking) -> None:
        with self._writer_lock:
            super().insert_tracking(tracking)

    def get_doc(self, key: str) -> Doc | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT doc FROM {self.TABLE} WHERE key = ?", (key,))
            row = c.fetchone()
        return None if row is None else dict(json.loads(row["doc"]))

    def docs(self, prefix: str) -> dict[str, Doc]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT key, doc FROM {self.TABLE} WHERE substr(key, 1, ?) = ? ORDER BY key", (len(prefix), prefix)
            )
            return {row["key"]: json.loads(row["doc"]) for row in c.fetchall()}

    def put_docs(self, docs: Mapping[str, Doc], tracking: Tracking | None) -> None:
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            for key, doc in docs.items():
                c.execute(
                    f"INSERT INTO {self.TABLE} (key, doc) VALUES (?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET doc = excluded.doc",
                    (key, json.dumps(doc, sort_keys=True)),
                )
            if tracking is not None:
                self._insert_tracking(c, tracking)

    def close(self) -> None:
        self.datastore.close()


class PostgresDocumentView(_OwnTracking, PostgresTrackingRecorder, DocumentView):
    datastore: PostgresDatastore

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._table = Identifier(self.datastore.schema, self.TABLE)
        self.sql_create_statements.append(
            SQL("CREATE TABLE IF NOT EXISTS {0} (key text PRIMARY KEY, doc text NOT NULL)").format(self._table)
        )

    def get_doc(self, key: str) -> Doc | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT doc FROM {0} WHERE key = %s").format(self._table), (key,))
            row = curs.fetchone()
        return None if row is None else dict(json.loads(row["doc"]))

    def docs(self, prefix: str) -> dict[str, Doc]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT key, doc FROM {0} WHERE left(key, %s) = %s ORDER BY key").format(self._table),
                (len(prefix), prefix),
            )
            return {row["key"]: json.loads(row["doc"]) for row in curs.fetchall()}

    def put_docs(self, docs: Mapping[str, Doc], tracking: Tracking | None) -> None:
        with self.datastore.transaction(commit=True) as curs:
            for key, doc in docs.items():
                curs.execute(
                    SQL(
                        "INSERT INTO {0} (key, doc) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET doc = EXCLUDED.doc"
                    ).format(self._table),
                    (key, json.dumps(doc, sort_keys=True)),
                )
            if tracking is not None:
                self._insert_tracking(curs, tracking)

    def close(self) -> None:
        self.datastore.close()


class DocumentProjection(Projection[DocumentView]):
    """Folds stored records into documents; ``changes`` is the pure part."""

    name = "Documents"
    topics: tuple[str, ...] = ()

    @staticmethod
    def changes(record: Any, get: Get, position: int) -> dict[str, Doc]:
        """The documents ``record`` (at notification id ``position``) changes, as new values,
        reading current ones with ``get``."""
        raise NotImplementedError

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.process_batch([(domain_event, tracking)])

    def process_batch(self, batch: Sequence[tuple[Any, Tracking]]) -> None:
        """The records of ``batch`` in log order, written as ONE transaction with the last
        record's tracking (``store.batching_runner``): a later record of the batch reads
        what an earlier one changed from ``pending``, not from the view."""
        if not batch:
            return
        pending: dict[str, Doc] = {}

        def get(key: str) -> Doc | None:
            return pending[key] if key in pending else self.view.get_doc(key)

        for record, tracking in batch:
            pending.update(self.changes(record, get, tracking.notification_id))
        last = batch[-1][1]
        try:
            self.view.put_docs(pending, last)
        except IntegrityError:
            # Another runner already projected this notification (tracking only moves forward).
            if not self.view.has_tracking_id(last.application_name, last.notification_id):
                raise


def view_classes(table: str) -> dict[str, type[DocumentView]]:
    """A view class per store for one table."""
    return {
        "sqlite": type(f"SQLiteDocs_{table}", (SQLiteDocumentView,), {"TABLE": table}),
        "postgresql": type(f"PostgresDocs_{table}", (PostgresDocumentView,), {"TABLE": table}),
    }


def follower(
    app: LedgerApplication,
    store: StoreKind,
    env: Mapping[str, str],
    projection: type[DocumentProjection],
    views: Mapping[str, type[DocumentView]],
    *,
    group: ReadModelGroup,
) -> ElectedProjection[DocumentView]:
    """One ``DocumentProjection`` as the service runs it: its view, a member of the log's read
    models ``group`` (``store.elected_projection``)."""
    return ElectedProjection(app, env, projection, views[store], group=group)
