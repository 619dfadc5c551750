"""Group commit when another worker moves the games on (a benchmark, not a test).

Two ``LedgerService`` objects on one SQLite file stand for two workers (each its own cache of
heads and its own group committer); 8 threads act on 200 games, each thread sending its games'
actions to the two services in turn, so nearly every action is decided on a head the other
service has moved on: its save clashes and it is decided again on a fresh load. Printed: actions
per second, and per service the transactions, saves, halvings and probes of its committer.
Compare with one service taking all the actions (no stale heads), and with two services that
bring each cached head up to date before deciding (``check_heads``).

    .venv/bin/python bench/stale_heads.py
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.commands import parse_command
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor

GAME = {"variant": "two_player", "players": [{"id": "P1"}, {"id": "P2"}]}
JUDGE = Actor("bench", "judge")
ROUNDS = 10
GAMES = 200
THREADS = 8


def counts(pair: tuple[LedgerService, LedgerService]) -> list[tuple[int, int, int, int]]:
    """Each distinct service's committer: (transactions, saves, halvings, probes) so far."""
    return [
        (s.committer.stats.transactions, s.committer.stats.saves, s.committer.stats.splits, s.committer.stats.probed)
        for s in dict.fromkeys(pair)
        if s.committer
    ]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/ledger.sqlite3"
        a = LedgerService(url)
        b = LedgerService(url, LedgerSettings(create_tables=False))
        # The same two, with each cached head brought up to date before deciding (what
        # ``MTG_LEDGER_HEAD_CHECK=auto`` does for SQLite served by several workers).
        c = LedgerService(url, LedgerSettings(create_tables=False, read_models=False, check_heads=True))
        d = LedgerService(url, LedgerSettings(create_tables=False, read_models=False, check_heads=True))
        try:
            games = [a.create_game(dict(GAME), JUDGE, f"g{i}").game_id for i in range(GAMES)]
            command = parse_command(
                {"type": "add_counters", "target": {"player": "P2"}, "kind": "rad", "amount": 1}, a.catalog.resolve
            )
            runs = (("one service", (a, a)), ("two services in turn", (a, b)), ("two, heads checked", (c, d)))
            for label, pair in runs:
                errors: list[str] = []

                def run(
                    services: tuple[LedgerService, LedgerService], share: list[str], errors: list[str] = errors
                ) -> None:
                    for r in range(ROUNDS):
                        for g in share:
                            try:
                                services[r % 2].act(g, command, JUDGE)
                            except Exception as err:  # counted, not fatal
                                errors.append(type(err).__name__)

                before = counts(pair)
                threads = [
                    threading.Thread(target=run, args=(pair if i % 2 else pair[::-1], games[i::THREADS]))
                    for i in range(THREADS)
                ]
                begin = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                seconds = time.perf_counter() - begin
                after = counts(pair)
                per = [tuple(x - y for x, y in zip(p, q, strict=True)) for p, q in zip(after, before, strict=True)]
                print(
                    f"{label}: {ROUNDS * GAMES / seconds:,.0f} actions/s, {len(errors)} errors; "
                    f"per service (transactions, saves, halvings, probes): {per}"
                )
        finally:
            for service in (a, b, c, d):
                service.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
