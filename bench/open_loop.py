"""Open-loop load: the highest action rate each server sustains with p99 <= 50 ms (a benchmark).

Open loop: action ``i`` is *scheduled* at ``start + i / rate`` and sent at that time whatever the
earlier answers (on a free keep-alive connection, or a new one up to ``--connections``), and its
latency is counted from the scheduled time, so a server that falls behind is charged for the
queue it builds (no coordinated omission). A rate is **sustained** when, over the measured
window, p99 <= ``--p99`` ms (default 50), the answers came at >= 95% of the rate and fewer than
1% were errors.

For each store (SQLite; PostgreSQL with ``--postgres``) and worker count (``--workers``, default
1,2,4), the servers of ``--variants`` start side by side, each on a fresh store of its own:

- ``ledger``: ``mtg-ledger serve --workers N`` (group commit on, the default);
- ``ledger-1tx``: the same with group commit off (``MTG_LEDGER_GROUP_COMMIT=0``: one transaction
  per action, as before issue 15);
- ``ledger-check``: the ledger with the head check forced on (``MTG_LEDGER_HEAD_CHECK=on``:
  each cached head brought up to date before deciding; ``auto`` does so on SQLite with
  several workers only);
- ``ledger-rm-off`` / ``ledger-rm-on``: the ledger with its read models in a serving worker, or
  in a process of their own (``MTG_LEDGER_READ_MODEL_PROCESS``; ``auto`` is on for PostgreSQL);
- ``bare``: ``bench/bare_app.py``: FastAPI + uvicorn with the same workers, one ``eventsourcing``
  load-free save per request (``bench/http_load.py`` describes it): a stricter baseline than
  the issue's, as it never reads the stream;
- ``bare-load``: the bare stack as issue 15 defines it: FastAPI + one ``eventsourcing`` load
  (``repository.get``: the stream's events read and applied) and save per request
  (``bench/bare_app.py``, ``/bare-load``);
- ``floor``: a FastAPI endpoint that stores nothing (``/floor``): the framework's own ceiling;
- ``ledger-sqlite``: the ledger on a SQLite store whatever the run's store, so that a
  PostgreSQL run (``--postgres-only``) measures both stores taking turns at each rate: on a
  machine whose speed drifts within minutes, cells measured one after the other cannot be
  compared;
- ``baseline``: the ledger as another checkout has it (``--baseline PATH``, e.g. a ``git
  worktree`` of the commit before a change: its packages are imported from there through
  ``PYTHONPATH``, with this checkout's installed dependencies), so a change is measured against
  its parent in one run, both servers taking turns at each rate on the same machine;
- ``ledger+SETTING=VALUE`` (``+`` between several): the ledger with those settings
  (``MTG_LEDGER_SETTING=VALUE``, e.g. ``ledger+group_commit_ms=3``), so a setting is measured
  against the default in one run;
- ``ledger@N``: the ledger with N workers whatever the run's worker count (``--workers 1
  --variants ledger,ledger@2``), so one worker and two take turns at each rate: on a machine
  whose speed drifts within minutes, worker counts measured one after the other cannot be
  compared; ``ledger@N+SETTING=VALUE`` combines the two.

``--tables`` gives every game a keep-alive connection of its own (``bench.loadgen``, mode
``tables``), as phones at the tables each report their own game: a game's action waits for its
previous one, and with several workers each game stays on the worker its connection went to.
Without it any free connection carries any game's next action (a pool, a load balancer), so
with several workers each game's actions are spread over them.

``--games`` games (default 1,000) are created on each ledger (and as many streams are used on the
bare stack); action ``i`` goes to game ``i mod games``, so each game sees one action every
``games / rate`` seconds. Each server climbs the ladder of rates (``--rates``), the servers
taking turns at each rate (the order alternating), until a rate is not sustained twice in a row
(a shared machine has hiccups: one failed window is tried again once); a server that failed a
rate is not tried higher. Each step is a 1 s warm-up at the rate, then ``--seconds``
measured. Then a closed-loop window: ``--clients`` connections each sending its next action as
soon as it has the answer (throughput at saturation).

The load generator is ``bench/loadgen.c`` (``bench/loadgen.py`` builds it with the machine's C
compiler), one epoll process sending pre-built requests over raw keep-alive sockets: its CPU
time is reported (percent of one core) so that it can be seen not to eat the servers' two cores
(the asyncio client it replaced cost about four times as much per request).

    .venv/bin/python bench/open_loop.py [--postgres URL] [--workers 1,2,4] [--seconds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    ROOT,
    HttpClient,
    ScratchStore,
    Server,
    default_postgres,
    scratch_store,
    update_section,
)
from bench.http_load import AUTH, create_games, machine, post_games
from bench.loadgen import LEDGER_PATH, PATHS, Step, closed_loop, open_loop

DEFAULT_RATES = "100,200,300,400,500,600,800,1000,1200,1500,2000"
VARIANTS = (
    "ledger",
    "ledger-1tx",
    "ledger-check",
    "ledger-rm-off",
    "ledger-rm-on",
    "ledger-sqlite",
    "bare",
    "bare-load",
    "floor",
    "baseline",
)


@dataclass
class Target:
    name: str
    server: Server
    targets: list[str]
    path: str
    """The request path (``bench.loadgen``: ``{}`` is the game or stream)."""
    steps: list[Step] = field(default_factory=list)
    closed: Step | None = None
    sent: int = 0

    def best(self, p99_ms: float) -> Step | None:
        ok = [s for s in self.steps if s.sustained(p99_ms)]
        return max(ok, key=lambda s: s.rate) if ok else None

    def failed(self, p99_ms: float) -> bool:
        return any(not s.sustained(p99_ms) for s in self.steps)


@contextmanager
def started(
    kind: str,
    postgres: str | None,
    workers: int,
    variants: list[str],
    games: int = 0,
    history: int = 0,
    baseline: str | None = None,
) -> Iterator[dict[str, Server]]:
    with ExitStack() as stack:
        found: dict[str, Server] = {}
        for variant in variants:
            on = "sqlite" if variant == "ledger-sqlite" else kind
            store: ScratchStore = stack.enter_context(scratch_store(on, postgres, "ol_" + re.sub(r"\W", "_", variant)))
            if variant == "bare":
                from bench.bare_app import make_application

                make_application(store.url, create_tables=True).close()
                server = Server.uvicorn_app("bench.bare_app:create_app", store, workers, BARE_CREATE_TABLES="0")
            elif variant == "baseline":
                if baseline is None:
                    raise ValueError("the baseline variant needs --baseline PATH (a checkout to serve)")
                server = Server.ledger(store, workers, PYTHONPATH=str(Path(baseline).resolve()))
            elif variant == "floor":
                server = Server.uvicorn_app("bench.bare_app:create_app", store, workers, BARE_FLOOR="1")
            elif variant == "bare-load":
                from bench.bare_app import create_load_application

                application = create_load_application(store.url, create_tables=True)
                prefill_streams(application, games, history)
                application.close()
                server = Server.uvicorn_app(
                    "bench.bare_app:create_app", store, workers, BARE_CREATE_TABLES="0", BARE_LOAD="1"
                )
            elif variant.startswith("ledger@"):
                server = Server.ledger(store, worker_count(variant), **(setting_env(variant) if "+" in variant else {}))
            elif variant.startswith("ledger+"):
                server = Server.ledger(store, workers, **setting_env(variant))
            else:
                extra = {
                    "ledger-1tx": {"MTG_LEDGER_GROUP_COMMIT": "0"},
                    "ledger-check": {"MTG_LEDGER_HEAD_CHECK": "on"},
                    # The read models in a worker (off) or in a process of their own (on).
                    "ledger-rm-off": {"MTG_LEDGER_READ_MODEL_PROCESS": "off"},
                    "ledger-rm-on": {"MTG_LEDGER_READ_MODEL_PROCESS": "on"},
                }.get(variant, {})
                server = Server.ledger(store, workers, **extra)
            found[variant] = stack.enter_context(server)
        yield found


def worker_count(variant: str) -> int:
    """``ledger@2`` (or ``ledger@2+SETTING=VALUE``) -> 2."""
    count = variant.partition("@")[2].partition("+")[0]
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"variant {variant!r}: expected ledger@N, N a worker count")
    return int(count)


def setting_env(variant: str) -> dict[str, str]:
    """``ledger+group_commit_ms=3+head_watch=off`` -> the server's environment for those settings."""
    pairs = [part.split("=", 1) for part in variant.split("+")[1:]]
    if not pairs or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
        raise ValueError(f"variant {variant!r}: expected ledger+SETTING=VALUE[+SETTING=VALUE...]")
    return {f"MTG_LEDGER_{name.upper()}": value for name, value in pairs}


def prefill_streams(application: Any, games: int, history: int) -> None:
    """``bare-load``'s streams with ``history`` events each, saved before its server starts (as
    the ledger's games are imported with as many): what a load reads grows with them."""
    from bench.bare_app import PAYLOAD, Tally

    if history <= 0:
        return
    for i in range(games):
        tally = Tally(f"s{i:05d}")
        for _ in range(history - 1):
            tally.record(PAYLOAD)
        application.save(tally)


async def import_games(port: int, count: int, history: int, clients: int) -> list[str]:
    """``count`` games of ``history`` events each (``bench/replay.py``'s game: the same cards,
    one undo in 50 actions), imported through ``POST /v1/games/import`` (admin)."""
    from bench.replay import build_export

    def request(gid: str, table: int) -> tuple[str, bytes]:
        return "/v1/games/import", ("\n".join(build_export(gid, history, table)) + "\n").encode()

    return await post_games(port, count, clients, request, {**AUTH, "Content-Type": "application/x-ndjson"})


async def caught_up(port: int, ids: list[str], version: int, timeout: float = 600.0) -> float:
    """Wait until the read models have projected every game at ``version`` (the game list, and
    the matches of round 1: a table each); returns the seconds waited. Games just imported
    leave the read models 100,000 events behind: measuring before they caught up would charge
    the ledger for a catch-up a server in play has long finished."""
    http = HttpClient(port, AUTH)
    begin = time.perf_counter()
    try:
        while time.perf_counter() - begin < timeout:
            status, _, text = await http.request("GET", "/v1/games?event=Bench")
            games = json.loads(text)["games"] if status == 200 else []
            if len(games) == len(ids) and all(g["version"] >= version for g in games):
                status, _, text = await http.request("GET", "/v1/events/Bench/rounds/1")
                tables = json.loads(text)["tables"] if status == 200 else []
                if sum(len(t["games"]) for t in tables) == len(ids):
                    return time.perf_counter() - begin
            await asyncio.sleep(0.5)
        raise RuntimeError(f"the read models did not catch up in {timeout:.0f} s")
    finally:
        await http.close()


async def settled(port: int, timeout: float = 120.0) -> float:
    """Wait until the game list stops changing while nothing is sent: the read models have
    projected what the last step stored. An overloaded step leaves them behind, and their
    catch-up would otherwise be charged to the next step or closed-loop window (and, with
    several workers, to whichever worker runs them). Returns the seconds waited."""
    http = HttpClient(port, AUTH)
    begin = time.perf_counter()
    previous: bytes | None = None
    try:
        while time.perf_counter() - begin < timeout:
            status, _, text = await http.request("GET", "/v1/games?event=Bench")
            if status == 200 and text == previous:
                return time.perf_counter() - begin
            previous = text
            await asyncio.sleep(0.3)
        raise RuntimeError(f"the read models were still moving after {timeout:.0f} s")
    finally:
        await http.close()


def settle(target: Target) -> None:
    if not (target.name.startswith("bare") or target.name == "floor"):  # a ledger: its read models
        asyncio.run(settled(target.server.port))


def measure(kind: str, postgres: str | None, workers: int, args: argparse.Namespace) -> list[Target]:
    variants = args.variants.split(",")
    rates = [float(r) for r in args.rates.split(",")]
    with started(kind, postgres, workers, variants, args.games, args.history, args.baseline) as servers:
        targets: list[Target] = []
        for name in variants:
            server = servers[name]
            if name.startswith("bare") or name == "floor":
                ids = [f"s{i:05d}" for i in range(args.games)]
                targets.append(Target(name, server, ids, PATHS[name]))
            else:
                if args.history:
                    ids = asyncio.run(import_games(server.port, args.games, args.history, 8))
                else:
                    ids, _ = asyncio.run(create_games(server.port, args.games, 16))
                waited = asyncio.run(caught_up(server.port, ids, max(args.history, 1)))
                print(f"  {kind} w{workers} {name}: read models caught up in {waited:.1f} s", flush=True)
                targets.append(Target(name, server, ids, LEDGER_PATH))
        for n, rate in enumerate(rates):
            live = [t for t in targets if not t.failed(args.p99)]
            if not live:
                break
            for t in live if n % 2 == 0 else live[::-1]:
                settle(t)
                open_loop(t.server.port, t.targets, t.path, rate, 1.0, args.connections, t.sent, tables=args.tables)
                t.sent += int(rate)
                for attempt in range(2):  # a rate fails only when a second try fails too
                    step = open_loop(
                        t.server.port,
                        t.targets,
                        t.path,
                        rate,
                        args.seconds,
                        args.connections,
                        t.sent,
                        tables=args.tables,
                    )
                    t.sent += int(rate * args.seconds)
                    verdict = "ok" if step.sustained(args.p99) else "NOT sustained"
                    print(f"  {kind} w{workers} {t.name:10s} {rate:6.0f}/s: {step.summary()} [{verdict}]", flush=True)
                    if step.sustained(args.p99) or attempt == 1:
                        t.steps.append(step)
                        break
        for r in range(args.closed_rounds):
            for t in targets if r % 2 == 0 else targets[::-1]:
                settle(t)
                step = closed_loop(t.server.port, t.targets, t.path, args.clients, args.seconds)
                if t.closed is None:
                    t.closed = step
                else:
                    t.closed.latencies += step.latencies
                    t.closed.errors += step.errors
                    t.closed.seconds += step.seconds
                    t.closed.client_cpu += step.client_cpu
        for t in targets:
            assert t.closed is not None
            print(f"  {kind} w{workers} {t.name:10s} closed loop ({args.clients} clients): {t.closed.summary()}")
        return targets


def baselines(names: list[str]) -> list[str]:
    """The bare stacks the ledger is compared with (a ratio column each), when it ran too."""
    return [b for b in ("bare", "bare-load") if "ledger" in names and b in names]


def history_note(history: int) -> str:
    if not history:
        return "Games and streams start empty (new games)."
    return (
        f"Each game was imported with {history:,} events before the first measured action (and each bare-load "
        f"stream saved with as many): games in play, not new ones."
    )


def connections_note(args: argparse.Namespace) -> str:
    if args.tables:
        return "every game on a keep-alive connection of its own (`--tables`)"
    return f"on any free keep-alive connection of at most {args.connections}"


def load_average() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "n/a"


def open_ratio(mine: Step | None, theirs: Step | None, lowest: float) -> str:
    """The ledger's highest sustained rate over the baseline's; when the baseline sustained
    none of the ladder (less than its lowest rate), the ledger's over the lowest rate: a bound."""
    if mine is None:
        return "n/a" if theirs is None else "0.00"
    if theirs is None:
        return f"> {mine.rate / lowest:.2f}"
    return f"{mine.rate / theirs.rate:.2f}"


def cell(step: Step | None) -> str:
    if step is None:
        return "none"
    return f"{step.rate:,.0f} ({step.ms(50):.1f} / {step.ms(99):.1f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--sqlite-only", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--postgres-only", action="store_true", help="skip SQLite")
    parser.add_argument("--workers", default="1,2,4", help="worker counts (default 1,2,4)")
    parser.add_argument("--variants", default="ledger,bare", help=f"servers, of {','.join(VARIANTS)}")
    parser.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    parser.add_argument(
        "--history",
        type=int,
        default=0,
        help="events each game (and bare-load stream) holds before the measured actions (default 0: new games)",
    )
    parser.add_argument("--rates", default=DEFAULT_RATES, help=f"the ladder of rates (default {DEFAULT_RATES})")
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per step (default 5)")
    parser.add_argument("--p99", type=float, default=50.0, help="p99 bound in ms (default 50)")
    parser.add_argument("--connections", type=int, default=256, help="open-loop connections at most (default 256)")
    parser.add_argument(
        "--tables", action="store_true", help="open loop: each game on a keep-alive connection of its own"
    )
    parser.add_argument("--clients", type=int, default=16, help="closed-loop connections (default 16)")
    parser.add_argument("--closed-rounds", type=int, default=2, help="closed-loop windows per server (default 2)")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"), help="report to update")
    parser.add_argument("--no-report", action="store_true", help="print only")
    parser.add_argument(
        "--baseline", help="a checkout of another commit, served as the variant 'baseline' (e.g. a git worktree)"
    )
    args = parser.parse_args(argv)
    for v in args.variants.split(","):
        if v.startswith(("ledger+", "ledger@")):
            try:
                if v.startswith("ledger@"):
                    worker_count(v)
                if "+" in v:
                    setting_env(v)
            except ValueError as err:
                parser.error(str(err))
        elif v not in VARIANTS:
            parser.error(f"unknown variant {v!r}")
    if ("baseline" in args.variants.split(",")) != (args.baseline is not None):
        parser.error("--baseline PATH and the variant 'baseline' go together")
    stores = [] if args.postgres_only else ["sqlite"]
    if args.postgres and not args.sqlite_only:
        stores.append("postgresql")
    began = f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, load average {load_average()}"
    rows: list[str] = []
    for kind in stores:
        for workers in (int(w) for w in args.workers.split(",")):
            print(f"{kind}, {workers} worker(s); load average {load_average()}", flush=True)
            found = measure(kind, args.postgres, workers, args)
            by = {t.name: t for t in found}
            label = "SQLite" if kind == "sqlite" else "PostgreSQL"
            cells = []
            for name in by:
                cells.append(cell(by[name].best(args.p99)))
            closed = [f"{c.achieved:,.0f}" if (c := by[name].closed) is not None else "n/a" for name in by]
            ratio = ""
            for base in baselines(list(by)):
                mine, theirs = by["ledger"].best(args.p99), by[base].best(args.p99)
                lc, bc = by["ledger"].closed, by[base].closed
                closed_ratio = f"{lc.achieved / bc.achieved:.2f}" if lc and bc and bc.achieved else "n/a"
                lowest = float(args.rates.split(",")[0])
                ratio += f" **{open_ratio(mine, theirs, lowest)}** | **{closed_ratio}** |"
            cpu = max(
                (100 * s.client_cpu / s.seconds for t in found for s in t.steps if s.seconds), default=float("nan")
            )
            rows.append(
                f"| {label} | {workers} | "
                + " | ".join(cells)
                + " | "
                + " | ".join(closed)
                + " |"
                + ratio
                + f" {cpu:.0f}% |"
            )
            print(rows[-1], flush=True)
    ended = f"{time.strftime('%H:%M', time.gmtime())} UTC, load average {load_average()}"
    names = args.variants.split(",")
    header = (
        "| store | workers | "
        + " | ".join(f"{n}: highest sustained rate/s (p50 / p99 ms)" for n in names)
        + " | "
        + " | ".join(f"{n}: closed loop actions/s" for n in names)
        + " |"
        + "".join(f" ledger / {b}, open loop | ledger / {b}, closed loop |" for b in baselines(names))
        + " client CPU, most (% of one core) |"
    )
    columns = header.count("|") - 1
    table = "\n".join([header, "|" + "---|" * 2 + "---:|" * (columns - 2), *rows])
    print(table)
    if args.no_report:
        return 0
    python = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else "python3"
    text = f"""
Command (from the repository root):

```sh
{" ".join([python, "bench/open_loop.py", *sys.argv[1:]])}
```

Machine: {machine()}; began {began}, ended {ended} (2 cores, shared with other people's test
runs: a load average above 2 means the servers were not alone on the cores). The load
generator is `bench/loadgen.c`, one epoll process on the same cores (its CPU share is the last
column).

Open loop over {args.games:,} games: each action sent at its scheduled time whatever the
answers, latency counted from that time, {connections_note(args)}; a rate is sustained when p99 <= {args.p99:g} ms, the
answers kept up (>= 95% of the rate) and < 1% were errors. Rates tried: {args.rates} per
second, {args.seconds:g} s measured after 1 s of warm-up, the servers taking turns at each rate;
a rate counts as failed when a second try fails too.
Closed loop: {args.clients} connections, {args.closed_rounds} x {args.seconds:g} s windows each.
{history_note(args.history)}

{table}
"""
    update_section(Path(args.output), "open-loop", text, "## Open loop: the highest rate at p99 <= 50 ms (issue 15)")
    print(f"updated {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
