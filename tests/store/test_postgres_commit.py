"""A PostgreSQL save is one statement: a function the recorder creates with its tables takes the
events table's lock, notifies and inserts, in one implicit transaction that commits before the
server answers. So no other writer waits for this process to read the answer, and the lock still
makes notification ids follow the commit order (``store.postgres_recorder``;
docs/performance.md, issue 15, fourth and fifth passes). Where the function is missing (tables
made by an older version), saves take the pipelined path, with the same guarantees."""

from __future__ import annotations

import logging
import threading
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError

from ledger.service import LedgerService
from store.postgres_recorder import SAVE_FUNCTION, LargeBatchPostgresApplicationRecorder
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad

PATHS = ["function", "pipeline"]
READS_THE_ANSWER = {"function": "_notification_ids", "pipeline": "_fetch_ids_after_insert_events"}
"""Where each path reads the server's answer (the test slows that down)."""


def _postgres(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("the events table's lock is PostgreSQL's (SQLite has one writer per file)")


def _service(store: Store, path: str) -> LedgerService:
    service = store.service(read_models=False)
    service.app.recorder.save_function_ready = path == "function"
    return service


@pytest.mark.parametrize("path", PATHS)
def test_the_table_lock_is_free_while_the_saving_thread_reads_the_answer(
    store: Store, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    _postgres(store)
    service = _service(store, path)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    answering, go_on = threading.Event(), threading.Event()
    hook = READS_THE_ANSWER[path]
    real = getattr(LargeBatchPostgresApplicationRecorder, hook)

    def slow(*args: Any, **kwargs: Any) -> Any:
        # The saving thread is slow to read the answer (a busy process: it waits for the GIL).
        answering.set()
        go_on.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(LargeBatchPostgresApplicationRecorder, hook, staticmethod(slow) if path == "function" else slow)
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


@pytest.mark.parametrize("path", PATHS)
def test_a_save_waits_for_the_table_lock_another_writer_holds(store: Store, path: str) -> None:
    # The lock is what makes the notification ids follow the commit order, so a read model
    # tailing the log never passes over an id that commits later. The other writer holds what
    # a plain INSERT takes (ROW EXCLUSIVE): a save that only inserted would not wait for it.
    _postgres(store)
    service = _service(store, path)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    with psycopg.connect(store.base_url, autocommit=True, connect_timeout=5) as other:
        with other.transaction():
            other.execute(f"LOCK TABLE {store.table('events')} IN ROW EXCLUSIVE MODE")
            acting = threading.Thread(target=service.act, args=("g1", add_rad(), JUDGE))
            acting.start()
            acting.join(0.5)
            assert acting.is_alive(), "the save did not wait for the table lock"
            assert service.app.recorder.select_events("g1", gt=1) == []
        acting.join(10)
    assert not acting.is_alive()
    assert service.head_version("g1") == 2


@pytest.mark.parametrize("path", PATHS)
def test_a_taken_version_is_refused_and_leaves_the_connections_usable(store: Store, path: str) -> None:
    _postgres(store)
    service = _service(store, path)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    recorder = service.app.recorder
    [stored] = recorder.select_events("g1", limit=1)
    with pytest.raises(IntegrityError):  # what the group committer splits a batch on
        recorder.insert_events([stored])  # version 1 again
    assert recorder.select_events("g1") == [stored]  # nothing of it stored, nothing notified
    for _ in range(3):  # every pooled connection is idle again, not in a failed transaction
        service.act("g1", add_rad(), JUDGE)
    assert service.head_version("g1") == 4
    assert recorder.save_function_ready is (path == "function")


def test_the_save_returns_the_notification_ids_in_the_order_of_the_events(store: Store) -> None:
    _postgres(store)
    service = store.service(read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    service.act("g1", add_rad(), JUDGE)
    recorder = service.app.recorder
    events = recorder.select_events("g1")
    moved = [type(e)(f"copy-{i}", e.originator_version, e.topic, e.state) for i, e in enumerate(events)]
    ids = recorder.insert_events(moved)
    stored = {n.originator_id: n.id for n in recorder.select_notifications(start=ids[0], limit=len(ids))}
    assert ids == [stored[e.originator_id] for e in moved]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_tables_made_without_the_function_are_saved_to_as_before(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    _postgres(store)
    service = store.service(read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    function = service.app.recorder.save_function
    assert function == SAVE_FUNCTION.format("ledger_events")
    store.execute(f'DROP FUNCTION "{store.schema}"."{function}"')
    with caplog.at_level(logging.WARNING, logger="mtg_ledger.store"):
        service.act("g1", add_rad(), JUDGE)
        service.act("g1", add_rad(), JUDGE)
    assert service.head_version("g1") == 3
    assert service.app.recorder.save_function_ready is False
    assert [r.message for r in caplog.records].count(
        f"{function} is missing (tables made by an older version): saving without it"
    ) == 1
