"""One read-model runner per deployment: one process elected, the others standing by and taking
over when it goes (both stores, real locks, a real second process)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from store.read_model_group import READ_MODELS_RUNNER
from store.runner_election import ElectedRunner, election_for
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad

ROOT = Path(__file__).resolve().parents[2]
FAST = 0.1


def eventually(check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the timeout"
        time.sleep(0.02)


def test_one_of_two_services_runs_the_game_list_and_the_other_takes_over(store: Store) -> None:
    first = store.service(standby_interval=FAST)
    second = store.service(standby_interval=FAST)
    assert first.game_list.election is not None and second.game_list.election is not None
    assert first.game_list.election.leading
    time.sleep(3 * FAST)
    assert not second.game_list.election.leading  # stood by
    second.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    second.wait_for_read_model()  # projected by the first process's runner
    assert [g.game_id for g in second.list_games()] == ["g1"]
    first.close()
    eventually(lambda: second.game_list.election is not None and second.game_list.election.leading)
    second.act("g1", add_rad(), JUDGE)
    second.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g2")
    second.wait_for_read_model()
    assert sorted(g.game_id for g in second.list_games()) == ["g1", "g2"]


def test_a_follower_of_another_name_is_elected_on_its_own(store: Store) -> None:
    service = store.service(standby_interval=FAST)
    started: list[str] = []
    other = ElectedRunner(
        service.library_env, "webhook-outbox", start=lambda: started.append("up"), stop=lambda: started.append("down")
    )
    try:
        assert other.leading and started == ["up"]
        assert service.game_list.election is not None and service.game_list.election.leading
    finally:
        other.close()
    assert started == ["up", "down"]


def test_a_runner_that_cannot_start_frees_the_election(store: Store) -> None:
    service = store.service(read_models=False)
    tries: list[int] = []

    def start() -> None:
        tries.append(1)
        if len(tries) == 1:
            raise RuntimeError("not today")

    runner = ElectedRunner(service.library_env, "flaky", start=start, stop=lambda: None, interval=FAST)
    try:
        eventually(lambda: runner.leading)
        assert len(tries) == 2
    finally:
        runner.close()


@pytest.mark.postgres
def test_postgres_a_lost_session_stops_the_runner(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("PostgreSQL's advisory lock only")
    service = store.service(read_models=False)
    events: list[str] = []
    runner = ElectedRunner(
        service.library_env,
        "lost",
        start=lambda: events.append("up"),
        stop=lambda: events.append("down"),
        interval=FAST,
    )
    try:
        assert runner.leading
        election = election_for(service.library_env, "lost")
        key = election.key  # type: ignore[attr-defined]
        # The server ends the holder's session (an operator, a network cut): the lock is free.
        store.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = "
            "(?::bigint & 4294967295)::oid",
            key,
        )
        eventually(lambda: events[:2] == ["up", "down"])
        eventually(lambda: runner.leading and events[-1] == "up")  # elected again on a new session
    finally:
        runner.close()


def test_a_killed_runner_process_is_replaced(store: Store, tmp_path: Path) -> None:
    """A process that runs the game list is killed (SIGKILL): its lock dies with it and this
    process's stand-by takes over, so the list keeps following the log."""
    service = store.service(standby_interval=FAST)
    assert service.game_list.election is not None
    service.close()  # free the election for the child
    ready = tmp_path / "ready"
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import pathlib, time
                from ledger.service import LedgerService, LedgerSettings
                s = LedgerService({store.url!r}, LedgerSettings(create_tables=False))
                assert s.game_list.election.leading
                pathlib.Path({str(ready)!r}).write_text("up")
                time.sleep(120)
                """
            ),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        eventually(ready.exists, timeout=60)
        standby = store.service(standby_interval=FAST)
        assert standby.game_list.election is not None
        time.sleep(3 * FAST)
        assert not standby.game_list.election.leading
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        eventually(lambda: standby.game_list.election is not None and standby.game_list.election.leading)
        standby.create_game(dict(TWO_PLAYER), SCOREKEEPER, "after-kill")
        standby.wait_for_read_model()
        assert [g.game_id for g in standby.list_games()] == ["after-kill"]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_matches_and_the_webhook_outbox_are_kept_by_one_service_and_taken_over(store: Store) -> None:
    """The document read models (matches, the outbox) are followers like the game list, and are
    elected with it: one process keeps all the read models of a log (``read-models``), the other
    stands by."""
    first = store.service(standby_interval=FAST)
    second = store.service(standby_interval=FAST)
    for follower in ("matches", "webhooks"):
        mine, theirs = getattr(first, follower).election, getattr(second, follower).election
        assert mine is not None and theirs is not None
        assert mine is first.game_list.election and mine.name == READ_MODELS_RUNNER
        assert mine.leading
        time.sleep(3 * FAST)
        assert not theirs.leading
    second.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    second.matches.wait()  # projected by the first process's runner
    tables = second.matches.round("GP-Test", "3")["tables"]
    assert [[g["game_id"] for g in t["games"]] for t in tables] == [["g1"]]
    first.close()
    eventually(lambda: second.matches.election is not None and second.matches.election.leading)
    eventually(lambda: second.webhooks.election is not None and second.webhooks.election.leading)
    second.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g2")
    second.matches.wait()
    tables = second.matches.round("GP-Test", "3")["tables"]
    assert [[g["game_id"] for g in t["games"]] for t in tables] == [["g1", "g2"]]
