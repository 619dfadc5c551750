"""CPU instructions per action, counted by valgrind's callgrind (a benchmark, not a test).

Throughput on a shared 2-core machine drifts; an instruction count does not: callgrind counts the
same instructions for the same code and inputs whatever else the machine does. For each store
(SQLite; PostgreSQL with ``--postgres``) and each server of ``--servers``:

- ``ledger``: ``mtg-ledger serve --workers 1``, its defaults (group commit, the read models in
  the worker on SQLite and in a process of their own on PostgreSQL), answering each action with
  its events and the game's state, as v1 clients get it;
- ``ledger-minimal``: the same server, each action sent with ``Prefer: return=minimal``
  (docs/api.md: the answer leaves the state out), what a client that does not need the state
  can ask for;
- ``bare``: ``bench/bare_stack.py``: FastAPI + one ``eventsourcing`` aggregate load and save per
  action, no rules, no audit (it stores the action, its actor, time and id, as the ledger does);
- ``floor``: a FastAPI endpoint that stores nothing (``bench/bare_stack.py``, ``BARE_FLOOR=1``);
- ``baseline``: the ledger of another checkout (``--baseline PATH``, e.g. a ``git worktree`` of
  the commit before a change, imported through ``PYTHONPATH``), beside this one in one run;

the server runs under ``valgrind --tool=callgrind --trace-children=yes --dump-instr=no`` twice,
on a fresh store each time (a SQLite file, or a PostgreSQL database of its own), with the same
start (once it answers, the script waits until every process of the server has settled,
``settle``: on PostgreSQL the read-model process takes minutes to start under callgrind):
``--games`` games (default 50) created over one keep-alive connection, then ``N`` actions on
that connection, one after the other, with N the two ``--counts`` (default 50 and 350). A
game's k-th action is the (k + its number)-th of gain_life / add_counters rad / lose_life /
remove_counters rad (each game cycles through the four, the games starting at different
places, so the 300 extra actions are about a quarter of each). The server is then stopped with
SIGTERM, and callgrind writes the instructions of each of its processes, counted from just
before the first action (``zero_counts``: the start and the games are left out). The
difference of the two runs divided by the difference of the counts is the **marginal cost of
one action**: the shutdown is the same in both runs and cancels out. The
ledger's read models are waited for (their tracking positions read from the database by this
script, which costs the server nothing) before it is stopped, so their work on the actions is
counted too.

On PostgreSQL every process of the server counts (the worker and the read-model process), and
the database's own CPU time is reported beside it: the on-CPU time (``/proc/PID/schedstat``) of
the PostgreSQL backends connected to the run's database, sampled every half second while the
server runs (so a backend that ends is still counted), the same difference of the two runs per
action. It is time, not instructions: it moves with the machine's speed.

The breakdown: callgrind's per-function inclusive counts (``callgrind_annotate
--inclusive=yes``) of the ledger's processes, the same marginal per action (the 350-action run
minus the 50-action run, per function, over 300); the top 25, plus the self cost of each shared
object (the interpreter, pydantic-core, SQLite, ...). Callgrind sees C functions, so Python code
appears as the interpreter's frames: ``bench/action_path.py --profile`` names the Python
functions.

What a server does by the clock (the read models' polls, the webhook deliverer's rounds, elections)
counts too, and under callgrind, about 50 times slower, a run's actions take about 50 times longer,
so that work weighs about 50 times more per action than at full speed. ``--idle SECONDS`` measures
it: each ledger is also run with the low count and then left idle that long; the report gives its
instructions per second and how much of the marginal cost it accounts for at the run's pace.

Python under valgrind runs about 50 times slower: the default run takes about 15 minutes per
store on a quiet machine (``--jobs 2`` runs two servers at once: the counts do not depend on it).

    .venv/bin/python bench/instructions.py [--postgres URL | --sqlite-only] [--servers ledger,bare,floor]
        [--counts 50,350] [--games 50] [--jobs 1] [--idle SECONDS] [--keep DIR] [--no-report]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    ADMIN_TOKEN,
    ROOT,
    HttpClient,
    ScratchStore,
    Server,
    default_postgres,
    scratch_store,
    update_section,
)

SERVERS = ("ledger", "ledger-minimal", "bare", "floor", "baseline")
DEFAULT_SERVERS = "ledger,ledger-minimal,bare,floor"
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
MINIMAL = {"Prefer": "return=minimal"}
TOURNAMENT: dict[str, object] = {"event": "Bench", "round": 1}
GAME: dict[str, object] = {
    "variant": "two_player",
    "players": [{"id": "P1", "counters": {"rad": 1}}, {"id": "P2"}],
    "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}}],
}
"""The game of every run: two players, P1 with a rad counter, one permanent, at a table of a
tournament (so the matches read model has its work too)."""
ACTIONS: list[bytes] = [
    json.dumps(a).encode()
    for a in (
        {"type": "gain_life", "player": "P1", "amount": 1},
        {"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 1},
        {"type": "lose_life", "player": "P1", "amount": 1},
        {"type": "remove_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 1},
    )
]
"""One event each; in this order from any starting point, a game never removes more rad
counters than it has (it starts with one) nor loses more life than it gained, plus one."""
VALGRIND = ("valgrind", "--tool=callgrind", "--trace-children=yes", "--dump-instr=no")
TOP = 25
SETTLE_WINDOW = 10.0
SETTLE_MAX = 900.0
"""After the server answers its health check, its processes may still be starting: on
PostgreSQL ``serve`` waits 30 s for its read-model process to say it is ready, and under
callgrind that process takes minutes, so the workers keep the read models and the process,
still importing, stands by. How far that start got by the end of a run, not the actions, then
made up much of the difference between two runs. So the first request waits until every process
of the server has settled (``settle``), at most this long."""
STOP_TIMEOUT = 900.0
START_TIMEOUT = 900.0


# -- stores ------------------------------------------------------------------------------------
@contextmanager
def scratch(kind: str, postgres: str | None, prefix: str) -> Iterator[ScratchStore]:
    """A fresh store: a SQLite file, or a PostgreSQL database of its own (not a schema: the
    database's backends are then exactly the run's, for their CPU time)."""
    if kind == "sqlite":
        with scratch_store("sqlite", prefix=prefix) as store:
            yield store
        return
    if not postgres:
        raise ValueError("a PostgreSQL store needs a server URL")
    import psycopg

    name = f"{prefix}_{os.getpid()}_{uuid4().hex[:8]}"
    parts = urlsplit(postgres)
    # Under valgrind a connection takes seconds to set up: the default 5 s timeout failed.
    url = urlunsplit(parts._replace(path=f"/{name}", query="connect_timeout=120"))
    with psycopg.connect(postgres, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        with tempfile.TemporaryDirectory(prefix=f"{prefix}-") as tmp:
            yield ScratchStore("postgresql", url, Path(tmp), None, postgres)
    finally:
        with suppress(Exception), psycopg.connect(postgres, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def read_models_caught_up(store: ScratchStore) -> bool:
    """Whether every read model's tracking position has reached the last stored record (read
    from the database directly, so the check costs the server nothing)."""
    if store.kind == "sqlite":
        with sqlite3.connect(f"file:{store.sqlite_file()}?mode=ro", uri=True, timeout=30) as db:
            last = db.execute("SELECT max(rowid) FROM stored_events").fetchone()[0] or 0
            rows = db.execute("SELECT notification_id FROM tracking WHERE application_name != '__migration__'")
            positions = [r[0] for r in rows]
        return len(positions) >= 3 and min(positions) >= last
    import psycopg

    with psycopg.connect(store.url, autocommit=True, connect_timeout=5) as conn:
        last = conn.execute("SELECT max(notification_id) FROM ledger_events").fetchone()
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_name LIKE '%%\\_tracking'"
            )
        ]
        positions = []
        for table in tables:
            row = conn.execute(
                f"SELECT max(notification_id) FROM \"{table}\" WHERE application_name != '__migration__'"
            ).fetchone()
            positions.append(row[0] if row and row[0] is not None else 0)
    return len(positions) >= 3 and min(positions) >= ((last[0] if last else 0) or 0)


def caught_up_or_unknown(store: ScratchStore) -> bool:
    """``read_models_caught_up``, False while the database refuses a connection (a shared
    PostgreSQL server at its ``max_connections``: the next look may get one)."""
    try:
        return read_models_caught_up(store)
    except Exception as err:  # psycopg.OperationalError, sqlite3.OperationalError (busy)
        print(f"  (read-model positions not read: {err}; trying again)", flush=True)
        return False


def wait_caught_up(store: ScratchStore, timeout: float = 600.0) -> None:
    deadline = time.monotonic() + timeout
    while not caught_up_or_unknown(store):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the read models did not catch up in {timeout:.0f} s")
        time.sleep(1.0)


class BackendCpu:
    """The on-CPU nanoseconds of the PostgreSQL client backends connected to one database,
    sampled every ``interval`` seconds (``/proc/PID/schedstat``; the postgres server must run
    on this machine), the last sample of each backend kept, so one that ends is still counted
    up to its last sample."""

    def __init__(self, server_url: str, database: str, interval: float = 0.5) -> None:
        self._server_url = server_url
        self._database = database
        self._interval = interval
        self._seen: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> BackendCpu:
        self._thread.start()
        return self

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(self._server_url, autocommit=True, connect_timeout=5) as conn:
            while True:
                self._sample(conn)
                if self._stop.wait(self._interval):
                    self._sample(conn)
                    return

    def _sample(self, conn: object) -> None:
        rows = conn.execute(  # type: ignore[attr-defined]
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'",
            (self._database,),
        ).fetchall()
        for (pid,) in rows:
            with suppress(OSError, ValueError):
                ns = int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
                self._seen[pid] = max(ns, self._seen.get(pid, 0))

    def stop(self) -> int:
        """Stop sampling; the backends' on-CPU nanoseconds in total."""
        self._stop.set()
        self._thread.join(timeout=30)
        return sum(self._seen.values())


# -- servers -----------------------------------------------------------------------------------
def plain_server(name: str, store: ScratchStore, baseline: str | None) -> Server:
    """The server ``name`` as it is started without valgrind (one worker)."""
    if name in ("ledger", "ledger-minimal"):
        return Server.ledger(store, 1)
    if name == "baseline":
        if baseline is None:
            raise ValueError("the baseline server needs --baseline PATH")
        return Server.ledger(store, 1, PYTHONPATH=str(Path(baseline).resolve()))
    if name == "bare":
        return Server.uvicorn_app("bench.bare_stack:create_app", store, 1, BARE_CREATE_TABLES="1")
    if name == "floor":
        return Server.uvicorn_app("bench.bare_stack:create_app", store, 1, BARE_FLOOR="1")
    raise ValueError(f"unknown server {name!r}; choose from {SERVERS}")


def under_callgrind(server: Server, out: Path) -> Server:
    """``server`` with its command run by callgrind, every process's counts in ``out``."""
    argv = [*VALGRIND, f"--callgrind-out-file={out}/callgrind.%p.out", "--log-file=" + str(out / "valgrind.%p.log")]
    return Server([*argv, *server.argv], server.env, server.cwd, server.port)


def is_ledger(name: str) -> bool:
    return name in ("ledger", "ledger-minimal", "baseline")


def game_ids(games: int) -> list[str]:
    return [f"bench-{i:05d}" for i in range(games)]


async def create_games(name: str, port: int, games: int) -> None:
    """The run's games, on one keep-alive connection."""
    http = HttpClient(port, AUTH)
    try:
        for table, gid in enumerate(game_ids(games), start=1):
            game = {**GAME, "game_id": gid, "tournament": {**TOURNAMENT, "table": table}}
            path = "/v1/games" if is_ledger(name) else "/games" if name == "bare" else f"/floor/{gid}"
            await check(http, path, json.dumps(game).encode())
    finally:
        await http.close()


async def send_actions(name: str, port: int, games: int, actions: int) -> None:
    """The run's actions, one after the other on one keep-alive connection."""
    http = HttpClient(port, AUTH)
    ids = game_ids(games)
    extra = MINIMAL if name == "ledger-minimal" else {}
    try:
        for i in range(actions):
            number, k = i % games, i // games
            path = (
                f"/v1/games/{ids[number]}/actions"
                if is_ledger(name)
                else f"/games/{ids[number]}/actions"
                if name == "bare"
                else f"/floor/{ids[number]}"
            )
            await check(http, path, ACTIONS[(k + number) % len(ACTIONS)], extra)
    finally:
        await http.close()


def zero_counts(server: Server) -> None:
    """Zero the counts of each of the server's processes (``callgrind_control --zero``): what
    they did before (the start, its imports, the games) is left out of their totals, so the
    two runs differ by their actions alone. Without it the start of a Python server under
    callgrind, about 5.8 billion instructions, moved by a few hundred million from one run to
    the next, as much as the 300 actions' difference."""
    for pid in server.pids():
        subprocess.run(["callgrind_control", "--zero", str(pid)], check=True, capture_output=True, timeout=120)


async def check(http: HttpClient, path: str, body: bytes, headers: dict[str, str] | None = None) -> None:
    status, _, text = await http.request("POST", path, body, headers)
    if status != 201:
        raise RuntimeError(f"POST {path}: {status} {text[:300]!r}")


def stop(server: Server, timeout: float = STOP_TIMEOUT) -> None:
    """SIGTERM to the server's session and wait: callgrind writes its counts when each process
    exits (a SIGKILL would lose them)."""
    process = server.process
    if process is None:
        return
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        server.kill()
        raise RuntimeError(f"the server did not stop in {timeout:.0f} s:\n{server.log()}") from None
    # Its other processes (the read-model process) write their counts as they exit, too.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.5)
    server.stop()


def cpu_seconds(pid: int) -> tuple[float, float]:
    """A process's CPU seconds so far, and its age in seconds (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return (int(fields[11]) + int(fields[12])) / tick, uptime - int(fields[19]) / tick


def settle(server: Server, window: float = SETTLE_WINDOW, limit: float = SETTLE_MAX) -> float:
    """Wait until each of the server's processes used, over the last ``window`` seconds, less
    than a third of its busiest: of the CPU it used on average since it started, or in any
    window so far (a start is a process's busiest time; what is left is the clock's work);
    returns the seconds waited."""
    begin = time.monotonic()
    peaks: dict[int, float] = {}
    last: dict[int, float] = {}
    while time.monotonic() - begin < limit:
        now: dict[int, float] = {}
        for pid in server.pids():
            with suppress(OSError, ValueError, IndexError):
                used, age = cpu_seconds(pid)
                now[pid] = used
                peaks.setdefault(pid, used / max(age, 1.0))
        rates = {pid: (now[pid] - last[pid]) / window for pid in now if pid in last}
        for pid, rate in rates.items():
            peaks[pid] = max(peaks.get(pid, 0.0), rate)
        if rates and len(rates) == len(now) and all(rate < peaks[pid] / 3 for pid, rate in rates.items()):
            return time.monotonic() - begin
        last = now
        time.sleep(window)
    return time.monotonic() - begin


# -- callgrind files ---------------------------------------------------------------------------
_TOTAL = re.compile(r"^(?:summary|totals):\s*(\d+)", re.MULTILINE)
_CMD = re.compile(r"^cmd:\s*(.*)$", re.MULTILINE)
_LINE = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+(.*?)\s*$")


def process_totals(out: Path) -> dict[str, int]:
    """Each process's instructions, by its file name (``callgrind.PID.out``) and command."""
    found: dict[str, int] = {}
    for path in sorted(out.glob("callgrind.*.out")):
        text = path.read_text(errors="replace")[:20000]
        total = _TOTAL.search(text)
        if total is None:
            raise RuntimeError(f"{path}: no totals line (did the process exit cleanly?)")
        cmd = _CMD.search(text)
        found[f"{path.name}: {cmd.group(1)[:80] if cmd else '?'}"] = int(total.group(1))
    return found


def function_key(entry: str) -> str:
    """``/path/to/file.c:function [/path/lib.so]`` -> ``function (lib.so)``."""
    obj = ""
    if entry.endswith("]") and " [" in entry:
        entry, obj = entry[:-1].rsplit(" [", 1)
        obj = Path(obj).name
    function = entry.rsplit(":", 1)[-1] if ":" in entry else entry
    return f"{function} ({obj})" if obj else function


def annotate(path: Path, inclusive: bool) -> list[tuple[str, int]]:
    """``callgrind_annotate`` of one file: (entry, instructions) for every function."""
    result = subprocess.run(
        ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in result.stdout.splitlines():
        match = _LINE.match(line)
        if match and "PROGRAM TOTALS" not in line:
            rows.append((match.group(2), int(match.group(1).replace(",", ""))))
    return rows


def inclusive_by_function(out: Path) -> dict[str, int]:
    """Inclusive instructions by function (``function (shared object)``), over every process of
    a run. A function that recurses shows once per recursion depth (``name'2``); those are left
    out, and a function listed under several source files (inlined headers, listed without
    their shared object) counts once, at its highest, under the name that has its object."""
    total: dict[str, int] = defaultdict(int)
    for path in sorted(out.glob("callgrind.*.out")):
        one: dict[str, int] = {}
        named: dict[str, str] = {}
        for entry, count in annotate(path, inclusive=True):
            key = function_key(entry)
            name = key.split(" (")[0]
            if re.search(r"'\d+$", name):
                continue
            one[name] = max(one.get(name, 0), count)
            if " (" in key:
                named[name] = key
        for name, count in one.items():
            total[named.get(name, name)] += count
    return dict(total)


def self_by_object(out: Path) -> dict[str, int]:
    """Self (exclusive) instructions by shared object, over every process of a run.
    ``callgrind_annotate`` leaves the object out of some entries (code inlined from a header,
    listed under the header's name): such an entry goes to the object another entry of the
    same function names, or to the interpreter when its source is CPython's."""
    total: dict[str, int] = defaultdict(int)
    for path in sorted(out.glob("callgrind.*.out")):
        rows = annotate(path, inclusive=False)
        objects: dict[str, str] = {}
        for entry, _ in rows:
            if entry.endswith("]") and " [" in entry:
                head, obj = entry[:-1].rsplit(" [", 1)
                objects.setdefault(head.rsplit(":", 1)[-1], Path(obj).name)
        for entry, count in rows:
            if entry.endswith("]") and " [" in entry:
                obj = Path(entry[:-1].rsplit(" [", 1)[1]).name
            else:
                function = entry.rsplit(":", 1)[-1]
                obj = objects.get(function) or ("libpython (inlined)" if "/Python-3." in entry else "?")
            total[obj] += count
    return dict(total)


# -- one run -----------------------------------------------------------------------------------
@dataclass
class Run:
    server: str
    store: str
    actions: int
    processes: dict[str, int]
    db_cpu_ns: int | None
    seconds: float
    out: Path
    busy_seconds: float = 0.0
    """Wall time from the first request to the read models caught up (under callgrind)."""
    idle: float = 0.0
    """Seconds the server was left idle before it was stopped (``--idle``)."""
    settled: float = 0.0
    """Seconds waited after the health check for the server's processes to settle (``settle``)."""

    @property
    def instructions(self) -> int:
        return sum(self.processes.values())


@dataclass
class Cell:
    """One server on one store: its two runs."""

    server: str
    store: str
    runs: list[Run] = field(default_factory=list)
    idle_run: Run | None = None

    def marginal(self) -> float:
        low, high = sorted(self.runs, key=lambda r: r.actions)
        return (high.instructions - low.instructions) / (high.actions - low.actions)

    def idle_rate(self) -> float | None:
        """Instructions per second of an idle server (the ``--idle`` run against the low run)."""
        if self.idle_run is None:
            return None
        low = min(self.runs, key=lambda r: r.actions)
        return (self.idle_run.instructions - low.instructions) / self.idle_run.idle

    def idle_share(self) -> float | None:
        """How much of the marginal cost the idle rate accounts for: the work the server does
        by the clock (polls, delivery rounds), which a run under callgrind, about 50 times
        slower, does 50 times more often per action than a server at full speed."""
        rate = self.idle_rate()
        if rate is None:
            return None
        low, high = sorted(self.runs, key=lambda r: r.actions)
        return rate * (high.busy_seconds - low.busy_seconds) / (high.actions - low.actions)

    def db_marginal_us(self) -> float | None:
        low, high = sorted(self.runs, key=lambda r: r.actions)
        if low.db_cpu_ns is None or high.db_cpu_ns is None:
            return None
        return (high.db_cpu_ns - low.db_cpu_ns) / (high.actions - low.actions) / 1000


def run_once(
    name: str,
    kind: str,
    postgres: str | None,
    games: int,
    actions: int,
    work: Path,
    baseline: str | None,
    idle: float = 0.0,
) -> Run:
    out = work / (f"{kind}-{name}-{actions}" + (f"-idle{idle:g}" if idle else ""))
    out.mkdir(parents=True)
    begin = time.monotonic()
    with scratch(kind, postgres, f"instr_{name.replace('-', '_')}") as store:
        server = under_callgrind(plain_server(name, store, baseline), out)
        server.log_path = out / "server.log"
        cpu = None
        if kind == "postgresql":
            assert postgres is not None
            cpu = BackendCpu(postgres, urlsplit(store.url).path.lstrip("/")).start()
        server.start(timeout=START_TIMEOUT)
        try:
            settled = settle(server)
            asyncio.run(create_games(name, server.port, games))
            if is_ledger(name):
                wait_caught_up(store)
            zero_counts(server)
            busy = time.monotonic()
            asyncio.run(send_actions(name, server.port, games, actions))
            if is_ledger(name):
                wait_caught_up(store)
            busy = time.monotonic() - busy
            time.sleep(idle)
            db_ns = cpu.stop() if cpu is not None else None
            cpu = None
        finally:
            if cpu is not None:
                cpu.stop()
            stop(server)
    run = Run(name, kind, actions, process_totals(out), db_ns, time.monotonic() - begin, out, busy, idle, settled)
    print(
        f"  {kind} {name} {actions} actions" + (f" + {idle:g} s idle" if idle else "") + f": {run.instructions:,} "
        f"instructions in {len(run.processes)} process(es), settled in {run.settled:.0f} s, {run.busy_seconds:.0f} s "
        f"busy, {run.seconds:.0f} s in all" + (f", PostgreSQL {db_ns / 1e6:,.0f} ms CPU" if db_ns is not None else ""),
        flush=True,
    )
    return run


# -- the report --------------------------------------------------------------------------------
def fmt(n: float) -> str:
    return f"{n:,.0f}"


def results_table(cells: dict[tuple[str, str], Cell], kinds: Sequence[str], servers: Sequence[str]) -> str:
    lines = [
        "| store | server | instructions per action | / bare stack | / floor | PostgreSQL CPU µs per action |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for kind in kinds:
        bare, floor = cells.get((kind, "bare")), cells.get((kind, "floor"))
        for server in servers:
            cell = cells[(kind, server)]
            m = cell.marginal()
            db = cell.db_marginal_us()
            ratio_bare = f"{m / bare.marginal():.2f}x" if bare else "-"
            ratio_floor = f"{m / floor.marginal():.2f}x" if floor else "-"
            label = "SQLite" if kind == "sqlite" else "PostgreSQL"
            db_text = f"{db:,.0f}" if db is not None else "-"
            lines.append(f"| {label} | {server} | {fmt(m)} | {ratio_bare} | {ratio_floor} | {db_text} |")
    return "\n".join(lines)


def process_table(cells: dict[tuple[str, str], Cell]) -> str:
    lines = ["| store | server | actions | process | instructions |", "|---|---|---:|---|---:|"]
    for cell in cells.values():
        for run in sorted(cell.runs, key=lambda r: r.actions):
            for process, count in run.processes.items():
                lines.append(f"| {run.store} | {run.server} | {run.actions} | `{process}` | {fmt(count)} |")
    return "\n".join(lines)


def breakdown(cell: Cell) -> tuple[str, str]:
    """The top functions (inclusive) and the shared objects (self) of one cell, per action."""
    low, high = sorted(cell.runs, key=lambda r: r.actions)
    span = high.actions - low.actions
    hi, lo = inclusive_by_function(high.out), inclusive_by_function(low.out)
    per = {k: (hi.get(k, 0) - lo.get(k, 0)) / span for k in set(hi) | set(lo)}
    marginal = cell.marginal()
    top = sorted(per.items(), key=lambda kv: -kv[1])[:TOP]
    functions = ["| # | function (shared object) | inclusive instructions per action | share |", "|---:|---|---:|---:|"]
    functions += [f"| {i} | `{name}` | {fmt(v)} | {v / marginal:.1%} |" for i, (name, v) in enumerate(top, 1)]
    hs, ls = self_by_object(high.out), self_by_object(low.out)
    objs = {k: (hs.get(k, 0) - ls.get(k, 0)) / span for k in set(hs) | set(ls)}
    objects = ["| shared object | self instructions per action | share |", "|---|---:|---:|"]
    objects += [
        f"| `{name}` | {fmt(v)} | {v / marginal:.1%} |"
        for name, v in sorted(objs.items(), key=lambda kv: -kv[1])
        if abs(v) >= marginal * 0.002
    ]
    return "\n".join(functions), "\n".join(objects)


def commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True)
        return head.stdout.strip() + (" with uncommitted changes" if dirty.stdout.strip() else "")
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--sqlite-only", action="store_true", help="SQLite only, whatever the environment says")
    parser.add_argument("--postgres-only", action="store_true", help="PostgreSQL only")
    parser.add_argument("--servers", default=DEFAULT_SERVERS, help=f"comma-separated, of {list(SERVERS)}")
    parser.add_argument("--counts", default="50,350", help="the two action counts (default 50,350)")
    parser.add_argument("--games", type=int, default=50, help="games created first (default 50)")
    parser.add_argument("--jobs", type=int, default=1, help="servers run at once (default 1)")
    parser.add_argument("--baseline", help="a checkout whose ledger the baseline server serves")
    parser.add_argument("--breakdown", default="ledger", help="the server whose functions are broken down ('' none)")
    parser.add_argument("--keep", help="keep the callgrind files in this directory")
    parser.add_argument(
        "--idle", type=float, default=0.0, help="also run each ledger with the low count and this many seconds idle"
    )
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"), help="report to update")
    parser.add_argument("--no-report", action="store_true", help="print only; leave docs/performance.md alone")
    parser.add_argument(
        "--section", default="instructions", help="the report's section to write (two runs at once: one each)"
    )
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed")
    servers = [s.strip() for s in args.servers.split(",") if s.strip()]
    if unknown := sorted(set(servers) - set(SERVERS)):
        parser.error(f"unknown server(s) {unknown}; choose from {list(SERVERS)}")
    counts = sorted(int(c) for c in args.counts.split(","))
    if len(counts) != 2 or counts[0] >= counts[1]:
        parser.error("--counts takes two different action counts")
    kinds = [] if args.postgres_only else ["sqlite"]
    if args.postgres and not args.sqlite_only:
        kinds.append("postgresql")
    if not kinds:
        parser.error("--postgres-only needs a PostgreSQL server")
    work = Path(args.keep).resolve() if args.keep else Path(tempfile.mkdtemp(prefix="instructions-"))
    work.mkdir(parents=True, exist_ok=True)
    started = datetime.now(UTC)
    print(f"callgrind files in {work}", flush=True)
    jobs = [(kind, server, n, 0.0) for kind in kinds for server in servers for n in counts]
    if args.idle:
        jobs += [(kind, server, counts[0], args.idle) for kind in kinds for server in servers if is_ledger(server)]
    jobs.sort(key=lambda job: not is_ledger(job[1]))  # the longest first
    cells: dict[tuple[str, str], Cell] = {(k, s): Cell(s, k) for k in kinds for s in servers}
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [
                pool.submit(run_once, server, kind, args.postgres, args.games, n, work, args.baseline, idle)
                for kind, server, n, idle in jobs
            ]
            for (kind, server, _, idle), future in zip(jobs, futures, strict=True):
                if idle:
                    cells[(kind, server)].idle_run = future.result()
                else:
                    cells[(kind, server)].runs.append(future.result())
        table = results_table(cells, kinds, servers)
        print("\n" + table)
        idle_lines = [
            f"- {cell.server}, {'SQLite' if cell.store == 'sqlite' else 'PostgreSQL'}: {fmt(rate)} instructions "
            f"per second idle; at the pace of this run (under callgrind) that is {fmt(share or 0)} of each "
            f"action's {fmt(cell.marginal())} ({(share or 0) / cell.marginal():.0%})"
            for cell in cells.values()
            if (rate := cell.idle_rate()) is not None and (share := cell.idle_share()) is not None
        ]
        idle_text = ""
        if idle_lines:
            idle_text = (
                f"What a server does by the clock (the idle run: {counts[0]} actions, then {args.idle:g} s idle, "
                f"against the {counts[0]}-action run):\n\n" + "\n".join(idle_lines)
            )
            print("\n" + idle_text)
        sections = []
        if args.breakdown and args.breakdown in servers:
            for kind in kinds:
                functions, objects = breakdown(cells[(kind, args.breakdown)])
                label = "SQLite" if kind == "sqlite" else "PostgreSQL"
                sections.append(
                    f"**{args.breakdown}, {label}: the top {TOP} functions by inclusive instructions, "
                    f"per action** (the {counts[1]}-action run minus the {counts[0]}-action run, over "
                    f"{counts[1] - counts[0]}):\n\n{functions}\n\n**{args.breakdown}, {label}: self "
                    f"instructions by shared object, per action** (0.2% and more):\n\n{objects}"
                )
                print("\n" + sections[-1])
        processes = process_table(cells)
        print("\n" + processes)
        if not args.no_report:
            command = "bench/instructions.py " + " ".join(argv if argv is not None else sys.argv[1:])
            text = (
                f"`.venv/bin/python {command.strip()}` on {commit()}, {started:%Y-%m-%d %H:%M} UTC, "
                f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                f"valgrind {valgrind_version()}; {args.games} games, the marginal cost between "
                f"{counts[0]} and {counts[1]} actions:\n\n{table}\n\n"
                + (f"{idle_text}\n\n" if idle_text else "")
                + "\n\n".join(sections)
            )
            text += f"\n\nEach process of each run:\n\n{processes}"
            update_section(Path(args.output), args.section, text, "## Instructions per action")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def valgrind_version() -> str:
    result = subprocess.run(["valgrind", "--version"], capture_output=True, text=True)
    return result.stdout.strip().removeprefix("valgrind-")


if __name__ == "__main__":
    raise SystemExit(main())
