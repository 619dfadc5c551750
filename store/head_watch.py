"""Cached heads kept up to date when several processes write one PostgreSQL store.

Each process decides an action on its cached head of the game (``ledger.game_service``).
When another process stored an action of that game meanwhile, the save clashes with the
version it took: the whole group transaction fails, one query finds the clashing save, the
rest is saved again and the game is loaded afresh and decided once more. Clients that spread a
game's actions over connections (a pool, a load balancer, a phone that reconnects) make that the
common case with several workers: in the open-loop benchmark (any connection carries any game's
next action) two workers on PostgreSQL sustained a lower rate than one (docs/performance.md,
issue 15, fourth pass).

Reading the game's newer events before every action (the head check SQLite's workers do,
``ledger.write_path``) costs a round trip per action on PostgreSQL. ``HeadWatch`` reads instead,
every ``interval`` seconds, the events stored since it last looked (one index range scan of what
is new, for every game at once). A game whose actions are spread over processes is brought
forward by them: the events are decoded and folded onto its cached head in this thread
(``GameRepository.catch_up``), so its next action here is decided at once, with no read before
it. Any other overtaken head is marked behind, and its next action here, if one comes, reads the
events after it. From the fifth pass of issue 15 to the sixth every overtaken head was only
marked: a round trip on the request path for most actions with 2 or 4 workers
(docs/performance.md, issue 15, seventh pass, which also says why the fold is done here and not
by the next action). Events that do not follow the cached head (the watch began after some of
them) mark it too. An action within ``interval`` of another process's action on the same game
can still clash, and is retried as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from eventsourcing.persistence import StoredEvent

from store.repository import GameRepository

log = logging.getLogger("mtg_ledger.store")

INTERVAL = 0.02
"""Seconds between looks at the log (the read models' lag, ``store.sqlite_polling``)."""

PAGE = 1000
"""Events one look reads at most before it looks again (the recorder's default limit)."""
StoredAfter = Callable[[int], list[tuple[StoredEvent, int]]]
"""The events stored after a notification id, in log order, each with its notification id, up
to ``PAGE`` of them (``postgres_recorder.LargeBatchPostgresApplicationRecorder.stored_after``)."""


class HeadWatch:
    """Brings forward the cached heads that other processes have moved on (see the module
    docstring)."""

    def __init__(self, stored_after: StoredAfter, start: int, games: GameRepository, *, interval: float = INTERVAL):
        self._stored_after = stored_after
        self._games = games
        self._interval = interval
        self.position = start
        """The last notification id looked at."""
        self.advanced = 0
        """Cached heads brought forward so far (for tests and benchmarks)."""
        self.marked = 0
        """Cached heads marked behind so far: their events did not follow them."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="head-watch", daemon=True)
        self._thread.start()

    def look(self) -> None:
        """Bring the cached heads of the streams stored past ``position`` up to date."""
        while True:
            rows = self._stored_after(self.position)
            streams: dict[str, list[StoredEvent]] = {}
            for stored, _ in rows:
                streams.setdefault(str(stored.originator_id), []).append(stored)
            for stream, events in streams.items():
                outcome = self._games.catch_up(stream, events)
                if outcome == "advanced":
                    self.advanced += 1
                elif outcome == "marked":
                    self.marked += 1
            if rows:
                self.position = max(self.position, rows[-1][1])
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
