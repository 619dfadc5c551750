"""A read model's tables are created on SQLite even when another connection commits between the
first statement of the creation (a read of the shared ``tracking`` table) and the first that
writes: SQLite refuses that upgrade at once, without its busy timeout ("database is locked",
seen in CI while a server's read models started beside its first writes). ``LockedTables`` in
``store.sqlite_polling`` tries again in a new transaction."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore

from projections.game_summary_tables import SQLiteGameSummaryView
from projections.open_call_tables import GAMES, VIEWS, SQLiteOpenCallView


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_commit_between_the_read_and_the_first_write_is_met_by_trying_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ledger.sqlite3"
    first = SQLiteGameSummaryView(SQLiteDatastore(str(path)))
    first.create_table()  # the tracking table exists: the next creation's first statement only reads
    assert "tracking" in _tables(path)

    other = sqlite3.connect(path, isolation_level=None)  # another process's connection, in effect
    other.execute("CREATE TABLE elsewhere (n INTEGER)")
    commits: list[int] = []
    execute = SQLiteCursor.execute

    def commit_after_the_tracking_read(self: SQLiteCursor, *args: Any, **kwargs: Any) -> None:
        execute(self, *args, **kwargs)
        if not commits and "CREATE TABLE IF NOT EXISTS tracking" in str(args[0]):
            other.execute("INSERT INTO elsewhere VALUES (1)")  # commits at once (autocommit)
            commits.append(1)

    monkeypatch.setattr(SQLiteCursor, "execute", commit_after_the_tracking_read)
    view_class = VIEWS["sqlite"]
    assert issubclass(view_class, SQLiteOpenCallView)
    view = view_class(SQLiteDatastore(str(path)))
    view.create_table()

    assert commits == [1]  # the commit did land between the two statements
    assert GAMES in _tables(path)
    other.close()
    first.close()
    view.close()
