"""Issue 40, finding 7: a worker (re)started while the database is out of reach waits for it,
and ``serve`` never exits 0 on a failure.

Before: a worker started during an outage failed "Application startup failed" (no connection
after the pool's timeout); uvicorn's supervisor then stopped every worker, and ``serve`` exited
with status 0, so a supervisor restarting on failure left the server down.

- A real ``mtg-ledger serve --workers 2`` on PostgreSQL reaches its database through a TCP
  proxy on loopback. The proxy is cut (every connection dropped, the port closed: an outage
  with no primary), one worker is SIGKILLed, and uvicorn starts another: it waits for the store.
  The proxy is opened again: the new worker starts, and the server has served on throughout
  (``serve`` alive, ``/v1/health`` 200 again).
- ``run_workers`` (what ``serve`` runs) of an app whose start-up fails returns non-zero with one
  worker and with two; ``serve`` exits with it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bench.harness import BIN, ROOT, ScratchStore, Server, free_port, request_sync, scratch_store
from tests.conftest import require_postgres
from tests.reliability.support import worker_pids


class TcpProxy:
    """Forwards ``127.0.0.1:port`` to ``target``; ``cut`` closes the port and every connection
    through it (the database is gone), ``open`` listens again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()

    def open(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for s in sockets:
            with suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


def _through(url: str, port: int) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{port}"
    joined = f"{netloc[0]}@{host}" if len(netloc) == 2 else host
    query = f"{parts.query}&connect_timeout=1" if parts.query else "connect_timeout=1"
    return urlunsplit((parts.scheme, joined, parts.path, query, parts.fragment))


def _wait(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _healthy(server: Server) -> bool:
    with suppress(OSError):
        return request_sync("127.0.0.1", server.port, "GET", "/v1/health", timeout=3.0)[0] == 200
    return False


@pytest.fixture
def postgres_store() -> Iterator[ScratchStore]:
    with scratch_store("postgresql", require_postgres(), prefix="mtgl_outage") as created:
        yield created


@pytest.mark.postgres
def test_a_worker_restarted_during_an_outage_waits_and_the_server_goes_on(postgres_store: ScratchStore) -> None:
    real = urlsplit(postgres_store.url)
    proxy = TcpProxy((real.hostname or "127.0.0.1", real.port or 5432))
    proxy.open()
    store = ScratchStore("postgresql", _through(postgres_store.url, proxy.port), postgres_store.directory)
    with Server.ledger(store, workers=2) as server:
        assert server.process is not None
        _wait(lambda: len(worker_pids(server)) == 2, "two workers")
        victim = worker_pids(server)[0]
        proxy.cut()  # the outage: no database at all
        os.kill(victim, signal.SIGKILL)
        process = server.process
        _wait(
            lambda: process.poll() is not None or "this worker waits for it" in server.log(),
            "the new worker to wait for the store",
        )
        assert process.poll() is None, f"serve stopped with status {process.returncode}:\n{server.log()}"
        replacement = [pid for pid in worker_pids(server) if pid != victim]
        assert len(replacement) == 2, (replacement, server.log())
        proxy.open()  # the database is back
        _wait(lambda: "store reachable after" in server.log(), "the new worker to start")
        _wait(lambda: _healthy(server), "the server to answer")
        assert server.process.poll() is None, server.log()
        assert sorted(worker_pids(server)) == sorted(replacement)
    proxy.cut()


FAILING_APP = """
from contextlib import asynccontextmanager
from fastapi import FastAPI

@asynccontextmanager
async def lifespan(app):
    raise RuntimeError("this app never starts")
    yield

def create():
    return FastAPI(lifespan=lifespan)
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_exits_non_zero_when_a_worker_fails_to_start(tmp_path: Path, workers: int) -> None:
    (tmp_path / "failing_app.py").write_text(FAILING_APP)
    driver = (
        "import sys; from api.cli_serve import run_workers; "
        f"sys.exit(run_workers('failing_app:create', '127.0.0.1', {free_port()}, {workers}))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", driver], env=env, cwd=tmp_path, capture_output=True, timeout=60)
    assert done.returncode != 0, done.stderr.decode()[-2000:]


def test_serve_returns_the_workers_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import api.cli_serve
    from api.cli import main

    monkeypatch.setattr(api.cli_serve, "run_workers", lambda app, host, port, workers: 3)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    monkeypatch.setenv("MTG_LEDGER_ADMIN_TOKEN", "adm")
    monkeypatch.setenv("MTG_LEDGER_CREATE_TABLES", "1")
    monkeypatch.setenv("MTG_LEDGER_WORKERS", "1")
    assert main(["serve", "--port", str(free_port())]) == 3
    assert BIN.exists()
