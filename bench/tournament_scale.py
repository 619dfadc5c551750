"""A 5,000-player tournament over HTTP (issue 39's goals; a benchmark, not a test).

It starts ``mtg-ledger serve`` of a checkout (``--checkout DIR``, default this one; the
checkout's own ``.venv``, made by its ``make install``) on a loopback port with a scratch
store (a temporary SQLite file, or a fresh schema of ``--postgres URL``, dropped afterwards),
and then, through the HTTP API only:

1. creates a tournament and registers ``--players`` players with roster files
   (``POST /v1/tournaments/{id}/players.csv``, at most 5,000 a file);
2. pairs round 1 (``POST /v1/tournaments/{id}/rounds``) and times that one request: it pairs
   everyone and creates each table's game (2,500 games for 5,000 players);
3. ``--readers`` concurrent readers (one keep-alive connection each) read
   ``GET /v1/tournaments/{id}/public``, then ``GET /v1/tournaments/{id}/standings``,
   ``--per-reader`` times each: p50/p99/max per endpoint;
4. ``--reads`` sequential reads (the two endpoints in turn) while the server's resident memory
   (every process of it, from ``/proc``) is sampled: before, every 50 reads, after.

Every loop is bounded by a count, and each read phase also by ``--budget`` seconds (what it
managed by then is reported, with how many were asked); the server is stopped at the end,
whatever happened. Goals (issue 39): public and standings p99 <= 50 ms with 16 concurrent
readers, memory flat across 1,000 reads, pairing 5,000 players (with 2,500 games) <= 3 s.

    .venv/bin/python bench/tournament_scale.py [--checkout DIR] [--players 5000] \\
        [--postgres URL] [--readers 16] [--per-reader 20] [--reads 1000] [--budget 900]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.getcwd())

from bench.harness import (
    ADMIN_TOKEN,
    ROOT,
    HttpClient,
    ScratchStore,
    Server,
    free_port,
    percentile,
    request_sync,
    rss_kib,
    scratch_store,
    server_env,
)

TID = "scale"
ROSTER_FILE_MOST = 5000
"""Players one roster file registers at most (``ledger.tournament_exports.MAX_ROSTER``)."""
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SAMPLE_EVERY = 50
"""Sequential reads between two memory samples."""


def checkout_of(path: str | None) -> Path:
    """The checkout to serve: its ``.venv/bin/mtg-ledger`` must exist (``make install``)."""
    root = Path(path).resolve() if path else ROOT
    if not (root / ".venv" / "bin" / "mtg-ledger").exists():
        raise SystemExit(f"{root}: no .venv/bin/mtg-ledger (run `make install` there first)")
    return root


def describe(root: Path) -> str:
    """The checkout's commit, marked ``+dirty`` when it has uncommitted changes."""

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False).stdout

    commit = git("rev-parse", "--short", "HEAD").strip() or "unknown"
    return commit + ("+dirty" if git("status", "--porcelain", "--untracked-files=no").strip() else "")


def serve(root: Path, store: ScratchStore) -> Server:
    port = free_port()
    argv = [str(root / ".venv" / "bin" / "mtg-ledger"), "serve", "--port", str(port), "--workers", "1"]
    return Server(argv, server_env(store), store.directory, port)


def call(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    status, answer = request_sync("127.0.0.1", port, method, path, body, {**AUTH, **(headers or {})}, timeout=600)
    if not 200 <= status < 300:
        raise RuntimeError(f"{method} {path}: {status} {str(answer)[:300]}")
    return answer


def register(port: int, players: int) -> float:
    """Register ``players`` players by roster files; the seconds it took."""
    started = time.perf_counter()
    for first in range(0, players, ROSTER_FILE_MOST):
        rows = [f"Player {i:05d},{1_000_000 + i}" for i in range(first, min(players, first + ROSTER_FILE_MOST))]
        text = "name,wizards_id\n" + "\n".join(rows) + "\n"
        answer = call(port, "POST", f"/v1/tournaments/{TID}/players.csv", text.encode(), {"Content-Type": "text/csv"})
        assert answer["registered"] == len(rows), answer
    return time.perf_counter() - started


async def _reader(port: int, path: str, count: int, stop_at: float, times: list[float]) -> None:
    client = HttpClient(port, AUTH)
    try:
        for _ in range(count):
            if time.monotonic() > stop_at:
                return
            started = time.perf_counter()
            status, _, payload = await client.request("GET", path)
            if status != 200:
                raise RuntimeError(f"GET {path}: {status} {payload[:300]!r}")
            times.append(time.perf_counter() - started)
    finally:
        await client.close()


def concurrent(port: int, path: str, readers: int, per_reader: int, budget: float) -> list[float]:
    """``readers`` connections reading ``path`` ``per_reader`` times each at once (until
    ``budget`` seconds have passed); every request's seconds, sorted."""
    times: list[float] = []
    stop_at = time.monotonic() + budget

    async def run() -> None:
        await asyncio.gather(*(_reader(port, path, per_reader, stop_at, times) for _ in range(readers)))

    asyncio.run(run())
    return sorted(times)


def server_rss_mib(server: Server) -> float:
    total = 0
    for pid in server.pids():
        try:
            total += rss_kib(pid)
        except (OSError, ValueError):
            continue  # a process gone meanwhile
    return total / 1024


def sequential(
    port: int, server: Server, paths: list[str], reads: int, budget: float
) -> tuple[dict[str, list[float]], list[float]]:
    """``reads`` reads, ``paths`` in turn, one at a time (until ``budget`` seconds have passed);
    each path's seconds per read (sorted) and the server's memory (MiB) before, every
    ``SAMPLE_EVERY`` reads and after."""
    samples = [server_rss_mib(server)]
    stop_at = time.monotonic() + budget
    made = 0
    times: dict[str, list[float]] = {path: [] for path in paths}

    async def run() -> None:
        nonlocal made
        client = HttpClient(port, AUTH)
        try:
            for i in range(reads):
                if time.monotonic() > stop_at:
                    return
                path = paths[i % len(paths)]
                started = time.perf_counter()
                status, _, payload = await client.request("GET", path)
                if status != 200:
                    raise RuntimeError(f"GET {path}: {status} {payload[:300]!r}")
                times[path].append(time.perf_counter() - started)
                made += 1
                if made % SAMPLE_EVERY == 0:
                    samples.append(server_rss_mib(server))
        finally:
            await client.close()

    asyncio.run(run())
    samples.append(server_rss_mib(server))
    return {path: sorted(found) for path, found in times.items()}, samples


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}" if seconds >= 0.0995 else f"{seconds * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", help="the checkout to serve (default: this one)")
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server (default: a SQLite file)")
    parser.add_argument("--readers", type=int, default=16)
    parser.add_argument("--per-reader", type=int, default=20, help="reads of each endpoint per concurrent reader")
    parser.add_argument("--reads", type=int, default=1000, help="sequential reads (the two endpoints in turn)")
    parser.add_argument("--budget", type=float, default=900.0, help="seconds at most of each read phase")
    args = parser.parse_args()
    if args.players < 2:
        raise SystemExit("--players must be at least 2")
    root = checkout_of(args.checkout)
    kind = "postgresql" if args.postgres else "sqlite"
    with scratch_store(kind, args.postgres, prefix="tscale") as store, serve(root, store) as server:
        port = server.port
        print(f"checkout {root} at {describe(root)}; {store.label}; {platform.node()}, {os.cpu_count()} cores")
        call(port, "POST", "/v1/tournaments", {"id": TID, "name": "Scale Open", "format": "Modern"})
        print(f"registered {args.players} players in {register(port, args.players):.2f} s")
        started = time.perf_counter()
        paired = call(port, "POST", f"/v1/tournaments/{TID}/rounds", {"seed": 39})
        pairing = time.perf_counter() - started
        games = sum(len(t.get("games") or []) for t in paired.get("tables", []))
        print(f"pairing round 1: {pairing:.2f} s ({len(paired.get('tables', []))} tables, {games} games)")
        print(f"server RSS after pairing, before any read: {server_rss_mib(server):.0f} MiB")
        public, standings = f"/v1/tournaments/{TID}/public", f"/v1/tournaments/{TID}/standings"
        size = {p: len(json.dumps(call(port, "GET", p))) for p in (public, standings)}
        rows = []
        for name, path in (("public", public), ("standings", standings)):
            times = concurrent(port, path, args.readers, args.per_reader, args.budget)
            asked = args.readers * args.per_reader
            rows.append(
                f"| `GET …/{name}` ({size[path] // 1024} KiB) | {args.readers} | {len(times)} of {asked} "
                f"| {ms(percentile(times, 50))} | {ms(percentile(times, 99))} | {ms(times[-1])} |"
            )
        alone, samples = sequential(port, server, [public, standings], args.reads, args.budget)
        for name, path in (("public", public), ("standings", standings)):
            times = alone[path]
            rows.append(
                f"| `GET …/{name}` ({size[path] // 1024} KiB) | 1 | {len(times)} of {args.reads // 2} "
                f"| {ms(percentile(times, 50))} | {ms(percentile(times, 99))} | {ms(times[-1])} |"
            )
        made = sum(len(t) for t in alone.values())
        print()
        print("| endpoint | readers | requests | p50 ms | p99 ms | max ms |")
        print("|---|---:|---:|---:|---:|---:|")
        print("\n".join(rows))
        print()
        print(
            f"sequential reads: {made} of {args.reads}; server RSS {samples[0]:.0f} MiB before, "
            f"{max(samples):.0f} MiB at most, {samples[-1]:.0f} MiB after "
            f"(samples every {SAMPLE_EVERY} reads: {', '.join(f'{s:.0f}' for s in samples)})"
        )


if __name__ == "__main__":
    main()
