"""Optimistic concurrency on the game's version, with real connections and real processes."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain.errors import Conflict
from ledger.service import LedgerService, LedgerSettings
from store.results import ActionResult
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad

# The module, not the function ``domain`` exports under the same name.
decide = importlib.import_module("domain.decide")

ROOT = Path(__file__).resolve().parents[2]


def decide_together(monkeypatch: pytest.MonkeyPatch, writers: int) -> None:
    """Make the first decision of every writer finish before any of them saves: all decide at
    one version. Decisions after those (a re-decision on a fresh head) run freely."""
    barrier = threading.Barrier(writers, timeout=20)
    real_run = decide.run
    first = iter(range(writers))
    lock = threading.Lock()

    def run(state: Any, command: Any) -> Any:
        result = real_run(state, command)
        with lock:
            held = next(first, None) is not None
        if held:
            barrier.wait()
        return result

    monkeypatch.setattr(decide, "run", run)


def race(calls: list[Callable[[], ActionResult]]) -> list[ActionResult | Conflict]:
    outcomes: list[ActionResult | Conflict | None] = [None] * len(calls)

    def attempt(i: int) -> None:
        try:
            outcomes[i] = calls[i]()
        except Conflict as conflict:
            outcomes[i] = conflict

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(o is not None for o in outcomes), outcomes
    return [o for o in outcomes if o is not None]


def test_two_writers_at_one_version_under_if_match_exactly_one_wins(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = store.service()
    b = store.service(create_tables=False)
    a.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    a.act("g1", add_rad(), JUDGE)  # v2; both services have it cached
    assert b.head_version("g1") == 2
    decide_together(monkeypatch, 2)
    outcomes = race(
        [lambda: a.act("g1", add_rad(amount=2), JUDGE, 2), lambda: b.act("g1", add_rad(amount=5), JUDGE, 2)]
    )
    won = [o for o in outcomes if isinstance(o, ActionResult)]
    lost = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert lost[0].code == "version_conflict"
    winner = won[0]
    assert winner.version == 3
    amount = winner.events[0].data["amount"]
    monkeypatch.undo()
    for service in (a, b):
        events = service.events("g1")
        assert [e.version for e in events] == [1, 2, 3], "nothing lost, nothing duplicated"
        assert events[-1].action_id == winner.action_id
        assert service.state_at("g1")[1].players["P2"].counters == {"rad": 1 + amount}
        assert service.verify("g1").ok
    # The loser decides again against the new state and goes through.
    assert b.act("g1", add_rad(), JUDGE, 3).version == 4


def test_two_writers_at_one_version_the_second_decides_again_on_the_new_head(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without If-Match, the writer whose save finds the version taken loads the game afresh
    and decides once more: both actions are stored, each decided on the state it follows."""
    a = store.service()
    b = store.service(create_tables=False)
    a.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    a.act("g1", add_rad(), JUDGE)
    assert b.head_version("g1") == 2
    decide_together(monkeypatch, 2)
    outcomes = race([lambda: a.act("g1", add_rad(amount=2), JUDGE), lambda: b.act("g1", add_rad(amount=5), JUDGE)])
    assert all(isinstance(o, ActionResult) for o in outcomes), outcomes
    assert sorted(o.version for o in outcomes if isinstance(o, ActionResult)) == [3, 4]
    monkeypatch.undo()
    for service in (a, b):
        assert [e.version for e in service.events("g1")] == [1, 2, 3, 4]
        assert service.state_at("g1")[1].players["P2"].counters == {"rad": 1 + 2 + 5}
        assert service.verify("g1").ok


def test_a_racing_idempotency_key_stores_one_action(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    a = store.service()
    b = store.service(create_tables=False)
    a.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    b.head_version("g1")
    decide_together(monkeypatch, 2)
    outcomes = race(
        [
            lambda: a.act("g1", add_rad(), JUDGE, idempotency_key="retry-1", request_fingerprint="same"),
            lambda: b.act("g1", add_rad(), JUDGE, idempotency_key="retry-1", request_fingerprint="same"),
        ]
    )
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(conflicts) == 1 and conflicts[0].code == "idempotency_in_progress"
    assert a.head_version("g1") == 2 and len(a.events("g1")) == 2


WORKER = textwrap.dedent(
    """
    import sys
    from domain.errors import Conflict
    from ledger.service import LedgerService, LedgerSettings, Actor

    url, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    conflicts = 0
    with LedgerService(url, LedgerSettings(create_tables=False, snapshot_interval=5)) as service:
        done = 0
        while done < count:
            try:
                service.act("g1", {"type": "note", "text": f"{name} {done}"}, Actor(name, "judge"))
                done += 1
            except Conflict:
                conflicts += 1
        service.wait_for_read_model(timeout=60)  # raises if this worker's projection failed
    print(conflicts)
    """
)


def test_several_processes_append_to_one_game(store: Store) -> None:
    """Worker processes on one database (SQLite file in WAL mode / PostgreSQL): every note is
    stored once, versions stay gapless, the chain verifies."""
    service = store.service(read_models=False)  # read through the log: the workers hold ~10 connections each
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    workers, each = 3, 15
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, store.url, f"w{i}", str(each)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(workers)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    for proc, (_out, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err
    notes = [e.data["text"] for e in service.events("g1", limit=1000) if e.type == "NoteAdded"]
    assert sorted(notes) == sorted(f"w{i} {n}" for i in range(workers) for n in range(each))
    assert service.head_version("g1") == 1 + workers * each
    assert service.verify("g1").ok
    fresh = LedgerService(store.url, LedgerSettings(create_tables=False, read_models=False))
    try:
        assert fresh.state_at("g1") == service.state_at("g1")
    finally:
        fresh.close()
