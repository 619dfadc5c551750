"""What the read models skip when nothing is new for them: a batch that changes nothing of a
read model writes no transaction (its position is written within ``QUIET_FLUSH`` seconds, and
when the runner stops), and the SQLite subscription pulls nothing while nothing is committed
(``store.batching_runner``, ``store.read_model_group``, ``store.sqlite_polling``)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from store import read_model_group
from store.documents import SQLiteDocumentView
from store.sqlite_polling import CommitWatch, LogReader
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def _matches_position(store: Store) -> int:
    rows = store.execute("SELECT max(notification_id) FROM tracking WHERE application_name = 'Ledger#match_docs'")
    return int(rows[0][0] or 0)


def test_records_that_change_nothing_of_a_read_model_write_no_transaction(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 30.0)  # no flush by the clock here
    writes: list[int] = []
    real = SQLiteDocumentView.put_docs

    def counted(self: Any, docs: Any, tracking: Any, **kwargs: Any) -> None:
        if type(self).__name__.endswith("match_docs"):
            writes.append(len(docs))
        real(self, docs, tracking, **kwargs)

    monkeypatch.setattr(SQLiteDocumentView, "put_docs", counted)
    service = sqlite_store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")  # at a table: the match's documents
    service.wait_for_read_model()
    assert writes == [2], "the game's creation wrote the match's documents"
    writes.clear()
    for _ in range(4):  # a rad counter is none of the match's business
        service.act("g1", add_rad(), JUDGE)
        service.wait_for_read_model()  # the runner's own position answers: nothing written
    assert writes == [], "a batch that changed no match document was written"
    head = service.app.recorder.max_notification_id()
    assert head is not None and _matches_position(sqlite_store) < head
    service.close()  # the runner writes the positions it holds as it stops
    assert writes == [0] and _matches_position(sqlite_store) == head


def test_a_quiet_position_is_written_within_the_flush_interval(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 0.2)
    service = sqlite_store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    service.act("g1", add_rad(), JUDGE)
    head = service.app.recorder.max_notification_id()
    assert head is not None
    deadline = time.monotonic() + 10
    while _matches_position(sqlite_store) < head:
        assert time.monotonic() < deadline, "the quiet position was never written"
        time.sleep(0.05)
    # And a restart after it folds nothing twice: the match list is still empty and right.
    service.close()
    again = sqlite_store.service()
    again.wait_for_read_model()
    assert [g.game_id for g in again.list_games()] == ["g1"]


def test_the_sqlite_subscription_pulls_only_for_a_newer_record(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    pulls: list[float] = []
    real = LogReader.select_notifications  # the subscription's reads (a connection of its own)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        pulls.append(time.monotonic())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(LogReader, "select_notifications", counted)
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 0.1)
    service = sqlite_store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    service.wait_for_read_model()
    time.sleep(0.5)  # the quiet positions written
    before = len(pulls)
    time.sleep(1.0)  # ten ticks of the poll
    assert len(pulls) == before, f"{len(pulls) - before} pulls in a second with nothing committed"
    # A commit that stores no record (a read model's own write) pulls nothing either.
    sqlite_store.execute("INSERT INTO tracking (application_name, notification_id) VALUES ('other', 1)")
    time.sleep(0.5)
    assert len(pulls) == before, "a commit of no record woke the subscription"
    # A record appended by another process (here another service on the file) is pulled.
    other = sqlite_store.service(read_models=False)
    other.act("g1", add_rad(), JUDGE)
    deadline = time.monotonic() + 5
    while len(pulls) == before:
        assert time.monotonic() < deadline, "another process's record did not wake the subscription"
        time.sleep(0.02)
    service.wait_for_read_model()
    service.act("g1", add_rad(), JUDGE)
    service.wait_for_read_model()  # and the ledger's own appends are pulled too


def test_under_steady_batches_a_quiet_position_is_written_at_least_every_flush_most(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 0.5)
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH_MOST", 0.8)
    service = sqlite_store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    service.wait_for_read_model()
    time.sleep(0.7)  # the creation's batch flushed
    start = _matches_position(sqlite_store)
    began = time.monotonic()
    while time.monotonic() - began < 2.5:  # a batch every 0.2 s: never a pause of 0.5 s
        service.act("g1", add_rad(), JUDGE)
        time.sleep(0.2)
        if _matches_position(sqlite_store) > start:
            return
    pytest.fail("no quiet position written in 2.5 s of steady batches")


def test_the_commit_watch_answers_yes_once_per_commit(sqlite_store: Store) -> None:
    sqlite_store.execute("CREATE TABLE t (x INTEGER)")
    watch = CommitWatch(str(sqlite_store.directory / "ledger.sqlite3"))
    try:
        assert watch.committed()  # the first look: nothing known yet
        assert not watch.committed()
        sqlite_store.execute("INSERT INTO t VALUES (1)")
        assert watch.committed()
        assert not watch.committed()
    finally:
        watch.close()
    memory = CommitWatch(None)
    assert memory.committed() and memory.committed()  # in memory: it cannot tell, so it pulls


def test_the_subscriptions_reader_reads_what_the_recorder_reads(sqlite_store: Store) -> None:
    service = sqlite_store.service(read_models=False)
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    for _ in range(3):
        service.act("g1", add_rad(), JUDGE)
    recorder: Any = service.app.recorder
    reader = LogReader(recorder)
    try:
        for start, limit, inclusive in [(0, 500, False), (2, 2, False), (2, 2, True), (4, 500, True), (99, 5, False)]:
            mine = reader.select_notifications(start, limit, inclusive_of_start=inclusive)
            theirs = recorder.select_notifications(start, limit, inclusive_of_start=inclusive)
            assert mine == theirs and [n.id for n in mine] == [n.id for n in theirs]
        assert len(reader.select_notifications(0, 500, inclusive_of_start=False)) == 4
        # Topics and a stop are the recorder's to answer.
        assert reader.select_notifications(0, 500, stop=2) == recorder.select_notifications(0, 500, stop=2)
    finally:
        reader.close()
