"""How long one full garbage collection holds a warm worker, with and without the start-up heap
frozen (``api.heap``; a benchmark, not a test).

Each variant runs in a fresh Python process: the app as ``serve`` runs it
(``create_served_app``, frozen) or as built directly (``create_app``, not frozen) starts on a
scratch SQLite store through its real lifespan; ``--games`` games of ``--history`` events are
imported over the API and one action is recorded on each (every head cached, every route used);
then ``gc.collect()`` (a full pass, what generation 2 costs when it comes due) is timed
``--repeats`` times. The variants alternate, ``--rounds`` times. Printed: the median and the
largest pause, and how many objects a full pass walks. Writes nothing.

    .venv/bin/python bench/gc_pause.py [--games 1000] [--history 100] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ADMIN = "gc-bench-admin"


def one_variant(frozen: bool, games: int, history: int, repeats: int) -> dict[str, float]:
    import gc

    from fastapi.testclient import TestClient

    from api.app import create_app, create_served_app
    from bench.replay import build_export

    headers = {"Authorization": f"Bearer {ADMIN}"}
    app = create_served_app() if frozen else create_app()
    with TestClient(app) as client:
        for i in range(games):
            gid = f"gc-{i:05d}"
            body = ("\n".join(build_export(gid, history, i + 1)) + "\n").encode()
            status = client.post(
                "/v1/games/import", content=body, headers={**headers, "Content-Type": "application/x-ndjson"}
            ).status_code
            assert status == 201, status
            action = {"type": "gain_life", "player": "P1", "amount": 1}
            assert client.post(f"/v1/games/{gid}/actions", json=action, headers=headers).status_code == 201
        pauses = []
        for _ in range(repeats):
            begin = time.perf_counter()
            gc.collect()
            pauses.append((time.perf_counter() - begin) * 1000)
        return {
            "median_ms": statistics.median(pauses),
            "max_ms": max(pauses),
            "walked": len(gc.get_objects()),
            "frozen": gc.get_freeze_count(),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--history", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--variant", choices=["frozen", "not-frozen"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.variant is not None:  # the child: one variant, its result as JSON
        print(json.dumps(one_variant(args.variant == "frozen", args.games, args.history, args.repeats)))
        return 0
    print("| round | start-up heap | full collection: median / largest ms | objects walked | objects frozen |")
    print("|---:|---|---:|---:|---:|")
    for round_ in range(1, args.rounds + 1):
        for variant in ("not-frozen", "frozen"):
            with tempfile.TemporaryDirectory(prefix="gc_pause") as directory:
                env = {
                    **{k: v for k, v in os.environ.items() if not k.startswith("MTG_LEDGER_")},
                    "MTG_LEDGER_DATABASE_URL": f"sqlite:///{directory}/ledger.sqlite3",
                    "MTG_LEDGER_ADMIN_TOKEN": ADMIN,
                    "MTG_LEDGER_CATALOG_PATH": f"{directory}/cards.json",
                }
                argv_child = [sys.executable, __file__, "--variant", variant, "--games", str(args.games)]
                argv_child += ["--history", str(args.history), "--repeats", str(args.repeats)]
                out = subprocess.run(argv_child, env=env, cwd=directory, capture_output=True, text=True, check=True)
                got = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"| {round_} | {variant} | {got['median_ms']:.1f} / {got['max_ms']:.1f} | {got['walked']:,} "
                f"| {got['frozen']:,} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
