"""The game list's tables: one summary row per game, and the games the view could not project.

``GameSummaryView`` is the library's ``TrackingRecorder`` with the summary rows: each write
applies its changes and records the tracking position (the notification id) in one transaction,
in the same database as the events, so a restarted runner resumes after the last id it
recorded. ``projections.game_summaries`` works out the changes from the events; this module only
stores and reads them, on SQLite or PostgreSQL.
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from psycopg.sql import SQL, Composed, Identifier

from store.results import GameSummary
from store.sqlite_polling import LockedTables, writer_lock

TABLE = "game_summaries"
FAILURES = "game_summary_failures"
"""Games the view could not project (one row per game, its first failing record)."""
COLUMNS = "game_id, variant, status, winners, tournament, version, created_at, updated_at"
INSERT_COLUMNS = (
    "game_id, variant, status, winners, tournament, tournament_event, tournament_round, tournament_table, "
    "version, created_at, updated_at"
)


@dataclass(frozen=True, slots=True)
class SummaryChange:
    """What one game event changes in its game's summary row."""

    game_id: str
    version: int
    at: str
    variant: str | None = None
    """Set only by ``GameStarted``: the row is created."""
    tournament: Mapping[str, Any] | None = None
    status: str | None = None
    winners: tuple[str, ...] | None = None


def _key(value: Any) -> str | None:
    """Tournament fields are compared as text, so ``round=3`` finds a round given as 3 or "3"."""
    return None if value is None else str(value)


def _row_values(change: SummaryChange) -> tuple[Any, ...]:
    t = change.tournament or {}
    return (
        change.game_id,
        change.variant,
        change.status or "in_progress",
        json.dumps(list(change.winners or ())),
        json.dumps(dict(t)) if change.tournament is not None else None,
        _key(t.get("event")),
        _key(t.get("round")),
        _key(t.get("table")),
        change.version,
        change.at,
        change.at,
    )


def _update_values(change: SummaryChange) -> tuple[Any, ...]:
    winners = None if change.winners is None else json.dumps(list(change.winners))
    return (change.version, change.at, change.status, winners, change.game_id, change.version)


INSERT_ROW = "INSERT INTO {table} (" + INSERT_COLUMNS + ") VALUES ({marks}) ON CONFLICT (game_id) DO NOTHING"
UPDATE_ROW = (
    "UPDATE {table} SET version = {m}, updated_at = {m}, status = COALESCE({m}, status), "
    "winners = COALESCE({m}, winners) WHERE game_id = {m} AND version < {m}"
)
"""The two statements of ``record_changes`` (``{m}``: the dialect's parameter mark)."""


def runs(changes: Sequence[SummaryChange]) -> Iterator[tuple[bool, list[tuple[Any, ...]]]]:
    """``changes`` as runs of one statement, in order: ``(True, rows to insert)`` or ``(False,
    rows to update)``, for one ``executemany`` each. A batch of a busy ledger is mostly one run
    of updates: PostgreSQL then gets them in one pipelined round trip, not one per event."""
    run: list[tuple[Any, ...]] = []
    inserting = False
    for change in changes:
        creates = change.variant is not None
        if run and creates != inserting:
            yield inserting, run
            run = []
        inserting = creates
        run.append(_row_values(change) if creates else _update_values(change))
    if run:
        yield inserting, run


def _filters(event: Any, round: Any, table: Any, status: Any) -> list[tuple[str, str]]:
    wanted = (("tournament_event", event), ("tournament_round", round), ("tournament_table", table), ("status", status))
    return [(column, str(value)) for column, value in wanted if value is not None]


def _summary(row: Mapping[str, Any]) -> GameSummary:
    tournament = json.loads(row["tournament"]) if row["tournament"] else None
    t = tournament or {}
    return GameSummary(
        game_id=row["game_id"],
        variant=row["variant"],
        status=row["status"],
        winners=tuple(json.loads(row["winners"])),
        event=t.get("event"),
        round=t.get("round"),
        table=t.get("table"),
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        tournament=tournament,
    )


@dataclass(frozen=True, slots=True)
class ProjectionFailure:
    """A record the view could not project: the game is marked, the other games go on."""

    game_id: str
    version: int
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "version": self.version, "error": self.error}


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def printable(text: str, limit: int = 500) -> str:
    """Text safe for any store's text column and for a log line."""
    cleaned = _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return cleaned if len(cleaned) <= limit else cleaned[:limit] + "..."


def _failure_values(failure: ProjectionFailure) -> tuple[Any, ...]:
    return (printable(failure.game_id, 200), failure.version, printable(failure.error))


class GameSummaryView(TrackingRecorder, ABC):
    """The materialised view: summary rows plus the tracking position, one transaction each."""

    def record_change(self, change: SummaryChange, tracking: Tracking) -> None:
        """Apply one change and record ``tracking`` atomically."""
        self.record_changes([change], tracking)

    @abstractmethod
    def record_changes(self, changes: Sequence[SummaryChange], tracking: Tracking) -> None:
        """Apply changes in order and record ``tracking`` (the last one's position), atomically."""

    @abstractmethod
    def select_games(
        self, *, event: Any = None, round: Any = None, table: Any = None, status: Any = None
    ) -> list[GameSummary]:
        """Summaries matching every given filter, most recently updated first."""

    @abstractmethod
    def record_failure(self, failure: ProjectionFailure, tracking: Tracking) -> None:
        """Mark the failure's game (its first failure is kept) and record ``tracking``, atomically."""

    @abstractmethod
    def select_failures(self) -> list[ProjectionFailure]:
        """Every game marked as failed, by game id."""

    @abstractmethod
    def close(self) -> None:
        """Close the view's connections."""


_SQLITE_INSERT = INSERT_ROW.format(table=TABLE, marks=", ".join(["?"] * 11))
_SQLITE_UPDATE = UPDATE_ROW.format(table=TABLE, m="?")


class SQLiteGameSummaryView(LockedTables, SQLiteTrackingRecorder, GameSummaryView):
    """The view in the ledger's SQLite file; it writes in turn with the ledger's own datastore
    (``store.sqlite_polling.writer_lock``)."""

    datastore: SQLiteDatastore

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._writer_lock = writer_lock(datastore)

    def insert_tracking(self, tracking: Tracking) -> None:
        with self._writer_lock:
            super().insert_tracking(tracking)

    def close(self) -> None:
        self.datastore.close()

    def construct_create_table_statements(self) -> list[str]:
        statements = super().construct_create_table_statements()
        statements.append(
            f"CREATE TABLE IF NOT EXISTS {TABLE} ("
            "game_id TEXT PRIMARY KEY, variant TEXT NOT NULL, status TEXT NOT NULL, winners TEXT NOT NULL, "
            "tournament TEXT, tournament_event TEXT, tournament_round TEXT, tournament_table TEXT, "
            "version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)"
        )
        statements.append(
            f"CREATE INDEX IF NOT EXISTS {TABLE}_tournament_idx "
            f"ON {TABLE} (tournament_event, tournament_round, tournament_table)"
        )
        statements.append(
            f"CREATE TABLE IF NOT EXISTS {FAILURES} ("
            "game_id TEXT PRIMARY KEY, version INTEGER NOT NULL, error TEXT NOT NULL)"
        )
        return statements

    def record_failure(self, failure: ProjectionFailure, tracking: Tracking) -> None:
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            c.execute(
                f"INSERT INTO {FAILURES} (game_id, version, error) VALUES (?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
                _failure_values(failure),
            )
            self._insert_tracking(c, tracking)

    def select_failures(self) -> list[ProjectionFailure]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT game_id, version, error FROM {FAILURES} ORDER BY game_id")
            return [ProjectionFailure(r["game_id"], r["version"], r["error"]) for r in c.fetchall()]

    def record_changes(self, changes: Sequence[SummaryChange], tracking: Tracking) -> None:
        with self._writer_lock, self.datastore.transaction(commit=True) as c:
            for inserting, rows in runs(changes):
                c.executemany(_SQLITE_INSERT if inserting else _SQLITE_UPDATE, rows)
            self._insert_tracking(c, tracking)

    def select_games(
        self, *, event: Any = None, round: Any = None, table: Any = None, status: Any = None
    ) -> list[GameSummary]:
        filters = _filters(event, round, table, status)
        where = " AND ".join(f"{column} = ?" for column, _ in filters)
        statement = f"SELECT {COLUMNS} FROM {TABLE} {'WHERE ' + where if where else ''}"
        statement += " ORDER BY updated_at DESC, game_id"
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, [value for _, value in filters])
            return [_summary(row) for row in c.fetchall()]


ASYNC_COMMIT = SQL("SET LOCAL synchronous_commit TO OFF")
"""The view's transactions don't wait for their WAL to reach the disk (PostgreSQL's
asynchronous commit). Safe for a read model: a crash can lose only its last few transactions,
each with its own tracking record, so the runner resumes after the last one that survived and
redoes the rest; nothing is ever half-applied. With batching (``BatchingProjectionRunner``) it
took catch-up from about 950 to about 5,000 records/s (docs/performance.md)."""


class PostgresGameSummaryView(PostgresTrackingRecorder, GameSummaryView):
    """The view in the ledger's PostgreSQL schema."""

    datastore: PostgresDatastore

    def close(self) -> None:
        self.datastore.close()

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._table = Identifier(self.datastore.schema, TABLE)
        # Composed once: composing a statement per execution was a visible share of the CPU.
        self._insert_row = SQL(INSERT_ROW.format(table="{0}", marks=", ".join(["%s"] * 11))).format(self._table)
        self._update_row = SQL(UPDATE_ROW.format(table="{0}", m="%s")).format(self._table)
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} ("
                "game_id text PRIMARY KEY, variant text NOT NULL, status text NOT NULL, winners text NOT NULL, "
                "tournament text, tournament_event text, tournament_round text, tournament_table text, "
                "version bigint NOT NULL, created_at text NOT NULL, updated_at text NOT NULL)"
            ).format(self._table)
        )
        self.sql_create_statements.append(
            SQL("CREATE INDEX IF NOT EXISTS {0} ON {1} (tournament_event, tournament_round, tournament_table)").format(
                Identifier(f"{TABLE}_tournament_idx"), self._table
            )
        )
        self._failures = Identifier(self.datastore.schema, FAILURES)
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} ("
                "game_id text PRIMARY KEY, version bigint NOT NULL, error text NOT NULL)"
            ).format(self._failures)
        )

    def record_failure(self, failure: ProjectionFailure, tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(
                SQL(
                    "INSERT INTO {0} (game_id, version, error) VALUES (%s, %s, %s) ON CONFLICT (game_id) DO NOTHING"
                ).format(self._failures),
                _failure_values(failure),
            )
            self._insert_tracking(curs, tracking)

    def select_failures(self) -> list[ProjectionFailure]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT game_id, version, error FROM {0} ORDER BY game_id").format(self._failures))
            return [ProjectionFailure(r["game_id"], r["version"], r["error"]) for r in curs.fetchall()]

    def insert_tracking(self, tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(ASYNC_COMMIT)
            self._insert_tracking(curs, tracking)

    def record_changes(self, changes: Sequence[SummaryChange], tracking: Tracking) -> None:
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(ASYNC_COMMIT)
            for inserting, rows in runs(changes):
                curs.executemany(self._insert_row if inserting else self._update_row, rows)
            self._insert_tracking(curs, tracking)

    def select_games(
        self, *, event: Any = None, round: Any = None, table: Any = None, status: Any = None
    ) -> list[GameSummary]:
        filters = _filters(event, round, table, status)
        statement: Composed = SQL("SELECT {0} FROM {1}").format(SQL(COLUMNS), self._table)
        if filters:
            statement += SQL(" WHERE ") + SQL(" AND ").join(
                SQL("{0} = %s").format(Identifier(column)) for column, _ in filters
            )
        statement += SQL(" ORDER BY updated_at DESC, game_id")
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(statement, [value for _, value in filters])
            return [_summary(row) for row in curs.fetchall()]


def view_class_for(store: str) -> type[GameSummaryView]:
    return SQLiteGameSummaryView if store == "sqlite" else PostgresGameSummaryView
