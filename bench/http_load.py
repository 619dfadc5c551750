"""Action throughput and latency over HTTP, against the stack's limit (a benchmark, not a test).

For each store (SQLite; PostgreSQL with ``--postgres``) and worker count (1 and 2), it starts two
real servers side by side on loopback, each on a store of its own:

- the ledger: ``mtg-ledger serve --workers N`` (a scratch SQLite file or PostgreSQL schema);
- the bare stack: ``bench/bare_app.py`` under uvicorn with the same workers: one FastAPI
  endpoint doing one ``eventsourcing`` save of an action-sized record, nothing else.

and drives them with a small asyncio HTTP/1.1 keep-alive client (``bench.harness.HttpClient``)
in two workloads:

- **one game**: one client posting actions to one game, each after the previous answer (the
  latency of a single table's actions);
- **many games**: ``--games`` games (default 1,000) created first, then ``--clients`` concurrent
  clients (default 16), each cycling through its own share of the games, so no two requests in
  flight touch one game (no version conflicts) and every game keeps being played.

The two servers are measured in alternating windows (``--rounds`` x ``--window`` seconds each),
so the machine's noise hits both alike; the report gives throughput (requests/s), p50 and p99
latency (ms), and the ledger's throughput as a ratio of the bare stack's (goal: >= 0.5).

    .venv/bin/python bench/http_load.py [--postgres URL] [--window 4] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    ADMIN_TOKEN,
    ROOT,
    HttpClient,
    ScratchStore,
    Server,
    default_postgres,
    percentile,
    rss_kib,
    scratch_store,
    update_section,
)

TOURNAMENT: dict[str, object] = {"event": "Bench", "round": 1, "table": 1}
GAME: dict[str, object] = {
    "variant": "two_player",
    "tournament": TOURNAMENT,
    "players": [{"id": "P1", "counters": {"rad": 1}}, {"id": "P2"}],
    "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}}],
}
ACTIONS: list[bytes] = [
    json.dumps(a).encode()
    for a in (
        {"type": "gain_life", "player": "P1", "amount": 1},
        {"type": "add_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1},
        {"type": "lose_life", "player": "P1", "amount": 1},
        {"type": "remove_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1},
    )
]
"""One event each, and balanced: a game can take any number of them."""
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}

Send = Callable[[HttpClient, str, int], Awaitable[int]]
"""Sends request number ``i`` to a game (or stream) on a client; returns the status."""


@dataclass
class Sample:
    """Results of one workload on one server, summed over its windows."""

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: int = 0

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def ms(self, p: float) -> float:
        return percentile(sorted(self.latencies), p) * 1000


async def window(port: int, targets: list[list[str]], send: Send, seconds: float, sample: Sample) -> None:
    """``len(targets)`` clients, client ``c`` cycling through ``targets[c]``, for ``seconds``."""
    deadline = time.perf_counter() + seconds

    async def client(share: list[str]) -> None:
        http = HttpClient(port, AUTH)
        i = 0
        try:
            while time.perf_counter() < deadline:
                begin = time.perf_counter()
                # Each game sees the actions in order (rounds through its client's share).
                status = await send(http, share[i % len(share)], i // len(share))
                sample.latencies.append(time.perf_counter() - begin)
                if status != 201:
                    sample.errors += 1
                i += 1
        finally:
            await http.close()

    begin = time.perf_counter()
    await asyncio.gather(*(client(share) for share in targets))
    sample.seconds += time.perf_counter() - begin


async def ledger_send(http: HttpClient, game: str, i: int) -> int:
    status, _, body = await http.request("POST", f"/v1/games/{game}/actions", ACTIONS[i % len(ACTIONS)])
    if status != 201 and os.environ.get("BENCH_DEBUG"):
        print(status, body[:300], file=sys.stderr)
    return status


async def bare_send(http: HttpClient, stream: str, i: int) -> int:
    status, _, _ = await http.request("POST", f"/bare/{stream}", ACTIONS[i % len(ACTIONS)])
    return status


async def bare_load_send(http: HttpClient, stream: str, i: int) -> int:
    status, _, _ = await http.request("POST", f"/bare-load/{stream}", ACTIONS[i % len(ACTIONS)])
    return status


async def floor_send(http: HttpClient, stream: str, i: int) -> int:
    status, _, _ = await http.request("POST", f"/floor/{stream}", ACTIONS[i % len(ACTIONS)])
    return status


GameRequest = Callable[[str, int], tuple[str, bytes]]
"""The request that makes one game: (path, body) for its id and its table."""


async def post_games(port: int, count: int, clients: int, request: GameRequest, headers: dict[str, str]) -> list[str]:
    """``count`` games (``bench-00000``, ...) made by ``clients`` connections, each at a table of
    its own (its own match: one match of 1,000 games would make the matches read model rewrite
    one huge document for every event)."""
    ids = [f"bench-{i:05d}" for i in range(count)]

    async def worker(share: list[str]) -> None:
        http = HttpClient(port, headers)
        try:
            for gid in share:
                path, body = request(gid, int(gid.rsplit("-", 1)[1]) + 1)
                status, _, text = await http.request("POST", path, body)
                if status != 201:
                    raise RuntimeError(f"{path} for {gid}: {status} {text[:200]!r}")
        finally:
            await http.close()

    await asyncio.gather(*(worker(ids[c::clients]) for c in range(clients)))
    return ids


async def create_games(port: int, count: int, clients: int) -> tuple[list[str], float]:
    """Create ``count`` new games over HTTP; returns their ids and the creation rate (games/s)."""

    def request(gid: str, table: int) -> tuple[str, bytes]:
        game = {**GAME, "game_id": gid, "tournament": {**TOURNAMENT, "table": table}}
        return "/v1/games", json.dumps(game).encode()

    begin = time.perf_counter()
    ids = await post_games(port, count, clients, request, AUTH)
    return ids, count / (time.perf_counter() - begin)


@dataclass
class Row:
    store: str
    workers: int
    workload: str
    ledger: Sample
    bare: Sample
    note: str = ""


@contextmanager
def servers(store_kind: str, postgres: str | None, workers: int) -> Iterator[tuple[Server, Server]]:
    with ExitStack() as stack:
        ledger_store: ScratchStore = stack.enter_context(scratch_store(store_kind, postgres, "bench_ledger"))
        bare_store: ScratchStore = stack.enter_context(scratch_store(store_kind, postgres, "bench_bare"))
        from bench.bare_app import make_application

        make_application(bare_store.url, create_tables=True).close()  # tables once, as `serve` does
        ledger = stack.enter_context(Server.ledger(ledger_store, workers))
        bare = stack.enter_context(
            Server.uvicorn_app("bench.bare_app:create_app", bare_store, workers, BARE_CREATE_TABLES="0")
        )
        yield ledger, bare


def measure_config(
    store_kind: str, postgres: str | None, workers: int, args: argparse.Namespace
) -> tuple[list[Row], dict[str, float]]:
    rows: list[Row] = []
    extra: dict[str, float] = {}
    with servers(store_kind, postgres, workers) as (ledger, bare):
        games, created = asyncio.run(create_games(ledger.port, args.games, args.clients))
        extra["games_created_per_s"] = created
        label = "SQLite" if store_kind == "sqlite" else "PostgreSQL"
        workloads: list[tuple[str, list[list[str]], list[list[str]]]] = [
            ("one game, 1 client", [[games[0]]], [["one"]]),
            (
                f"{len(games):,} games, {args.clients} clients",
                [games[c :: args.clients] for c in range(args.clients)],
                [[f"s{i:05d}" for i in range(c, len(games), args.clients)] for c in range(args.clients)],
            ),
        ]
        for name, ledger_targets, bare_targets in workloads:
            mine, theirs = Sample(), Sample()
            # warm-up: caches, connection pools, statement caches
            asyncio.run(window(ledger.port, ledger_targets, ledger_send, 0.5, Sample()))
            asyncio.run(window(bare.port, bare_targets, bare_send, 0.5, Sample()))
            for r in range(args.rounds):
                order: list[tuple[Server, list[list[str]], Send, Sample]] = [
                    (ledger, ledger_targets, ledger_send, mine),
                    (bare, bare_targets, bare_send, theirs),
                ]
                for server, targets, send, sample in order if r % 2 == 0 else order[::-1]:
                    asyncio.run(window(server.port, targets, send, args.window, sample))
            rows.append(Row(label, workers, name, mine, theirs))
            print(format_row(rows[-1]), flush=True)
        extra["ledger_rss_mib"] = sum(rss_kib(pid) for pid in ledger.pids()) / 1024
        extra["bare_rss_mib"] = sum(rss_kib(pid) for pid in bare.pids()) / 1024
    return rows, extra


def format_row(row: Row) -> str:
    ratio = row.ledger.rate / row.bare.rate if row.bare.rate else float("nan")
    errors = f" ({row.ledger.errors} errors)" if row.ledger.errors else ""
    return (
        f"| {row.store} | {row.workers} | {row.workload} | {row.ledger.rate:,.0f}{errors} | "
        f"{row.ledger.ms(50):.1f} / {row.ledger.ms(99):.1f} | {row.bare.rate:,.0f} | "
        f"{row.bare.ms(50):.1f} / {row.bare.ms(99):.1f} | **{ratio:.2f}** |"
    )


HEADER = (
    "| store | workers | workload | ledger actions/s | ledger p50 / p99 ms | bare saves/s "
    "| bare p50 / p99 ms | ledger / bare |\n|---|---:|---|---:|---:|---:|---:|---:|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--sqlite-only", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--workers", default="1,2", help="worker counts (default 1,2)")
    parser.add_argument("--games", type=int, default=1000, help="games in the many-games workload (default 1000)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients, many games (default 16)")
    parser.add_argument("--window", type=float, default=4.0, help="seconds per measurement window (default 4)")
    parser.add_argument("--rounds", type=int, default=2, help="windows per server and workload (default 2)")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"), help="report to update")
    args = parser.parse_args(argv)
    stores = ["sqlite"] + (["postgresql"] if args.postgres and not args.sqlite_only else [])
    rows: list[Row] = []
    extras: list[str] = []
    print(HEADER, flush=True)
    for kind in stores:
        for workers in (int(w) for w in args.workers.split(",")):
            found, extra = measure_config(kind, args.postgres, workers, args)
            rows += found
            extras.append(
                f"- {found[0].store}, {workers} worker(s): {extra['games_created_per_s']:,.0f} games created/s "
                f"(16 clients); RSS after the run: ledger {extra['ledger_rss_mib']:.0f} MiB, "
                f"bare {extra['bare_rss_mib']:.0f} MiB (all processes)"
            )
            print(extras[-1], flush=True)
    write_report(Path(args.output), args, rows, extras)
    return 0


def command_line() -> str:
    python = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else "python3"
    return " ".join([python, "bench/http_load.py", *sys.argv[1:]])


def machine() -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )


def write_report(path: Path, args: argparse.Namespace, rows: list[Row], extras: list[str]) -> None:
    table = "\n".join([HEADER, *(format_row(r) for r in rows)])
    text = f"""
Command (from the repository root; `make bench` runs it through `bench/run_all.py`):

```sh
{command_line()}
```

Machine: {machine()}. The load generator runs on the same two cores as the servers.

Per store and worker count, two servers run side by side, each on a fresh store of its own:
`mtg-ledger serve --workers N` and the bare stack (`bench/bare_app.py`: FastAPI + uvicorn with
the same workers, one `eventsourcing` save of an action-sized record per request, no auth, no
rules, no hash chain, no state in the response). They are measured in alternating windows
({args.rounds} x {args.window:g} s each per workload). Actions alternate `gain_life`,
`add_counters`, `lose_life`, `remove_counters` (one event each) with the admin token.
"One game": one client, each action after the previous answer. "{args.games:,} games": the games
are created first, then {args.clients} clients each cycle through their own share of them
(no two requests in flight on one game: no version conflicts). Latencies are per request, as
the client saw them.

{table}

{chr(10).join(extras)}
"""
    update_section(path, "http", text, "## Actions over HTTP: throughput and latency")
    print(f"updated {path}")


if __name__ == "__main__":
    raise SystemExit(main())
