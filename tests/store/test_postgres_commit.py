"""A PostgreSQL save holds the events table's lock only while the server works: BEGIN, the lock,
NOTIFY, the INSERT and COMMIT go in one pipeline, so no other writer waits for this process to
read the answer (``projections.postgres_recorder``; docs/performance.md, issue 15, fourth pass)."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from projections.postgres_recorder import LargeBatchPostgresApplicationRecorder
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def _postgres(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("the events table's lock is PostgreSQL's (SQLite has one writer per file)")


def test_the_table_lock_is_free_while_the_saving_thread_reads_the_answer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    _postgres(store)
    service = store.service(project_read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    answering, go_on = threading.Event(), threading.Event()
    real = LargeBatchPostgresApplicationRecorder._fetch_ids_after_insert_events

    def slow(self: Any, *args: Any, **kwargs: Any) -> Any:
        # The saving thread is slow to read the answer (a busy process: it waits for the GIL).
        answering.set()
        go_on.wait(10)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(LargeBatchPostgresApplicationRecorder, "_fetch_ids_after_insert_events", slow)
    acting = threading.Thread(target=service.act, args=("g1", add_rad(), JUDGE))
    acting.start()
    try:
        assert answering.wait(10)
        with psycopg.connect(store.base_url, autocommit=True, connect_timeout=5) as other, other.transaction():
            # Another writer takes the lock at once: the save has committed and freed it.
            other.execute(f"LOCK TABLE {store.table('events')} IN EXCLUSIVE MODE NOWAIT")
    finally:
        go_on.set()
        acting.join(10)
    assert service.head_version("g1") == 2


def test_a_taken_version_is_refused_and_leaves_the_connections_usable(store: Store) -> None:
    _postgres(store)
    service = store.service(project_read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    recorder = service.app.recorder
    [stored] = recorder.select_events("g1", limit=1)
    with pytest.raises(IntegrityError):  # what the group committer splits a batch on
        recorder.insert_events([stored])  # version 1 again
    assert recorder.select_events("g1") == [stored]  # nothing of it stored, nothing notified
    for _ in range(3):  # every pooled connection is idle again, not in a failed transaction
        service.act("g1", add_rad(), JUDGE)
    assert service.head_version("g1") == 4
