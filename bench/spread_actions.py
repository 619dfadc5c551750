"""Actions of each game spread over several processes on one PostgreSQL store, without HTTP: the
CPU and the reads each action costs (a benchmark, not a test).

``--processes`` services (``LedgerService``, each as one serving worker has it: group commit and
the head watch on) share one scratch PostgreSQL store in this one process. ``--games`` games
are created, then action ``i`` goes to game ``i mod games`` through a service picked at random,
as the open loop's actions reach the workers over any connection (``bench/open_loop.py``). The
actions run one after another, so each game's next action comes about ``games`` actions later,
long after the head watch's 20 ms. Reported per action, median of ``--rounds`` rounds:

- this process's CPU time (``time.process_time``: every service's request path and head watch
  together, PostgreSQL's server not), and the PostgreSQL server's (from ``/proc``, all of its
  processes: run it on a quiet machine);
- the reads of a game's events before the save (``select_events`` calls) and the saves that
  clashed (transactions beyond one per action).

It imports the checkout it is run from (the working directory), so the same script measures
another checkout too (copy it there), e.g. the commit before a change, in one session:

    .venv/bin/python bench/spread_actions.py [--postgres URL] [--processes 2] [--games 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.getcwd())

from bench.action_path import ACTIONS, ACTOR, GAME, counting
from bench.harness import default_postgres, scratch_store
from ledger.service import LedgerService, LedgerSettings


def postgres_cpu() -> float:
    """CPU seconds of every ``postgres`` process so far (``/proc``; 0 where it is not readable)."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def transactions(services: list[LedgerService]) -> int:
    return sum(s.committer.stats.transactions for s in services if s.committer is not None)


def measure(url: str, processes: int, games: int, actions: int, rounds: int) -> dict[str, float]:
    services = [LedgerService(url, LedgerSettings(read_models=False, watch_heads=True)) for _ in range(processes)]
    try:
        ids = [f"g{i:04d}" for i in range(games)]
        for gid in ids:
            services[0].create_game(GAME, ACTOR, gid)
        pick = random.Random(15)
        n = 0

        def act(count: int) -> None:
            nonlocal n
            for _ in range(count):
                game, turn = ids[n % games], n // games  # each game goes through the four actions in turn
                services[pick.randrange(processes)].act(game, ACTIONS[turn % 4], ACTOR)
                n += 1

        act(4 * games)  # warm up: every game cached, and known to be spread, in every service
        cpu, db, reads, clashes = [], [], [], []
        for _ in range(rounds):
            read = [0]
            saved = transactions(services)
            with_reads = [counting(s.app.recorder, "select_events", read) for s in services]
            for c in with_reads:
                c.__enter__()
            try:
                start, start_db = time.process_time(), postgres_cpu()
                act(actions)
                cpu.append((time.process_time() - start) / actions * 1e6)
                db.append((postgres_cpu() - start_db) / actions * 1e6)
            finally:
                for c in reversed(with_reads):
                    c.__exit__(None, None, None)
            reads.append(read[0] / actions)
            clashes.append((transactions(services) - saved - actions) / actions)
        return {
            "cpu": statistics.median(cpu),
            "db": statistics.median(db),
            "reads": statistics.median(reads),
            "clashes": statistics.median(clashes),
        }
    finally:
        for s in services:
            s.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--processes", type=int, default=2, help="services sharing the store (default 2)")
    parser.add_argument("--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--actions", type=int, default=1000, help="actions per round (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args()
    if not args.postgres:
        parser.error("needs PostgreSQL (--postgres or MTG_LEDGER_TEST_POSTGRES): the head watch is PostgreSQL's")
    with scratch_store("postgresql", args.postgres, prefix="spread") as store:
        got: dict[str, Any] = measure(store.url, args.processes, args.games, args.actions, args.rounds)
    print(
        "| processes | CPU µs per action (this process) | PostgreSQL CPU µs per action "
        "| reads before the save | clashes |"
    )
    print("|---:|---:|---:|---:|---:|")
    print(
        f"| {args.processes} | {got['cpu']:,.0f} | {got['db']:,.0f} | {got['reads']:.2f} | {got['clashes']:.3f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
