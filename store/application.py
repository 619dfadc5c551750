"""The ``eventsourcing`` application that holds every stream of the ledger.

One application, one table set: games (one stream per game id), snapshots, tokens, idempotency
records and import receipts. Its name fixes the PostgreSQL table names (``ledger_events``,
``ledger_snapshots``); SQLite uses the library's fixed names (``stored_events``, ...).
"""

from __future__ import annotations

from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent, Transcoder
from eventsourcing.utils import Environment, EnvType

from store.records import PlainJSONTranscoder

StoredRow = StoredEvent
"""One stored row as the library's recorder reads it (before the mapper turns it into a record)."""


class LedgerApplication(Application[str]):
    """Streams keyed by string ids; configured only by the environment it is given."""

    name = "Ledger"

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        """Only the given settings, never ``os.environ``: the database URL decides the store
        (``store.database_url``), so a stray ``PERSISTENCE_MODULE`` or
        ``LEDGER_SQLITE_DBNAME`` in a process environment can't point a worker elsewhere."""
        return Environment(name, dict(env or {}))

    def construct_transcoder(self) -> Transcoder:
        return PlainJSONTranscoder()
