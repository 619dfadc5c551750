"""Replay benchmark: the state at random versions of long games (not a test).

For games of 1,000, 10,000 and 100,000 events it times, at the same random versions:

- ``state_at`` with snapshots (every ``--interval`` events) and the service's fast projector,
  against a snapshot hit (``get`` at the snapshot at or below the version: nothing replayed);
  goal: at most 3x;
- ``get`` without snapshots (a full replay from version 1, same projector; up to ``--full-max``);
- the library's own ``Repository.get(id, version=V)`` with its default ``project_aggregate``
  projector, hitting the same snapshots (the per-event ``isinstance(..., Protocol)`` assert that
  docs/architecture.md notes took about 60% of replay time);

and the full-fold throughput of ``domain.fold`` over each whole game (goal: 100,000 events/s).

Games are built in memory through the domain (``decide``), written as an export file and
imported, so building them costs one save each. Results and the exact command line go to
``docs/performance.md`` (these machines are noisy: compare the ratios of one run).

    .venv/bin/python bench/replay.py [--postgres postgresql://postgres@127.0.0.1:5432/test] [--sizes 1000,10000]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any
from uuid import uuid4

from eventsourcing.application import project_aggregate

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import default_postgres, update_section
from domain import events as ev
from domain import fold
from domain.cards.catalog import bundled_catalog
from domain.commands import parse_command
from domain.decide import run
from domain.evolve import evolve
from domain.setup import game_started
from domain.state import GameState
from domain.undo import revert_event
from ledger.game_files import export_lines
from ledger.service import LedgerService, LedgerSettings
from store.aggregate import Game, project_game
from store.hash_chain import GENESIS_HASH, seal
from store.repository import recorded as recorded_event
from store.results import Actor, RecordedEvent

ROOT = Path(__file__).resolve().parents[1]
ACTOR = Actor("bench", "judge")
GAME = {
    "variant": "two_player",
    "tournament": {"event": "Bench", "round": 1, "table": 1},
    "players": [{"id": "P1", "counters": {"rad": 1}}, {"id": "P2"}],
    "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}}],
}
COMMANDS: list[dict[str, Any]] = [
    {"type": "add_counters", "target": {"player": "P2"}, "kind": "rad", "amount": 1},
    {"type": "add_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1},
    {"type": "gain_life", "player": "P1", "amount": 1},
    {"type": "lose_life", "player": "P1", "amount": 1},
    {"type": "note", "text": "judge call at the table"},
    {"type": "remove_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1, "up_to": True},
]


def build_export(game_id: str, size: int, table: int = 1) -> list[str]:
    """An export file of a game with exactly ``size`` events; every 50th action is an undo.
    ``table``: the tournament table the game is played at (its match, ``projections.matches``)."""
    catalog = bundled_catalog()
    at = datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
    recorded: list[RecordedEvent] = []
    states: list[GameState] = []
    prev = GENESIS_HASH

    def store(events: list[ev.Event]) -> None:
        nonlocal prev
        sealed = seal(
            game_id,
            events,
            after=len(recorded),
            prev_hash=prev,
            action_id=str(uuid4()),
            actor=ACTOR.to_json(),
            recorded_at=at,
        )
        recorded.extend(recorded_event(e) for e in sealed)
        prev = sealed[-1].hash if sealed else prev

    start = game_started(
        {**GAME, "tournament": {"event": "Bench", "round": 1, "table": table}}, game_id, catalog.resolve
    )
    store([start])
    state = evolve(None, start)  # type: ignore[arg-type]
    states.append(state)
    step = 0
    while len(recorded) < size:
        step += 1
        if step % 50 == 0 and len(recorded) > 3:
            target = len(recorded) - 3
            events = [revert_event(len(recorded), target, "bench backup", states[target - 1])]
        else:
            events, _ = run(state, parse_command(COMMANDS[step % len(COMMANDS)], catalog.resolve))
        events = events[: size - len(recorded)]
        store(events)
        for event in events:  # the state at each version, for undo targets
            state = evolve(state, event)
            states.append(state)
    return list(export_lines(game_id, recorded, at))


@dataclass(frozen=True, slots=True)
class _Mutating:
    """One stored record under the library's ``CanMutateProtocol``, so its stock
    ``project_aggregate`` (with its per-event protocol assert) can fold games for comparison;
    the records themselves carry no ``mutate`` (the store folds with ``project_game``)."""

    record: Any

    @property
    def originator_id(self) -> str:
        return str(self.record.originator_id)

    @property
    def originator_version(self) -> int:
        return int(self.record.originator_version)

    def mutate(self, game: Any) -> Any:
        return project_game(game, (self.record,))


def library_projector(game: Any, records: Iterable[Any]) -> Any:
    """The library's default projector over the ledger's records."""
    return project_aggregate(game, (_Mutating(r) for r in records))


def get_with(projector: Any) -> Callable[[LedgerService, int], object]:
    """A historical read through the library's repository with the given projector."""

    def read(service: LedgerService, version: int) -> object:
        game: Game = service.app.repository.get("bench", version=version, projector_func=projector)
        return game

    return read


def interleaved(methods: dict[str, Callable[[int], object]], versions: list[int]) -> dict[str, list[float]]:
    """Time every method at every version, rotating their order so drift hits all alike."""
    names = list(methods)
    out: dict[str, list[float]] = {name: [] for name in names}
    for i, version in enumerate(versions):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            begin = time.perf_counter()
            methods[name](version)
            out[name].append(time.perf_counter() - begin)
    return out


def fold_cost(service: LedgerService, projector: Any, rounds: int = 3) -> float:
    """Best-of-``rounds`` microseconds per event to fold the whole game in memory (no I/O)."""
    records = list(service.app.events.get("bench"))
    best = float("inf")
    for _ in range(rounds):
        begin = time.perf_counter()
        projector(None, records)
        best = min(best, time.perf_counter() - begin)
    return best / len(records) * 1e6


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.2f} / {statistics.fmean(seconds) * 1000:.2f}"


@contextmanager
def stores(postgres: str | None) -> Iterator[list[tuple[str, Callable[[str], str]]]]:
    """(label, url-for-a-fresh-database) per store; PostgreSQL gets a scratch schema per database."""
    with tempfile.TemporaryDirectory() as tmp:
        found: list[tuple[str, Callable[[str], str]]] = [
            ("SQLite", lambda name: f"sqlite:///{Path(tmp) / name}.sqlite3")
        ]
        schemas: list[str] = []
        if postgres:
            import psycopg

            def pg(name: str) -> str:
                schema = f"bench_{os.getpid()}_{name}"
                with psycopg.connect(postgres, autocommit=True) as conn:
                    conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
                    conn.execute(f'CREATE SCHEMA "{schema}"')
                schemas.append(schema)
                return f"{postgres}{'&' if '?' in postgres else '?'}schema={schema}"

            found.append(("PostgreSQL", pg))
        try:
            yield found
        finally:
            if postgres and schemas:
                import psycopg

                with psycopg.connect(postgres, autocommit=True) as conn:
                    for schema in schemas:
                        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def snapshot_hit(read: Callable[[LedgerService, int], object], service: LedgerService, interval: int, v: int) -> object:
    """A read at the snapshot at or below ``v``: the snapshot alone, nothing replayed."""
    return read(service, max(1, v // interval * interval))


def domain_fold_rate(lines: list[str], rounds: int = 5, least: float = 2.0) -> float:
    """Best events per second of ``domain.fold`` over the whole game's events (decoded from the
    export file beforehand: the pure kernel's fold, no store, no wrapper): the best of at least
    ``rounds`` folds and of at least ``least`` seconds of folding. A 1k-event fold takes a few
    milliseconds, and this machine's speed drifts within seconds: one 10k-event game folded 12
    times in a row went 140,000 -> 213,000 -> 136,000 events/s (2026-12-02), and best-of-three
    of 1k-event folds ranged 125,000-216,000. Two seconds of folds span such spells. Each fold
    starts after a full collection, so one fold's garbage is not collected in another's time."""
    events = [ev.Event.parse(d["type"], d["data"], d.get("rule")) for d in map(json.loads, lines[1:])]
    best = float("inf")
    spent = 0.0
    done = 0
    while done < rounds or spent < least:
        gc.collect()
        begin = time.perf_counter()
        fold(events)
        took = time.perf_counter() - begin
        best, spent, done = min(best, took), spent + took, done + 1
    return len(events) / best


def measure(
    label: str, url_for: Callable[[str], str], sizes: list[int], reads: int, interval: int, full_max: int
) -> list[str]:
    rows = []
    fast_get, library_get = get_with(project_game), get_with(library_projector)
    for size in sizes:
        lines = build_export("bench", size)
        with_full = size <= full_max
        snap = LedgerService(url_for(f"snap{size}"), LedgerSettings(snapshot_interval=interval, read_models=False))
        full = (
            LedgerService(url_for(f"full{size}"), LedgerSettings(snapshot_interval=0, read_models=False))
            if with_full
            else None
        )
        try:
            begin = time.perf_counter()
            snap.import_game(lines, ACTOR)
            import_s = time.perf_counter() - begin
            if full is not None:
                full.import_game(lines, ACTOR)
            versions = random.Random(size).choices(range(1, size + 1), k=reads)
            assert all(library_get(snap, v) == fast_get(snap, v) for v in versions[:5])
            if full is not None:
                assert all(fast_get(full, v) == fast_get(snap, v) for v in versions[:5])
            methods: dict[str, Callable[[int], object]] = {
                "state_at": partial(snap.state_at, "bench"),
                "fast": partial(fast_get, snap),
                "library": partial(library_get, snap),
                "hit": partial(snapshot_hit, fast_get, snap, interval),
            }
            if full is not None:
                methods["full"] = partial(fast_get, full)
            for method in methods.values():  # warm connections and statement caches
                method(1)
            t = interleaved(methods, versions)
            mean = {name: statistics.fmean(times) for name, times in t.items()}
            fast_us, library_us = fold_cost(snap, project_game), fold_cost(snap, library_projector)
            fold_rate = domain_fold_rate(lines)
            no_snap = f"{ms(t['full'])} | {mean['full'] / mean['fast']:.1f}x" if "full" in t else "n/a | n/a"
            rows.append(
                f"| {label} | {size:,} | {ms(t['state_at'])} | {ms(t['hit'])} "
                f"| **{mean['state_at'] / mean['hit']:.2f}x** | {ms(t['fast'])} | {ms(t['library'])} "
                f"| {mean['library'] / mean['fast']:.2f}x | {no_snap} "
                f"| {fast_us:.1f} / {library_us:.1f} ({library_us / fast_us:.1f}x) | **{fold_rate:,.0f}** "
                f"| {import_s:.2f} |"
            )
            print(rows[-1], flush=True)
        finally:
            snap.close()
            if full is not None:
                full.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", default="1000,10000,100000", help="game lengths in events (default: 1k, 10k, 100k)")
    parser.add_argument("--reads", type=int, default=100, help="random versions read per game (default 100)")
    parser.add_argument("--interval", type=int, default=25, help="snapshot interval (default 25, the server's)")
    parser.add_argument(
        "--full-max", type=int, default=10000, help="largest game also replayed without snapshots (default 10000)"
    )
    parser.add_argument("--postgres", default=default_postgres(), help="also run on this PostgreSQL server")
    parser.add_argument("--sqlite-only", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"), help="the report to update")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    python = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else "python3"
    command = " ".join([python, *(["-O"] if sys.flags.optimize else []), "bench/replay.py", *sys.argv[1:]])
    header = (
        "| store | events | `state_at` | `get` at a snapshot (hit) | `state_at` / hit "
        "| `get` + fast projector | `get` + library projector | library / fast "
        "| `get`, no snapshots | no snapshots / snapshots "
        "| in-memory fold µs per event: fast / library | `domain.fold` events/s | import s |"
    )
    rows = ["", header, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    print("\n".join(rows[1:]), flush=True)
    with stores(None if args.sqlite_only else args.postgres) as found:
        for label, url_for in found:
            rows += measure(label, url_for, sizes, args.reads, args.interval, args.full_max)
    write_report(Path(args.output), command, args, rows)
    return 0


def write_report(path: Path, command: str, args: argparse.Namespace, rows: list[str]) -> None:
    machine = (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    text = SECTION.format(
        command=command,
        machine=machine,
        reads=args.reads,
        interval=args.interval,
        full_max=args.full_max,
        table="\n".join(rows).strip(),
    )
    update_section(path, "replay", text, "## Replay: the state at a random version")
    print(f"updated {path}")


SECTION = """Command (from the repository root):

```sh
{command}
```

Machine: {machine}.

Each game is built in memory through the rules (one action in 50 is an undo, whose
`ActionsReverted` carries a whole state), imported (one atomic save), then read at the same
{reads} random versions, the methods interleaved version by version so that drift affects all
of them alike. Times are median / mean milliseconds per read.

- **`state_at`**: `LedgerService.state_at(game, V)`, snapshots every {interval} events: what the
  API calls (it also loads the head, to check V against it).
- **`get` at a snapshot (hit)**: the library's `Repository.get(game, version=S)` with the fast
  projector, where S is the snapshot at or below V: a snapshot hit, nothing to replay.
  **`state_at` / hit** is the goal's ratio (at most 3x).
- **`get` + fast projector**: `Repository.get(game, version=V)` with
  `store.aggregate.project_game`, over the same snapshots.
- **`get` + library projector**: the same call with the library's default `project_aggregate`
  (a per-event `assert isinstance(event, CanMutateProtocol)`), over the same snapshots.
- **no snapshots**: the fast `get` on a copy of the game stored with snapshots off: a full
  replay from version 1 (games of at most {full_max:,} events; n/a above).
- **in-memory fold**: best of three folds of the whole game's decoded stored events, no
  database: the projector's own cost per event.
- **`domain.fold` events/s**: the best `domain.fold` run (of at least five and at least two
  seconds of folding, each after a full collection) over the whole game's domain events, no
  store: the rules kernel's fold (goal: at least 150,000 events/s, issue 15; 100,000 before).

{table}

Reading the table: with snapshots, a read replays at most one interval, so its cost does not
grow with the game's length; without them it grows linearly with V ("no snapshots /
snapshots"). At most {interval} events per read, the projector's per-event saving is small next
to the queries and the snapshot's decoding ("library / fast" near 1); it is what a full replay
and an import pay per event (the in-memory fold column).
"""


if __name__ == "__main__":
    raise SystemExit(main())
