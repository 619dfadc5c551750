"""Memory per open game, and the game-summary read model's catch-up rate (not a test).

**Memory**: games are stored, then a fresh service (its game cache large enough for all of them)
opens every one; ``tracemalloc`` measures what the opened games keep alive (the cached head:
state, hash, reverts), divided by the number of games. Two shapes: the small benchmark game,
and a "full" one (two players with 60-card known libraries, 7-card hands, graveyards, twelve
permanents), each after ``--actions`` actions. The process's RSS growth is given beside it.

**Catch-up**: ``--games`` games of ``--events`` events each are stored with no read model
running; then a service with the projection runner starts and ``wait_for_read_model`` times how
long the game-summary view takes to process every stored record (events/s), on each store.

    .venv/bin/python bench/memory_catchup.py [--postgres URL] [--games 200] [--events 50]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sqlite3
import sys
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import ROOT, default_postgres, rss_kib, scratch_store, update_section
from bench.replay import ACTOR, build_export
from ledger.service import LedgerService, LedgerSettings

SMALL: dict[str, Any] = {
    "variant": "two_player",
    "tournament": {"event": "Bench", "round": 1, "table": 1},
    "players": [{"id": "P1", "counters": {"rad": 1}}, {"id": "P2"}],
    "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}}],
}
DECK = [
    {"name": "Forest", "type_line": "Basic Land — Forest"},
    {"name": "Grizzly Bears", "type_line": "Creature — Bear", "mana_cost": "{1}{G}", "power": "2", "toughness": "2"},
    {"name": "Lightning Bolt", "type_line": "Instant", "mana_cost": "{R}", "oracle_text": "deals 3 damage"},
    {"name": "Island", "type_line": "Basic Land — Island"},
]
FULL: dict[str, Any] = {
    "variant": "two_player",
    "tournament": {"event": "Bench", "round": 1, "table": 2},
    "players": [
        {"id": p, "counters": {"rad": 2}, "library": DECK * 15, "hand": DECK[:3] * 2 + DECK[:1], "graveyard": DECK * 2}
        for p in ("P1", "P2")
    ],
    "battlefield": [
        {"id": f"{kind}{i}", "card": card, "controller": "P1" if i % 2 else "P2", "counters": {"+1/+1": i}}
        for i in range(4)
        for kind, card in (("bear", "Grizzly Bears"), ("hydra", "Feral Hydra"), ("thopter", "Ornithopter"))
    ],
}
ACTIONS: list[dict[str, Any]] = [
    {"type": "gain_life", "player": "P1", "amount": 1},
    {"type": "add_counters", "target": {"player": "P2"}, "kind": "rad", "amount": 1},
    {"type": "lose_life", "player": "P1", "amount": 1},
    {"type": "note", "text": "judge call"},
]


def memory_per_game(url: str, body: dict[str, Any], games: int, actions: int) -> tuple[float, float]:
    """(KiB per open game by tracemalloc, KiB per game of RSS growth)."""
    with LedgerService(url, LedgerSettings(read_models=False)) as writer:
        for _ in range(games):
            gid = writer.create_game(body, ACTOR).game_id
            for n in range(actions):
                writer.act(gid, ACTIONS[n % len(ACTIONS)], ACTOR)
    with LedgerService(url, LedgerSettings(read_models=False, create_tables=False, cache_size=games * 2)) as reader:
        listed = reader.app.recorder.select_notifications(start=None, limit=1_000_000)
        game_ids = sorted({str(n.originator_id) for n in listed if not str(n.originator_id).startswith("_")})
        assert len(game_ids) == games
        reader.state_at(game_ids[0])  # warm imports and statement caches
        gc.collect()
        rss_before = rss_kib(os.getpid())
        tracemalloc.start()
        base, _ = tracemalloc.get_traced_memory()
        for gid in game_ids:
            reader.state_at(gid)
        gc.collect()
        current, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss_after = rss_kib(os.getpid())
    return (current - base) / 1024 / games, (rss_after - rss_before) / games


def catch_up(url: str, games: int, events: int) -> tuple[int, float]:
    """(records processed, records per second) for a cold read model."""
    with LedgerService(url, LedgerSettings(read_models=False)) as writer:
        for g in range(games):
            writer.import_game(build_export(f"cu-{g:05d}", events), ACTOR)
        total = writer.app.recorder.max_notification_id() or 0
    begin = time.perf_counter()
    with LedgerService(url, LedgerSettings(create_tables=False)) as service:
        service.wait_for_read_model(timeout=600)
        seconds = time.perf_counter() - begin
        assert len(service.list_games()) == games
    return total, total / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--sqlite-only", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--memory-games", type=int, default=300, help="games opened for the memory figure")
    parser.add_argument("--actions", type=int, default=30, help="actions per game for the memory figure")
    parser.add_argument("--games", type=int, default=200, help="games for the catch-up figure (default 200)")
    parser.add_argument("--events", type=int, default=50, help="events per game for catch-up (default 50)")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"), help="report to update")
    args = parser.parse_args(argv)
    memory_rows = []
    with scratch_store("sqlite") as small, scratch_store("sqlite") as full:
        for label, store, body in (("small (bench game)", small, SMALL), ("full (60-card libraries)", full, FULL)):
            kib, rss = memory_per_game(store.url, body, args.memory_games, args.actions)
            memory_rows.append(f"| {label} | {args.memory_games} | {args.actions} | {kib:.1f} | {rss:.1f} |")
            print(memory_rows[-1], flush=True)
    catch_rows = []
    kinds = ["sqlite"] + (["postgresql"] if args.postgres and not args.sqlite_only else [])
    for kind in kinds:
        with scratch_store(kind, args.postgres) as store:
            total, rate = catch_up(store.url, args.games, args.events)
            catch_rows.append(f"| {store.label} | {args.games} | {total:,} | **{rate:,.0f}** |")
            print(catch_rows[-1], flush=True)
    python = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else "python3"
    machine = (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    )
    text = f"""
Command (from the repository root; `make bench` runs it through `bench/run_all.py`):

```sh
{" ".join([python, "bench/memory_catchup.py", *sys.argv[1:]])}
```

Machine: {machine}.

**Memory per open game**: the games are stored, then a fresh service whose cache holds them all
opens each (`state_at`); `tracemalloc` counts what stays allocated (the cached head: state, last
hash, reverts), per game; "RSS" is the process's resident-size growth per game (allocator
overhead included). A server keeps `cache_size` (default 256) games per worker open.

| game | games | actions each | KiB per open game (tracemalloc) | KiB per game (RSS growth) |
|---|---:|---:|---:|---:|
{chr(10).join(memory_rows)}

**Read-model catch-up**: {args.games} games of {args.events} events are imported with no read model
running, then a service with the projection runner starts cold and `wait_for_read_model` times
the game-summary view's catch-up over every stored record (game events, import receipts).

| store | games | records | records/s |
|---|---:|---:|---:|
{chr(10).join(catch_rows)}
"""
    update_section(Path(args.output), "memory", text, "## Memory per open game and read-model catch-up")
    print(f"updated {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
