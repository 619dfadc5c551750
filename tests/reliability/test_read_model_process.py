"""``mtg-ledger serve`` with the read models in a process of their own (``mtg-ledger project``;
docs/operations.md, The read models): on PostgreSQL, chosen by the store (issue 29 retired
``MTG_LEDGER_READ_MODEL_PROCESS``).

The process is elected before the workers start, so the workers stand by (their health says
``elsewhere``) while the game list still follows every game; killed, it is replaced by a worker
within a second or two and started again (standing by); ``serve`` stopping stops it. On SQLite
there is no such process and a worker keeps the read models, also when the retired setting
still asks for one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench.harness import ScratchStore, Server, scratch_store, server_env
from tests.conftest import require_postgres
from tests.reliability.support import Api

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="finds the processes in /proc")

GAME = {"variant": "two_player", "players": [{"id": "P1"}, {"id": "P2"}]}


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}/task").iterdir():
            children = [int(c) for c in (task / "children").read_text().split()]
            found += children
            todo += children
    return found


def projectors(server: Server) -> list[int]:
    """The ``mtg-ledger project`` processes under ``server``."""
    assert server.process is not None
    found = []
    for pid in descendants(server.process.pid):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except FileNotFoundError:
            continue
        if b"project" in argv and b"api.cli" in argv:
            found.append(pid)
    return found


def eventually(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def listed(api: Api, game_id: str) -> bool:
    return any(g["game_id"] == game_id for g in api.ok("GET", "/v1/games")["games"])


def runner(api: Api) -> str:
    return str(api.ok("GET", "/v1/health")["read_model"]["runner"])


@pytest.fixture
def postgres_store() -> Iterator[ScratchStore]:
    """A PostgreSQL schema of its own (the store that keeps the read models in a process)."""
    with scratch_store("postgresql", require_postgres(), prefix="mtgl_rel") as created:
        yield created


@pytest.fixture
def api_of() -> Iterator[Callable[[Server], Api]]:
    made: list[Api] = []

    def make(server: Server) -> Api:
        made.append(Api(server.port))
        return made[-1]

    yield make
    for api in made:
        api.close()


@pytest.mark.postgres
def test_the_read_models_run_in_their_own_process_and_a_worker_covers_when_it_dies(
    postgres_store: ScratchStore, api_of: Callable[[Server], Api]
) -> None:
    with Server.ledger(postgres_store, workers=1) as server:
        api = api_of(server)
        [first] = projectors(server)
        assert runner(api) == "elsewhere"  # the worker stands by: the process keeps them
        game = api.ok("POST", "/v1/games", GAME, status=201)["game_id"]
        eventually(lambda: listed(api, game))  # projected by the process, as nothing else runs them

        os.kill(first, signal.SIGKILL)
        eventually(lambda: runner(api) == "running")  # the worker took them over
        later = api.ok("POST", "/v1/games", GAME, status=201)["game_id"]
        eventually(lambda: listed(api, later))
        eventually(lambda: len(projectors(server)) == 1 and projectors(server) != [first])  # started again

        second = projectors(server)[0]
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)  # serve alone, not its process group
        server.process.wait(30)
        eventually(lambda: not Path(f"/proc/{second}").exists() or _zombie(second), timeout=30)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_on_sqlite_a_worker_keeps_the_read_models_whatever_the_retired_setting_says(
    api_of: Callable[[Server], Api],
) -> None:
    with (
        scratch_store("sqlite", prefix="mtgl_rel") as store,
        Server.ledger(store, workers=1, MTG_LEDGER_READ_MODEL_PROCESS="on") as server,
    ):
        api = api_of(server)
        assert projectors(server) == []
        assert runner(api) == "running"
        game = api.ok("POST", "/v1/games", GAME, status=201)["game_id"]
        eventually(lambda: listed(api, game))
        assert "MTG_LEDGER_READ_MODEL_PROCESS is retired and ignored" in server.log()


@pytest.mark.postgres
def test_project_stands_by_while_another_process_keeps_the_read_models(postgres_store: ScratchStore) -> None:
    """An operator's ``mtg-ledger project`` on another host, while serve's own keeps them."""
    with Server.ledger(postgres_store, workers=1) as server:
        env = server_env(postgres_store, MTG_LEDGER_CREATE_TABLES="0")
        other = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "project", "--wait", "1"],
            env=env,
            cwd=postgres_store.directory,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        try:
            assert other.stdout is not None
            assert other.stdout.readline().decode().strip() == "read models: another process keeps them; standing by"
        finally:
            other.terminate()
            assert other.wait(30) == 0  # SIGTERM is a clean stop
            other.stdout.close()  # type: ignore[union-attr]
        assert server.process is not None and server.process.poll() is None
