"""What the benchmarks (and the reliability tests) share: real servers, scratch stores, a client.

- ``scratch_store``: a temporary SQLite file or a fresh PostgreSQL schema (dropped afterwards).
- ``Server``: a subprocess started the way an operator starts it (``mtg-ledger serve`` on a free
  loopback port, or uvicorn with another app factory), in its own session so that it and all of
  its workers can be killed at once (``kill(signal.SIGKILL)``, a crash).
- ``HttpClient``: a small asyncio HTTP/1.1 keep-alive client. The load generator runs on the same
  2-core machine as the server, so it must cost as little CPU as possible per request (httpx
  costs several times more); it speaks just enough HTTP for these servers (Content-Length
  bodies, keep-alive).

Scripts in ``bench/`` run as ``python bench/NAME.py`` from the repository root; they put the root
on ``sys.path`` so that ``bench.harness`` imports the same way for them, for mypy and for tests.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from uuid import uuid4

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
ADMIN_TOKEN = "bench-admin-token"
POSTGRES_ENV = ("MTG_LEDGER_BENCH_POSTGRES", "MTG_LEDGER_TEST_POSTGRES")


def default_postgres() -> str | None:
    """The PostgreSQL server to benchmark on: ``MTG_LEDGER_BENCH_POSTGRES`` or, failing that,
    ``MTG_LEDGER_TEST_POSTGRES``; ``None`` (SQLite only) when neither is set."""
    for name in POSTGRES_ENV:
        if os.environ.get(name):
            return os.environ[name]
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def with_query(url: str, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"{url}{'&' if '?' in url else '?'}{query}"


@dataclass
class ScratchStore:
    """One empty database: ``url`` for the server, ``kind`` for the report."""

    kind: str
    url: str
    directory: Path
    schema: str | None = None
    base_url: str | None = None

    @property
    def label(self) -> str:
        return "SQLite" if self.kind == "sqlite" else "PostgreSQL"

    def sqlite_file(self) -> Path:
        return self.directory / "ledger.sqlite3"


def _pg(base: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
        conn.execute(statement)


@contextmanager
def scratch_store(kind: str, postgres: str | None = None, prefix: str = "bench") -> Iterator[ScratchStore]:
    """A fresh store of ``kind`` (``sqlite`` or ``postgresql``), removed on exit."""
    with tempfile.TemporaryDirectory(prefix=f"{prefix}-") as tmp:
        directory = Path(tmp)
        if kind == "sqlite":
            yield ScratchStore("sqlite", f"sqlite:///{directory / 'ledger.sqlite3'}", directory)
            return
        if not postgres:
            raise ValueError("a PostgreSQL store needs a server URL")
        schema = f"{prefix}_{os.getpid()}_{uuid4().hex[:8]}"
        _pg(postgres, f'CREATE SCHEMA "{schema}"')
        try:
            yield ScratchStore("postgresql", with_query(postgres, schema=schema), directory, schema, postgres)
        finally:
            with suppress(Exception):
                _pg(postgres, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def server_env(store: ScratchStore, **extra: str) -> dict[str, str]:
    """The environment of a server on ``store``: only MTG_LEDGER_* settings of our own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MTG_LEDGER_")}
    env.update(
        MTG_LEDGER_DATABASE_URL=store.url,
        MTG_LEDGER_ADMIN_TOKEN=ADMIN_TOKEN,
        MTG_LEDGER_CATALOG_PATH=str(store.directory / "cards.json"),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


@dataclass
class Server:
    """A server subprocess in its own session (so ``kill`` reaches every worker)."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path
    port: int = field(default_factory=free_port)
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    _log: IO[bytes] | None = None

    @classmethod
    def ledger(cls, store: ScratchStore, workers: int = 1, **env: str) -> Server:
        """``mtg-ledger serve`` on ``store`` with ``workers`` uvicorn workers."""
        port = free_port()
        argv = [str(BIN / "mtg-ledger"), "serve", "--port", str(port), "--workers", str(workers)]
        return cls(argv, server_env(store, **env), store.directory, port)

    @classmethod
    def uvicorn_app(cls, factory: str, store: ScratchStore, workers: int = 1, **env: str) -> Server:
        """Any app factory served by uvicorn the way ``mtg-ledger serve`` serves ours."""
        port = free_port()
        argv = [
            sys.executable,
            "-m",
            "uvicorn",
            factory,
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
        ]
        full_env = server_env(store, **env)
        full_env["PYTHONPATH"] = os.pathsep.join([str(ROOT), full_env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        return cls(argv, full_env, store.directory, port)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> Server:
        if self.log_path is None:
            self.log_path = self.cwd / f"server-{self.port}.log"
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            self.argv, cwd=self.cwd, env=self.env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until ``GET /v1/health`` (or ``/health``) answers 200; raises with the log if the
        process exits first or the time runs out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log()}")
            for path in ("/v1/health", "/health"):
                with suppress(OSError):
                    status, _ = request_sync("127.0.0.1", self.port, "GET", path, timeout=2.0)
                    if status == 200:
                        return
            time.sleep(0.1)
        raise TimeoutError(f"server on port {self.port} not ready in {timeout}s:\n{self.log()}")

    def log(self) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]

    def pids(self) -> list[int]:
        """The server's processes: the one started and its descendants (uvicorn workers)."""
        if self.process is None:
            return []
        found = [self.process.pid]
        for pid in found:
            with suppress(OSError):
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                found.extend(int(c) for c in children)
        return found

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal every process of the server's session (SIGKILL: a crash, nothing flushed)."""
        if self.process is None:
            return
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)
        self.process.wait(timeout=30)
        if sig == signal.SIGKILL:
            self._close_log()

    def stop(self) -> None:
        """A clean shutdown (SIGTERM, then SIGKILL after 15 s)."""
        if self.process is not None and self.process.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        # Workers that outlived their parent (never expected) go too.
        if self.process is not None:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Server:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def rss_kib(pid: int) -> int:
    """Resident set size of a process, in KiB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise ValueError(f"no VmRSS for {pid}")


# -- HTTP --------------------------------------------------------------------------------------
_STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


def request_bytes(method: str, path: str, port: int, body: bytes | None, headers: Mapping[str, str]) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
        if not any(k.lower() == "content-type" for k in headers):
            lines.append("Content-Type: application/json")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")


def request_sync(
    host: str,
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> tuple[int, Any]:
    """One request on a new connection; the body parsed as JSON when it is JSON."""
    import http.client

    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        all_headers = dict(headers or {})
        if data is not None:
            all_headers.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=all_headers)
        response = conn.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, raw
    finally:
        conn.close()


class HttpClient:
    """One keep-alive connection; ``request`` returns ``(status, headers, body bytes)``."""

    def __init__(self, port: int, headers: Mapping[str, str] | None = None) -> None:
        self.port = port
        self.headers = dict(headers or {})
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with suppress(Exception):
                await self._writer.wait_closed()
        self._reader = self._writer = None

    async def request(
        self, method: str, path: str, body: bytes | None = None, headers: Mapping[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in range(2):
            if self._writer is None:
                await self._connect()
            assert self._reader is not None and self._writer is not None
            try:
                self._writer.write(request_bytes(method, path, self.port, body, {**self.headers, **(headers or {})}))
                head = await self._reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt:
                    raise
                continue  # the server closed an idle keep-alive connection: reconnect once
            match = _STATUS.match(head)
            if match is None:
                raise ConnectionError(f"not an HTTP response: {head[:80]!r}")
            fields: dict[str, str] = {}
            for line in head.split(b"\r\n")[1:]:
                if b":" in line:
                    k, v = line.split(b":", 1)
                    fields[k.decode("latin-1").strip().lower()] = v.decode("latin-1").strip()
            length = int(fields.get("content-length", "0"))
            payload = await self._reader.readexactly(length) if length else b""
            if fields.get("connection", "").lower() == "close":
                await self.close()
            return int(match.group(1)), fields, payload
        raise AssertionError("unreachable")


def percentile(sorted_values: list[float], p: float) -> float:
    """The ``p``-th percentile (0-100) of already sorted values (nearest rank)."""
    if not sorted_values:
        return float("nan")
    rank = max(0, min(len(sorted_values) - 1, round(p / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[rank]


# -- docs/performance.md -----------------------------------------------------------------------
def update_section(path: Path, name: str, text: str, title: str) -> None:
    """Replace the section between ``<!-- bench:NAME -->`` and ``<!-- /bench:NAME -->`` in the
    report (appending it, under ``title``, when it is not there yet): each benchmark owns its
    section, so running one never loses another's results."""
    start, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = f"{start}\n{text.strip()}\n{end}"
    page = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    if start in page and end in page:
        before, rest = page.split(start, 1)
        _, after = rest.split(end, 1)
        page = before + block + after
    else:
        page = page.rstrip() + f"\n\n{title}\n\n{block}\n"
    path.write_text(page, encoding="utf-8")
