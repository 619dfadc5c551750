"""Cached heads kept fresh when several processes write one PostgreSQL store.

Each process decides an action on its cached head of the game (``projections.game_service``).
When another process stored an action of that game meanwhile, the save clashes with the
version it took: the whole group transaction fails, one query finds the clashing save, the
rest is saved again and the game is loaded afresh and decided once more. Clients that spread a
game's actions over connections (a pool, a load balancer, a phone that reconnects) make that the
common case with several workers: in the open-loop benchmark (any connection carries any game's
next action) two workers on PostgreSQL sustained a lower rate than one (docs/performance.md,
issue 15, fourth pass).

Reading the game's newer events before every action (``MTG_LEDGER_HEAD_CHECK=on``) costs a round
trip per action on PostgreSQL. ``HeadWatch`` reads instead, every ``interval`` seconds, which
streams the log has moved on since it last looked (one index range scan of what is new), and
marks the cached heads another process has overtaken: the next action of such a game first
reads the events stored after its cached head (the library's fast-forward: one small read, and
a fold of those events only) and decides on the up-to-date head. Dropping the head instead made
that action load the game afresh (its snapshot and every event since), and with the actions of
each game spread over the workers, most actions with 2 or 4 workers paid for it
(docs/performance.md, issue 15, fifth pass). An action within ``interval`` of another process's
action on the same game can still clash, and is retried as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from projections.game_repository import GameRepository

log = logging.getLogger("mtg_ledger.store")

INTERVAL = 0.02
"""Seconds between looks at the log (the read models' lag, ``projections.sqlite_polling``)."""

PAGE = 1000
"""Events one look reads at most before it looks again (the recorder's default limit)."""
HeadsAfter = Callable[[int], list[tuple[str, int, int]]]
"""The events stored after a notification id, in log order: (stream, version, notification id),
up to ``PAGE`` of them."""


class HeadWatch:
    """Marks the cached heads that other processes have moved on (see the module docstring)."""

    def __init__(self, heads_after: HeadsAfter, start: int, games: GameRepository, *, interval: float = INTERVAL):
        self._heads_after = heads_after
        self._games = games
        self._interval = interval
        self.position = start
        """The last notification id looked at."""
        self.marked = 0
        """Cached heads marked behind so far (for tests and benchmarks)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="head-watch", daemon=True)
        self._thread.start()

    def look(self) -> None:
        """Mark the cached heads of the streams stored past ``position`` at a higher version."""
        while True:
            rows = self._heads_after(self.position)
            for stream, version, last in rows:
                if self._games.mark_behind(stream, version):
                    self.marked += 1
                self.position = max(self.position, last)
            if len(rows) < PAGE:
                return

    def _loop(self) -> None:
        failing = False
        while not self._stop.wait(self._interval):
            try:
                self.look()
            except Exception as err:  # the store is away: stale heads only cost a retry meanwhile
                if not failing:
                    log.warning("head watch: cannot read the log (%s); retrying", err)
                failing = True
            else:
                failing = False

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
