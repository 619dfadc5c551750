"""Where the CPU of an action goes, and how the workers share the connections (a benchmark).

One ledger server (``mtg-ledger serve --workers N``) on a scratch store, 1,000 games (new, or
imported with ``--history`` events each), warmed by one closed-loop window, then a measured
closed-loop window of 16 kept-alive connections. Printed for each store and worker count:

- actions per second;
- CPU per action of the server's processes, of the PostgreSQL server's processes (all of them:
  run it on a quiet machine) and of the load generator, read from ``/proc``;
- how many cores each was busy, and each worker's share of the server's CPU;
- how the 16 connections were spread over the workers (``api/workers.py``).

With ``--open-rate R`` both windows are open loop at R actions/s instead (``bench/open_loop.py``:
any connection carries any game's next action, so each game's actions are spread over the
workers, as a pool or a load balancer spreads them), and ``--warm`` sets the warm-up's length:
the CPU an action costs at a given load, whatever the latency. Variants ``ledger+SETTING=VALUE``
compare a setting with the default, and ``baseline`` (``--baseline PATH``) another checkout.

Linux only (``/proc``). Prints; writes nothing.

    .venv/bin/python bench/cpu_split.py [--postgres URL] [--workers 1,2,4] [--history 100] [--variants ledger]
        [--open-rate 700 --warm 10]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import HttpClient, default_postgres
from bench.http_load import AUTH, create_games
from bench.loadgen import LEDGER_PATH, Step, closed_loop, open_loop
from bench.open_loop import caught_up, import_games, started

GAMES = 1000
CLIENTS = 16
OPEN_CONNECTIONS = 256
"""Connections the open loop opens at most (``bench/open_loop.py``'s default)."""


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of ``pids`` so far (``/proc/PID/stat``); gone processes count 0."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def processes() -> list[tuple[int, int, str]]:
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid=,comm="], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        if line.strip():
            pid, ppid, comm = line.split(None, 2)
            rows.append((int(pid), int(ppid), comm))
    return rows


def tree(root: int) -> list[int]:
    """``root`` and its descendants."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for pid, ppid, _ in processes():
        children[ppid].append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children[pid]
    return found


def connections_by_pid(port: int) -> list[int]:
    """How many established connections to ``port`` each process holds, most first."""
    out = subprocess.run(
        ["ss", "-tnpH", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True
    ).stdout
    counts = collections.Counter(part.split("pid=")[1].split(",")[0] for part in out.split() if "pid=" in part)
    return sorted(counts.values(), reverse=True)


async def spread_probe(port: int) -> list[int]:
    """Open ``CLIENTS`` connections together, make one request on each, see where they are."""
    clients = [HttpClient(port, AUTH) for _ in range(CLIENTS)]
    try:
        await asyncio.gather(*(c.request("GET", "/v1/health") for c in clients))
        return connections_by_pid(port)
    finally:
        for c in clients:
            await c.close()


def measure(
    kind: str,
    postgres: str | None,
    workers: int,
    history: int,
    seconds: float,
    variant: str = "ledger",
    open_rate: float | None = None,
    warm: float | None = None,
    baseline: str | None = None,
) -> str:
    with started(kind, postgres, workers, [variant], baseline=baseline) as servers:
        server = servers[variant]
        assert server.process is not None
        if history:
            ids = asyncio.run(import_games(server.port, GAMES, history, 8))
        else:
            ids, _ = asyncio.run(create_games(server.port, GAMES, 8))
        asyncio.run(caught_up(server.port, ids, max(history, 1)))
        warm_seconds = seconds if warm is None else warm

        def load(window: float, offset: int) -> Step:
            if open_rate is None:
                return closed_loop(server.port, ids, LEDGER_PATH, CLIENTS, window)
            return open_loop(server.port, ids, LEDGER_PATH, open_rate, window, OPEN_CONNECTIONS, offset)

        load(warm_seconds, 0)  # warm: every game loaded (by every worker, in the open loop)
        own = tree(server.process.pid)
        database = [pid for pid, _, comm in processes() if comm.startswith("postgres")] if kind != "sqlite" else []
        before = {pid: cpu_seconds([pid]) for pid in own}
        db_before, begin = cpu_seconds(database), time.perf_counter()
        step = load(seconds, int((open_rate or 0) * warm_seconds))
        wall = time.perf_counter() - begin
        used = {pid: cpu_seconds([pid]) - before[pid] for pid in own}
        db = cpu_seconds(database) - db_before
        spread = asyncio.run(spread_probe(server.port))
    actions = len(step.latencies)
    total = sum(used.values())
    shares = sorted((round(100 * u / total) for u in used.values() if u > 0.05 * total), reverse=True)
    label = ("SQLite" if kind == "sqlite" else "PostgreSQL") + ("" if variant == "ledger" else f" ({variant})")
    if open_rate is not None:
        label += f", open loop {open_rate:g}/s (p50 {step.ms(50):.1f} / p99 {step.ms(99):.1f} ms)"
    return (
        f"| {label} | {workers} | {actions / step.seconds:,.0f} | {total / actions * 1e6:,.0f} | "
        f"{db / actions * 1e6:,.0f} | {step.client_cpu / actions * 1e6:,.0f} | {total / wall:.2f} / {db / wall:.2f} | "
        f"{' / '.join(f'{s}%' for s in shares)} | {' / '.join(map(str, spread))} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--workers", default="1,2,4", help="worker counts (default 1,2,4)")
    parser.add_argument("--history", type=int, default=100, help="events each game holds first (default 100)")
    parser.add_argument("--seconds", type=float, default=6.0, help="measured seconds (default 6)")
    parser.add_argument(
        "--variants",
        default="ledger",
        help="ledger servers to measure in turn, of bench/open_loop.py's (default ledger)",
    )
    parser.add_argument("--open-rate", type=float, help="open loop at this rate (actions/s) instead of closed")
    parser.add_argument("--warm", type=float, help="warm-up seconds (default: --seconds)")
    parser.add_argument("--baseline", help="a checkout of another commit, for the variant 'baseline' (open_loop.py)")
    args = parser.parse_args(argv)
    kinds = ["sqlite"] + (["postgresql"] if args.postgres and not args.sqlite_only else [])
    print(
        "| store | workers | actions/s | server CPU µs per action | PostgreSQL CPU µs per action "
        "| client CPU µs per action | cores busy: server / PostgreSQL | each worker's share of the server's CPU "
        f"| {CLIENTS} connections per worker |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    for kind in kinds:
        for workers in (int(w) for w in args.workers.split(",")):
            for variant in args.variants.split(","):
                row = measure(
                    kind,
                    args.postgres,
                    workers,
                    args.history,
                    args.seconds,
                    variant,
                    args.open_rate,
                    args.warm,
                    args.baseline,
                )
                print(row, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
