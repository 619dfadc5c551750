"""One action through the service, without HTTP: its time, its folds and its reads (a
benchmark, not a test).

On one game with its head cached (the common case: a table reporting into one worker), it runs
``--actions`` one-event actions (``gain_life``, ``add_counters``, ``lose_life``,
``remove_counters``) through ``LedgerService.act`` and reports, per action:

- the median time over ``--rounds`` rounds (microseconds): wall clock, and this process's CPU
  time (``time.process_time``: the service's own work, SQLite included, PostgreSQL's server
  not), which a busy shared machine disturbs far less than the wall clock;
- how many events the rules fold (``domain.evolve`` calls): the decision folds each event it
  emits; anything above one per event is a second fold;
- how many reads the store answers before the save (``select_events`` calls).

It imports the checkout it is run from (the working directory), so the same script measures
another checkout too (copy it there), e.g. the commit before a change, in one session:

    .venv/bin/python bench/action_path.py [--postgres URL] [--actions 400] [--rounds 5]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

sys.path.insert(0, os.getcwd())

from bench.harness import default_postgres, scratch_store
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor

ACTOR = Actor("bench", "admin")
GAME: dict[str, Any] = {
    "variant": "two_player",
    "players": [{"id": "P1", "counters": {"rad": 1}}, {"id": "P2"}],
    "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}}],
}
ACTIONS: list[dict[str, Any]] = [
    {"type": "gain_life", "player": "P1", "amount": 1},
    {"type": "add_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1},
    {"type": "lose_life", "player": "P1", "amount": 1},
    {"type": "remove_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1},
]


@contextmanager
def counting(owner: Any, name: str, counter: list[int]) -> Iterator[None]:
    """Count calls of ``owner.name`` (a function or a dict of functions) while inside."""
    real = getattr(owner, name)

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            counter[0] += 1
            return fn(*args, **kwargs)

        return counted

    setattr(owner, name, {k: wrap(v) for k, v in real.items()} if isinstance(real, dict) else wrap(real))
    try:
        yield
    finally:
        setattr(owner, name, real)


def measure(url: str, actions: int, rounds: int) -> tuple[float, float, float, float]:
    """(wall µs, CPU µs, folds, reads) per action."""
    with LedgerService(url, LedgerSettings(read_models=False)) as service:
        service.create_game(GAME, ACTOR, "bench")
        for i in range(50):  # warm up: imports, connections, the cache
            service.act("bench", ACTIONS[i % 4], ACTOR)
        folds, reads = [0], [0]
        with (
            counting(importlib.import_module("domain.fold").FOLDS, "_by_class", folds),
            counting(service.app.recorder, "select_events", reads),
        ):
            for i in range(40):
                service.act("bench", ACTIONS[i % 4], ACTOR)
        wall: list[float] = []
        cpu: list[float] = []
        for _ in range(rounds):
            start, start_cpu = time.perf_counter(), time.process_time()
            for i in range(actions):
                service.act("bench", ACTIONS[i % 4], ACTOR)
            wall.append((time.perf_counter() - start) / actions * 1e6)
            cpu.append((time.process_time() - start_cpu) / actions * 1e6)
        return statistics.median(wall), statistics.median(cpu), folds[0] / 40, reads[0] / 40


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--actions", type=int, default=400, help="actions per round (default 400)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args()
    kinds = ["sqlite", *(["postgresql"] if args.postgres else [])]
    print("| store | wall µs per action | CPU µs per action | folds per action | reads before the save |")
    print("|---|---:|---:|---:|---:|")
    for kind in kinds:
        with scratch_store(kind, args.postgres, prefix="actionpath") as store:
            wall, cpu, folds, reads = measure(store.url, args.actions, args.rounds)
        label = "SQLite" if kind == "sqlite" else "PostgreSQL"
        print(f"| {label} | {wall:,.0f} | {cpu:,.0f} | {folds:g} | {reads:g} |", flush=True)


if __name__ == "__main__":
    main()
