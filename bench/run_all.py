"""Run every benchmark, one after the other, each updating its section of docs/performance.md.

``make bench`` runs this with no arguments: the default run takes about 10 minutes on the
2-core machines. PostgreSQL is included when ``MTG_LEDGER_BENCH_POSTGRES`` or
``MTG_LEDGER_TEST_POSTGRES`` names a server (or with ``--postgres URL``); otherwise SQLite only.

    .venv/bin/python bench/run_all.py [--postgres URL] [--long] [--only replay,http,memory]

``--long`` measures longer (more reads, longer windows, more rounds, bigger catch-up) for numbers
with less noise; the default run is meant to be repeatable within one sitting.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import ROOT, default_postgres

BENCHES: dict[str, tuple[str, list[str], list[str]]] = {
    # name: (script, default arguments, --long arguments)
    "replay": ("bench/replay.py", [], ["--reads", "300"]),
    "http": ("bench/http_load.py", [], ["--window", "8", "--rounds", "3"]),
    "memory": ("bench/memory_catchup.py", [], ["--games", "500", "--memory-games", "1000"]),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--postgres", default=default_postgres(), help="PostgreSQL server (default: env)")
    parser.add_argument("--long", action="store_true", help="longer, less noisy measurements")
    parser.add_argument("--only", default=",".join(BENCHES), help=f"comma-separated subset of {list(BENCHES)}")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"), help="report to update")
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(BENCHES))
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}; choose from {list(BENCHES)}")
    if not args.postgres:
        print("no PostgreSQL server given (MTG_LEDGER_TEST_POSTGRES / --postgres): SQLite only", flush=True)
    failed = []
    for name in chosen:
        script, default, long = BENCHES[name]
        command = [sys.executable, script, *(long if args.long else default)]
        if Path(args.output).resolve() != (ROOT / "docs" / "performance.md").resolve():
            command += ["--output", args.output]
        command += ["--postgres", args.postgres] if args.postgres else ["--sqlite-only"]
        print(f"\n== {name}: {' '.join(command[1:])}", flush=True)
        begin = time.monotonic()
        status = subprocess.call(command, cwd=ROOT)
        print(f"== {name}: exit {status} after {time.monotonic() - begin:.0f} s", flush=True)
        if status:
            failed.append(name)
    if failed:
        print(f"failed: {failed}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
