"""Hold N PostgreSQL connections while a command runs, and report the peak of connections.

The test suite shares its PostgreSQL server with whatever else runs on the machine (a server, a
psql, another checkout's tests): issue 43 saw ``make test`` fail with "too many clients" beside
another client's connections. This holds that other client's share and runs the command beside
it::

    .venv/bin/python bench/hold_connections.py -n 40 -- make test
    .venv/bin/python bench/hold_connections.py -n 40 --watch mtgl_suite -- \\
        env MTG_LEDGER_TEST_POSTGRES='postgresql://postgres@127.0.0.1:5432/test?application_name=mtgl_suite' \\
        .venv/bin/pytest -q -m postgres tests/store

The server is ``--url`` or ``MTG_LEDGER_TEST_POSTGRES``. The N connections are opened (and
checked open) before the command starts and closed after it ends. Meanwhile one of them polls
``pg_stat_activity`` every ``--every`` seconds; at the end the report gives the peak of client
connections on the server, the peak besides the held ones, and, with ``--watch NAME``, the peak
of connections whose ``application_name`` is NAME (the suite's own, when its URL sets that name:
the fixtures and the servers the tests start all keep the URL's query). The exit status is the
command's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass

import psycopg

HELD_NAME = "hold_connections"
"""The ``application_name`` of the held connections (so the report can leave them out)."""

COUNT = """
SELECT count(*),
       count(*) FILTER (WHERE application_name = %(held)s),
       count(*) FILTER (WHERE application_name = %(watched)s)
FROM pg_stat_activity
WHERE backend_type = 'client backend'
"""


@dataclass
class Peaks:
    clients: int = 0
    """All client connections on the server (the held ones, the command's, anyone else's)."""
    besides_held: int = 0
    watched: int = 0
    samples: int = 0

    def add(self, clients: int, held: int, watched: int) -> None:
        self.clients = max(self.clients, clients)
        self.besides_held = max(self.besides_held, clients - held)
        self.watched = max(self.watched, watched)
        self.samples += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MTG_LEDGER_TEST_POSTGRES"), help="PostgreSQL server URL")
    parser.add_argument("-n", "--connections", type=int, default=40, help="connections to hold (default 40)")
    parser.add_argument("--watch", default="", help="also report the peak of this application_name")
    parser.add_argument("--every", type=float, default=0.1, help="seconds between samples (default 0.1)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the command to run")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not args.url:
        parser.error("no server: give --url or set MTG_LEDGER_TEST_POSTGRES")
    if not command:
        parser.error("no command: give it after --")

    held = [
        psycopg.connect(args.url, autocommit=True, connect_timeout=5, application_name=HELD_NAME)
        for _ in range(max(args.connections, 1))
    ]
    watcher, holding = held[0], held[: args.connections]
    try:
        params = {"held": HELD_NAME, "watched": args.watch}
        limit = int(watcher.execute("SHOW max_connections").fetchone()[0])  # type: ignore[index]
        before = watcher.execute(COUNT, params).fetchone()
        assert before is not None
        print(
            f"hold_connections: holding {len(holding)} connection(s) ({before[1]} open as {HELD_NAME!r}); "
            f"{before[0]} client connection(s) of max_connections {limit} before the command",
            file=sys.stderr,
            flush=True,
        )
        peaks = Peaks()
        process = subprocess.Popen(command)
        try:
            while process.poll() is None:
                row = watcher.execute(COUNT, params).fetchone()
                assert row is not None
                peaks.add(*row)
                time.sleep(args.every)
        except KeyboardInterrupt:
            process.terminate()
        code = process.wait()
    finally:
        for conn in held:
            conn.close()
    watched = f"; peak {args.watch!r}: {peaks.watched}" if args.watch else ""
    print(
        f"hold_connections: command exited {code}; peak client connections {peaks.clients} of {limit}, "
        f"{peaks.besides_held} besides the {len(holding)} held{watched} ({peaks.samples} samples, "
        f"every {args.every} s)",
        file=sys.stderr,
        flush=True,
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
