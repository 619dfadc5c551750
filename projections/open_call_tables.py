"""The open judge calls' tables (``projections.open_calls``): the documents of ``store.documents``
(one per game: its players' names and its tournament place) plus a table of the calls still
open, one row each, found by the event they belong to.

Why a table of its own, not documents: a call leaves the table when it is answered (a row is
deleted), so reading the open calls of a floor reads those rows alone, by an index on the event,
however many calls the server has answered before; documents can't be deleted, and reading
them all to find the few open ones would grow with every call ever made.

``put_docs`` writes a call's row as a document is written (``_write_doc``, as the webhook
outbox keeps its deliveries: ``store.outbox``): a document under ``call/...`` whose ``open`` is
true inserts the row, one whose ``open`` is false deletes it, in the same transaction as the
tracking record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from store.documents import Doc, DocumentView, PostgresDocumentView, SQLiteDocumentView

CALL_PREFIX = "call/"
"""Keys of calls (``call/<game>/<call>``): kept in the calls table, not as documents."""
CALLS = "open_judge_calls"
"""The table of open calls."""
GAMES = "judge_call_games"
"""The documents: one per game (``game/<game id>``), what a call's row takes from its game."""


@dataclass(frozen=True, slots=True)
class OpenCall:
    """A judge call not answered yet, as the judges' page lists it."""

    game_id: str
    call: str
    """The call's id in its game (``call-1``, ...)."""
    called_by: str
    """Who called: a player id, or the caller's name (``JudgeCallOpened.called_by``)."""
    caller: str
    """The caller's name (a player's name from the game's players, else ``called_by``)."""
    question: str
    opened_at: str
    """When the call was stored (RFC 3339, UTC)."""
    position: int
    """The call's place in its database's log (orders calls opened at the same instant)."""
    event: str | None = None
    round: Any = None
    table: int | None = None
    report: str | None = None
    """The disputed report, for a call a dispute opened."""
    players: tuple[str, ...] = ()
    """The game's players' names, in seating order."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "call": self.call,
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "called_by": self.called_by,
            "caller": self.caller,
            "question": self.question,
            "report": self.report,
            "players": list(self.players),
            "opened_at": self.opened_at,
        }


COLUMNS = "game_id, call, event, place, table_number, called_by, caller, question, report, players, opened_at, position"
_CREATE = (
    "CREATE TABLE IF NOT EXISTS {t} (game_id TEXT NOT NULL, call TEXT NOT NULL, event TEXT, place TEXT, "
    "table_number BIGINT, called_by TEXT NOT NULL, caller TEXT NOT NULL, question TEXT NOT NULL, report TEXT, "
    "players TEXT NOT NULL, opened_at TEXT NOT NULL, position BIGINT NOT NULL, PRIMARY KEY (game_id, call))"
)
_INDEX = "CREATE INDEX IF NOT EXISTS {i} ON {t} (event, opened_at)"
# DO NOTHING: a call's id is never reused in its game, and a record folded again (another runner
# after a failover) must not bring back a row its answer deleted since.
_INSERT = "INSERT INTO {t} (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
_DELETE = "DELETE FROM {t} WHERE game_id = ? AND call = ?"
_SELECT = "SELECT " + COLUMNS + " FROM {t}"
_COUNT = "SELECT COUNT(*) AS n FROM {t}"
_NEWEST_FIRST = " ORDER BY opened_at DESC, position DESC LIMIT ?"


def _row(doc: Doc) -> tuple[Any, ...]:
    place = doc.get("place")
    return (
        doc["game_id"],
        doc["call"],
        doc.get("event"),
        None if place is None else json.dumps(place, sort_keys=True),
        doc.get("table"),
        doc["called_by"],
        doc["caller"],
        doc["question"],
        doc.get("report"),
        json.dumps(list(doc.get("players") or ())),
        doc["opened_at"],
        doc["position"],
    )


def _call(row: Mapping[str, Any]) -> OpenCall:
    place = json.loads(row["place"]) if row["place"] else {}
    return OpenCall(
        game_id=row["game_id"],
        call=row["call"],
        called_by=row["called_by"],
        caller=row["caller"],
        question=row["question"],
        opened_at=row["opened_at"],
        position=row["position"],
        event=row["event"],
        round=place.get("round"),
        table=row["table_number"],
        report=row["report"],
        players=tuple(json.loads(row["players"])),
    )


def _where(event: str | None) -> tuple[str, list[Any]]:
    return (" WHERE event = ?", [event]) if event is not None else ("", [])


class OpenCallView(DocumentView):
    """What the judges' page asks of the view (both stores)."""

    def open_calls(self, event: str | None, limit: int) -> tuple[list[OpenCall], int]:
        """The open calls (of ``event``'s games, if given), newest first, at most ``limit``;
        and how many there are in all."""
        raise NotImplementedError


class SQLiteOpenCallView(SQLiteDocumentView, OpenCallView):
    def construct_create_table_statements(self) -> list[str]:
        names = {"t": CALLS, "i": f"{CALLS}_event"}
        return [*super().construct_create_table_statements(), _CREATE.format(**names), _INDEX.format(**names)]

    def _write_doc(self, c: Any, key: str, doc: Doc) -> None:
        if not key.startswith(CALL_PREFIX):
            super()._write_doc(c, key, doc)
        elif doc.get("open"):
            c.execute(_INSERT.format(t=CALLS), _row(doc))
        else:
            c.execute(_DELETE.format(t=CALLS), (doc["game_id"], doc["call"]))

    def open_calls(self, event: str | None, limit: int) -> tuple[list[OpenCall], int]:
        where, values = _where(event)
        with self.datastore.transaction(commit=False) as c:
            c.execute(_SELECT.format(t=CALLS) + where + _NEWEST_FIRST, [*values, limit])
            calls = [_call(row) for row in c.fetchall()]
            c.execute(_COUNT.format(t=CALLS) + where, values)
            total = int(c.fetchone()["n"])
        return calls, total


class PostgresOpenCallView(PostgresDocumentView, OpenCallView):
    datastore: PostgresDatastore

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self._calls = Identifier(self.datastore.schema, CALLS)
        self.sql_create_statements.append(self._sql(_CREATE))
        self.sql_create_statements.append(self._sql(_INDEX))

    def _sql(self, template: str) -> Composed:
        return SQL(template.replace("?", "%s")).format(t=self._calls, i=Identifier(f"{CALLS}_event"))

    def _write_doc(self, curs: Any, key: str, doc: Doc) -> None:
        if not key.startswith(CALL_PREFIX):
            super()._write_doc(curs, key, doc)
        elif doc.get("open"):
            curs.execute(self._sql(_INSERT), _row(doc))
        else:
            curs.execute(self._sql(_DELETE), (doc["game_id"], doc["call"]))

    def open_calls(self, event: str | None, limit: int) -> tuple[list[OpenCall], int]:
        where, values = _where(event)
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self._sql(_SELECT + where + _NEWEST_FIRST), [*values, limit])
            calls = [_call(row) for row in curs.fetchall()]
            curs.execute(self._sql(_COUNT + where), values)
            row = curs.fetchone()
            total = int(row["n"]) if row is not None else 0
        return calls, total


VIEWS: dict[str, type[DocumentView]] = {
    "sqlite": type(f"SQLiteOpenCalls_{GAMES}", (SQLiteOpenCallView,), {"TABLE": GAMES}),
    "postgresql": type(f"PostgresOpenCalls_{GAMES}", (PostgresOpenCallView,), {"TABLE": GAMES}),
}
"""A view class per store: the game documents in ``GAMES``, the open calls in ``CALLS``."""
