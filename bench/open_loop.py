"""Open-loop load: the highest action rate each server sustains with p99 <= 50 ms (a benchmark).

Open loop: action ``i`` is *scheduled* at ``start + i / rate`` and sent at that time whatever the
earlier answers (on a free keep-alive connection, or a new one up to ``--connections``), and its
latency is counted from the scheduled time, so a server that falls behind is charged for the
queue it builds (no coordinated omission). A rate is **sustained** when, over the measured
window, p99 <= ``--p99`` ms (default 50), the answers came at >= 95% of the rate and fewer than
1% were errors.

For each store (SQLite; PostgreSQL with ``--postgres``) and worker count (``--workers``, default
1,2,4), the servers of ``--variants`` start side by side, each on a fresh store of its own
(``bench/variants.py`` starts them; ``bench/open_loop_report.py`` writes the report):

- ``ledger``: ``mtg-ledger serve --workers N`` (group commit on, the default);
- (``ledger-1tx``, ``ledger-check``, ``ledger-rm-off`` and ``ledger-rm-on`` forced the settings
  issue 29 retired: the server now chooses them, so they are gone; to measure such a choice,
  change its default in a checkout and run it as ``baseline``);
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
  (``MTG_LEDGER_SETTING=VALUE``, e.g. ``ledger+snapshot_interval=100``), so a setting is
  measured against the default in one run;
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
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import ROOT, default_postgres
from bench.http_load import create_games
from bench.loadgen import LEDGER_PATH, PATHS, closed_loop, open_loop
from bench.open_loop_report import Target, load_average, row, table, write_section
from bench.variants import VARIANTS, caught_up, import_games, is_bare, settled, started, variant_error

# bench/cpu_split.py imports the servers and the games from here, as before the split.
__all__ = ["caught_up", "import_games", "main", "measure", "started"]

DEFAULT_RATES = "100,200,300,400,500,600,800,1000,1200,1500,2000"


def settle(target: Target) -> None:
    if not is_bare(target.name):  # a ledger: its read models
        asyncio.run(settled(target.server.port))


def measure(kind: str, postgres: str | None, workers: int, args: argparse.Namespace) -> list[Target]:
    variants = args.variants.split(",")
    rates = [float(r) for r in args.rates.split(",")]
    with started(kind, postgres, workers, variants, args.games, args.history, args.baseline) as servers:
        targets: list[Target] = []
        for name in variants:
            server = servers[name]
            if is_bare(name):
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
        error = variant_error(v)
        if error is not None:
            parser.error(error)
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
            rows.append(row(kind, workers, found, args))
            print(rows[-1], flush=True)
    ended = f"{time.strftime('%H:%M', time.gmtime())} UTC, load average {load_average()}"
    results = table(args.variants.split(","), rows)
    print(results)
    if args.no_report:
        return 0
    write_section(args, began, ended, results)
    print(f"updated {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
