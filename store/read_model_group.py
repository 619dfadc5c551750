"""The read models of one log, kept by ONE runner on ONE subscription.

Each read model (the game list, the matches, the webhook outbox) used to have a runner of its
own, each with its own copy of the application, its own subscription (on PostgreSQL a LISTEN
connection, a pull after each notification and a pool; on SQLite a poll) and its own decode of
every record: the same records read and decoded three times, in the process that also serves
requests (docs/performance.md: about a quarter of a PostgreSQL worker's CPU under load).

A ``ReadModelGroup`` runs them together: one election per log (``read-models``, with
``store.runner_election``), and in the elected process one ``SharedRunner``: one
subscription from the lowest position any of them has tracked, each batch of records decoded
once and handed to each read model in turn, less what that one has already projected. Each read
model keeps its own view, its own tracking and its own transaction per batch, so they never wait
on each other's tables; one that fails stops alone (``runner_state`` says so) while the others
go on. A batch that changes nothing of a read model is not written; its position is, once the
batches pause for ``QUIET_FLUSH`` seconds (and at least every ``QUIET_FLUSH_MOST``;
``BatchProjection.flush_tracking``), and meanwhile ``position`` (the runner's own, in memory)
answers whoever waits for the read model in this process.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.projection import ApplicationSubscription

from store.application import LedgerApplication
from store.batching_runner import MAX_BATCH, QUIET_FLUSH, QUIET_FLUSH_MOST, BatchProjection, in_hand
from store.runner_election import STANDBY_INTERVAL, ElectedRunner

log = logging.getLogger("mtg_ledger.store")

READ_MODELS_RUNNER = "read-models"
"""The name the read models of one log are elected by (one runner per database)."""

Batch = Sequence[tuple[Any, Tracking]]


class Member(Protocol):
    """A read model of the group: how to build its runner's view and projection."""

    @property
    def name(self) -> str: ...

    def runner_parts(self) -> tuple[TrackingRecorder, BatchProjection]:
        """A new view for the runner to write through, and the projection writing to it."""
        ...


def due(batch: Batch, position: int | None) -> Batch:
    """The records of ``batch`` (in log order) after ``position``, the last notification id a
    read model has tracked (``None``: none yet)."""
    if position is None or not batch or batch[0][1].notification_id > position:
        return batch
    return [item for item in batch if item[1].notification_id > position]


@dataclass(eq=False)
class _Lane:
    name: str
    view: TrackingRecorder
    projection: BatchProjection
    position: int | None
    error: BaseException | None = None


class SharedRunner:
    """One subscription to the log, every batch handed to each member's projection (see the
    module docstring). Starts its thread on construction; ``stop`` ends it."""

    def __init__(self, env: Mapping[str, str], members: Sequence[Member]) -> None:
        self.app = LedgerApplication(env)
        self._lanes: list[_Lane] = []
        try:
            for member in members:
                view, projection = member.runner_parts()
                self._lanes.append(_Lane(member.name, view, projection, view.max_tracking_id(self.app.name)))
            positions = [lane.position for lane in self._lanes]
            start = None if None in positions else min(p for p in positions if p is not None)
            self._subscription: ApplicationSubscription[Any] = ApplicationSubscription(app=self.app, gt=start)
            self._subscription.__enter__()  # its __exit__ (in ``stop``) waits for its pulling thread
        except BaseException:
            self._close_views()
            self.app.close()
            raise
        self.error: BaseException | None = None
        """What stopped the runner (the subscription failed, or every read model did)."""
        self.stopped = threading.Event()
        """Set once the runner's thread has ended."""
        self._lock = threading.Lock()  # the views are written by one thread at a time
        self._projected = threading.Event()  # set by a batch: the flusher writes quiet positions
        self._held_until: float | None = None
        """When the first of what the read models hold back is due (``time.monotonic``)."""
        self._wake = threading.Event()  # the flusher looks again: something is due sooner, or a stop
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="read-models", daemon=True)
        self._thread.start()
        self._flusher = threading.Thread(target=self._flush_quietly, name="read-models-flush", daemon=True)
        self._flusher.start()

    def _loop(self) -> None:
        try:
            pulled = self._subscription.subscription
            for first in self._subscription:
                batch = [first]
                while len(batch) < MAX_BATCH and in_hand(pulled):
                    batch.append(next(self._subscription))
                self._hand_out(batch)
        except BaseException as err:
            log.error("read models: the runner stopped: %s: %s", type(err).__name__, str(err)[:500])
            self.error = err
        finally:
            self.stopped.set()

    def _hand_out(self, batch: Batch) -> None:
        with self._lock:
            self._hand_out_locked(batch)
            before, self._held_until = self._held_until, self._earliest_held()
        if self._held_until is not None and (before is None or self._held_until < before):
            self._wake.set()  # due sooner than the flusher was going to look
        self._projected.set()

    def _hand_out_locked(self, batch: Batch) -> None:
        for lane in self._lanes:
            if lane.error is not None:
                continue
            mine = due(batch, lane.position)
            if not mine:
                continue
            try:
                lane.projection.process_batch(mine)
            except Exception as err:
                # This read model stops (health says why); the others still follow the log.
                log.error("%s: the read model stopped: %s: %s", lane.name, type(err).__name__, str(err)[:500])
                lane.error = err
                continue
            lane.position = mine[-1][1].notification_id
        if all(lane.error is not None for lane in self._lanes):
            raise RuntimeError("every read model has stopped") from self._lanes[0].error

    def _flush_quietly(self) -> None:
        # Once the batches pause for QUIET_FLUSH seconds (or QUIET_FLUSH_MOST after the first
        # one while they keep coming): each flush is a transaction per quiet read model, so
        # under steady traffic they come every half a minute, not every second. Meanwhile what
        # a read model holds back for its readers is written when it is due (``held_until``:
        # the game list's versions, within a second). An idle runner costs nothing by the clock.
        while self._projected.wait():
            first = time.monotonic()
            while True:
                self._projected.clear()
                window = min(time.monotonic() + QUIET_FLUSH, first + QUIET_FLUSH_MOST)
                tried: float | None = None
                while (now := time.monotonic()) < window:
                    due = self._held_until
                    if due is not None and due == tried:
                        due = None  # its write failed: the next batch or the flush tries again
                    if self._wake.wait(window - now if due is None else max(0.0, min(window, due) - now)):
                        self._wake.clear()  # stopping, or something newly held: look again
                    if self._stopping.is_set():
                        return
                    due = self._held_until
                    if due is not None and due != tried and time.monotonic() >= due:
                        tried = due
                        self._write_held_due()
                if not self._projected.is_set() or time.monotonic() >= first + QUIET_FLUSH_MOST:
                    break
            self._flush()

    def _earliest_held(self) -> float | None:
        """When the first of what the read models hold back is due (``None``: nothing held)."""
        dues = [u for lane in self._lanes if lane.error is None and (u := lane.projection.held_until()) is not None]
        return min(dues, default=None)

    def _write_held_due(self) -> None:
        with self._lock:
            now = time.monotonic()
            for lane in self._lanes:
                due = lane.projection.held_until() if lane.error is None else None
                if due is not None and due <= now:
                    try:
                        lane.projection.write_held()
                    except Exception as err:  # the next batch or flush tries again
                        log.warning("%s: writing what the read model held failed: %s", lane.name, str(err)[:500])
            self._held_until = self._earliest_held()

    def _flush(self) -> None:
        with self._lock:
            for lane in self._lanes:
                if lane.error is not None:
                    continue
                try:
                    lane.projection.flush_tracking()
                except Exception as err:  # the next batch or flush tries again
                    log.warning("%s: writing the read model's position failed: %s", lane.name, str(err)[:500])
            self._held_until = self._earliest_held()

    def write_held(self, name: str) -> None:
        """What read model ``name`` holds back for its readers, written (``BatchProjection``)."""
        with self._lock:
            for lane in self._lanes:
                if lane.name == name and lane.error is None:
                    lane.projection.write_held()
            self._held_until = self._earliest_held()

    def position(self, name: str) -> int | None:
        """The last notification id read model ``name`` has projected here, whether or not its
        position is written yet (``None``: none yet, or it stopped)."""
        for lane in self._lanes:
            if lane.name == name and lane.error is None:
                return lane.position
        return None

    def problem(self, name: str) -> BaseException | None:
        """Why read model ``name`` no longer follows the log here (``None``: it does)."""
        for lane in self._lanes:
            if lane.name == name and lane.error is not None:
                return lane.error
        if self.stopped.is_set():
            return self.error if self.error is not None else RuntimeError("the read-model runner has stopped")
        return None

    def stop(self) -> None:
        """End the subscription and the thread, and close the runner's views and application."""
        self._subscription.stop()
        self._thread.join(timeout=30)
        self._stopping.set()
        self._wake.set()
        self._projected.set()
        self._flusher.join(timeout=30)
        self._flush()  # what the last batches projected is written before the views close
        # The recorder's subscription pulls on a thread of its own: it must be done with the
        # application's connection before that closes (closing a SQLite connection another
        # thread is using crashes the process).
        self._subscription.__exit__(None, None, None)
        self._close_views()
        self.app.close()

    def _close_views(self) -> None:
        for lane in self._lanes:
            close = getattr(lane.view, "close", None)
            if callable(close):
                try:
                    close()
                except Exception:  # pragma: no cover - close the others anyway
                    log.exception("%s: closing the runner's view failed", lane.name)


class ReadModelGroup:
    """The read models of one log and the election that picks the process keeping them.

    Members are added while the ledger is wired (``add``), then ``start`` asks to be elected
    (with ``run`` off, never): the elected process runs one ``SharedRunner`` for all of them.
    """

    def __init__(self, env: Mapping[str, str], *, run: bool, standby_interval: float = STANDBY_INTERVAL) -> None:
        self._env = dict(env)
        self._run = run
        self._interval = standby_interval
        self._members: list[Member] = []
        self._runner: SharedRunner | None = None
        self.election: ElectedRunner | None = None
        """Whether this process keeps the read models (``None``: it never asks to, or not yet)."""

    def add(self, member: Member) -> None:
        if self.election is not None:
            raise RuntimeError("read models are added before the group starts")
        self._members.append(member)

    def start(self) -> None:
        """Ask to run the read models (the first try is at once: a lone process runs them)."""
        if self._run and self.election is None and self._members:
            self.election = ElectedRunner(
                self._env, READ_MODELS_RUNNER, start=self._start, stop=self._stop, interval=self._interval
            )

    def _start(self) -> None:
        # The runner's copy of the application never creates tables (the ledger's did) and
        # keeps one connection for its pulls besides the subscription's own.
        env = {**self._env, "CREATE_TABLE": "n", "POSTGRES_POOL_SIZE": "1"}
        self._runner = SharedRunner(env, self._members)

    def _stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.stop()

    def wait_elected(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for this process to be elected; whether it is (never,
        when it does not ask: ``run`` off, or no read models)."""
        election = self.election
        return election is not None and election.elected.wait(timeout)

    def state(self, name: str) -> str:
        """``running``; ``elsewhere`` when another process keeps the read models; or
        ``stopped: <error>`` when this process's runner of ``name`` stopped."""
        runner = self._runner
        if runner is None:
            return "elsewhere"
        error = runner.problem(name)
        if error is None:
            return "running"
        return f"stopped: {type(error).__name__}: {error}"[:500]

    def position(self, name: str) -> int | None:
        """What read model ``name`` has projected in this process (``SharedRunner.position``;
        ``None``: this process doesn't run it)."""
        runner = self._runner
        return None if runner is None else runner.position(name)

    def write_held(self, name: str) -> None:
        """What read model ``name`` holds back for its readers, written, if this process runs it."""
        runner = self._runner
        if runner is not None:
            runner.write_held(name)

    def problem(self, name: str) -> BaseException | None:
        """Why read model ``name`` stopped in this process (``None``: running, or elsewhere)."""
        runner = self._runner
        return runner.problem(name) if runner is not None else None

    def close(self) -> None:
        """Stop the runner (if this process has it) and free the election."""
        election, self.election = self.election, None
        if election is not None:
            election.close()
