"""The game list read model: one summary row per game, kept by the library's projection runner.

``GameSummaryProjection`` is an ``eventsourcing.projection.Projection``; ``ProjectionRunner``
tails the ledger application (LISTEN/NOTIFY on PostgreSQL, a polling subscription on SQLite) and
calls ``process_event`` for each stored record. ``summary_change`` gives what a game event
changes in its game's row, and the view (``projections.game_summary_tables``) writes the change
and the tracking record (the notification id) in one transaction, in the same database as the
events, so a restarted runner resumes after the last id it recorded instead of rebuilding.

Every record advances the tracking position, including records of other streams (tokens,
idempotency keys), so "caught up" simply means "tracked the newest notification id".

Several workers may each run a runner: tracking only moves forward, so a worker that lost the
race for a notification gets an ``IntegrityError`` for its whole transaction and skips it; the
winner already wrote the same change.

Most game events change only their row's version and time (a life change, a counter). Those
are held, the latest per game, with their position, and written together at most ``HOLD_MOST``
seconds after the first of them: with the next batch that creates or ends a game (in log
order: what was held first), with the first batch after that time or, when none comes, by the
runner at that time (``held_until``), once the batches pause (``flush_tracking``), and when
someone waits for the list (``write_held``). At the pace of a
quiet server each pull holds one record, and a transaction for each cost about 330,000
instructions per action (bench/action_parts.py; docs/performance.md); held, it is one a second.
A crash loses only what was held, with its position: the restarted runner folds it again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.projection import Projection

from domain import events as ev
from projections.game_summary_tables import (
    GameSummaryView,
    ProjectionFailure,
    SummaryChange,
    printable,
    view_class_for,
)
from store.records import GameEvent

__all__ = [
    "GameSummaryProjection",
    "GameSummaryView",
    "ProjectionFailure",
    "SummaryChange",
    "summary_change",
    "view_class_for",
]

log = logging.getLogger("mtg_ledger.store")
HOLD_MOST = 1.0
"""Seconds at most that a row's new version and time are held unwritten (module docstring)."""
SUMMARISED: frozenset[type[ev.DomainEvent]] = frozenset({ev.GameStarted, ev.GameEnded, ev.ActionsReverted})
"""The events that change more of a summary than its version and time."""


def summary_change(event: GameEvent) -> SummaryChange:
    """The summary change of one stored game event (a pure function of the event)."""
    base = SummaryChange(game_id=event.originator_id, version=event.originator_version, at=event.recorded_at)
    if event.event_class not in SUMMARISED:
        return base  # told by its class alone: the other events are not parsed here
    payload = event.payload
    if isinstance(payload, ev.GameStarted):
        tournament = payload.tournament
        return replace(
            base,
            variant=payload.variant,
            tournament=tournament if isinstance(tournament, Mapping) else None,
            status="in_progress",
            winners=(),
        )
    if isinstance(payload, ev.GameEnded):
        return replace(base, status="finished", winners=tuple(payload.winners or ()))
    if isinstance(payload, ev.ActionsReverted):
        restored = payload.restored_state
        result = restored.get("result") or {}
        return replace(base, status=restored["status"], winners=tuple(result.get("winners") or ()))
    return base


class GameSummaryProjection(Projection[GameSummaryView]):
    """Folds stored game events into summary rows; every other record only moves tracking."""

    name = "GameSummaries"
    topics: tuple[str, ...] = ()
    _unwritten: Tracking | None = None
    """The position of the last record projected but not written yet (it changed nothing, or
    only what ``_held`` holds)."""
    _held: dict[str, SummaryChange] | None = None
    """Changes of only a version and time, the latest per game, not written yet."""
    _held_since = 0.0
    """When the first of ``_held`` was projected (``time.monotonic``)."""

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.process_batch([(domain_event, tracking)])

    def process_batch(self, batch: Sequence[tuple[Any, Tracking]]) -> None:
        """Records in order, in ONE transaction with the last one's tracking (see the runner).

        When that fails, the records are projected one at a time, and a game record that fails
        on its own marks its game (``record_failure``, logged at once, shown by ``/v1/health``)
        and is passed over: one bad record never stops the list for every other game, and a
        restart doesn't fail on it again."""
        try:
            self._project(batch)
        except Exception as error:
            if len(batch) == 1:
                self._fail(batch[0], error)
                return
            for item in batch:
                try:
                    self._project([item])
                except Exception as one:
                    self._fail(item, one)

    def _fail(self, item: tuple[Any, Tracking], error: Exception) -> None:
        event, tracking = item
        if not isinstance(event, GameEvent):
            raise error  # not a game's record: nothing to mark; the runner stops (health says so)
        failure = ProjectionFailure(
            game_id=event.originator_id,
            version=event.originator_version,
            error=printable(f"{type(error).__name__}: {error}"),
        )
        log.error(
            "game list: could not project game %s version %d (%s); the game is marked failed "
            "(GET /v1/health) and the other games go on",
            printable(failure.game_id, 200),
            failure.version,
            failure.error,
        )
        self.write_held()  # what was held before this record is written, its position with it
        self.view.record_failure(failure, tracking)
        self._unwritten = None

    def _project(self, batch: Sequence[tuple[Any, Tracking]]) -> None:
        changes = [summary_change(e) for e, _ in batch if isinstance(e, GameEvent)]
        tracking = batch[-1][1]
        if all(only_version(c) for c in changes) and self._may_hold():
            held = self._held if self._held is not None else {}
            if changes and not held:
                self._held_since = time.monotonic()
            for change in changes:
                held[change.game_id] = change  # in log order: the game's latest wins
            self._held = held or None
            self._unwritten = tracking
            return
        written = [*(self._held or {}).values(), *changes]  # what was held came first in the log
        self._write(tracking, lambda: self.view.record_changes(written, tracking))
        self._held, self._unwritten = None, None

    def _may_hold(self) -> bool:
        return not self._held or time.monotonic() - self._held_since < HOLD_MOST

    def held_until(self) -> float | None:
        """``HOLD_MOST`` after the first change held, or ``None`` (``BatchProjection``)."""
        return self._held_since + HOLD_MOST if self._held else None

    def write_held(self) -> None:
        """What is held (changes of a version and time), written with its position; nothing
        when nothing is (a position alone waits for ``flush_tracking``)."""
        held, unwritten = self._held, self._unwritten
        if held is None or unwritten is None:
            return
        self._write(unwritten, lambda: self.view.record_changes(list(held.values()), unwritten))
        self._held, self._unwritten = None, None

    def flush_tracking(self) -> None:
        """What is held and the position of the records projected since the last write,
        written (``BatchProjection``)."""
        self.write_held()
        unwritten, self._unwritten = self._unwritten, None
        if unwritten is not None:
            self._write(unwritten, lambda: self.view.insert_tracking(unwritten))

    def _write(self, tracking: Tracking, write: Callable[[], None]) -> None:
        try:
            write()
        except IntegrityError:
            # Another runner (another worker) already projected up to this notification; the
            # changes are idempotent (insert-if-absent, update-if-newer), so any overlap is safe.
            if not self.view.has_tracking_id(tracking.application_name, tracking.notification_id):
                raise


def only_version(change: SummaryChange) -> bool:
    """Whether ``change`` moves only its row's version and time (most game events)."""
    return change.variant is None and change.status is None and change.winners is None
