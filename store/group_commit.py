"""Group commit: the saves of several callers in one transaction.

Every append of the ledger is one ``Application.save(*records)``: all the events of one action
(and the claim of its ``Idempotency-Key``), atomic. A database pays its fixed cost per
*transaction* (SQLite: a WAL commit; PostgreSQL: the events table's lock, a round trip and the
commit's WAL flush), so when actions of different games arrive together, saving each in its own
transaction makes them queue for that cost one by one. ``GroupCommitter.save`` has the contract
of ``Application.save`` (the records are durable when it returns; ``IntegrityError`` when one of
their ids and versions is taken, and then nothing of them is stored), but the records of callers
that arrive within ``window`` seconds of each other go to the database in ONE ``save``:

- the callers take turns as the writer (leader and followers, no writer thread of its own): a
  caller that hands in a save while no transaction is being written becomes the writer, waits
  ``window`` seconds for more while the batch is not full, and saves what has been handed in
  (up to ``max_batch`` saves) in one transaction; callers arriving meanwhile wait, and when the
  transaction is done one of those still waiting writes the next. A lone caller so saves on
  its own thread, as ``Application.save`` would, with no hand-over to another thread and back
  (which cost about 70 µs of CPU per action on this machine, docs/performance.md);
- two saves in one batch that write the same (stream, version) would fail each other's
  transaction: the later one waits for the next batch, where the database decides it exactly as
  it would have decided two separate saves (the first stored, the second refused);
- when the batch's transaction fails with ``IntegrityError`` (another process took a version:
  a clash), one query (``probe``: which of the batch's versions the store holds) finds the
  clashing saves; they get the ``IntegrityError`` and the rest is saved again. Without a probe,
  or when it finds none, the batch is split in halves and each half saved again, down to the
  save that clashes alone. Every other caller's records are stored; each caller's records stay
  together: a split never cuts one caller's save;
- every caller is answered (returns or raises) only after the transaction holding its records
  committed or failed: a return means durable, as with ``Application.save``.

A caller whose save was refused re-decides as it would have after its own failed save (the game
service loads the game afresh and decides once more), and hands in a new save: that game alone is
retried, the others of its batch are not.

With ``window`` 0 the writer still batches whatever queued up while the previous transaction ran
(the natural batching of a busy writer) but never waits for more: under load, every caller
arriving while a commit is under way goes into the next one.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.persistence import IntegrityError

log = logging.getLogger("mtg_ledger.store")

DEFAULT_WINDOW = 0.001
"""Seconds the writer waits for more saves once it holds one (a millisecond)."""
DEFAULT_MAX_BATCH = 64
"""Saves (callers) per transaction at most."""


Probe = Callable[[Collection[tuple[str, int]]], set[tuple[str, int]]]
"""Which of these (stream, version) pairs the store already holds (one query): the recorders'
``taken_versions`` (``store.sqlite_polling``, ``store.postgres_recorder``)."""


class Saver(Protocol):
    """What the committer writes through: ``eventsourcing.application.Application.save``."""

    def save(self, *objs: Any) -> Any: ...


@dataclass(eq=False)
class _Pending:
    records: tuple[Any, ...]
    keys: frozenset[tuple[str, int]]
    done: bool = False
    """Answered (set, with ``error``, before the writer wakes the waiting callers)."""
    error: BaseException | None = None


def _keys(records: Sequence[Any]) -> frozenset[tuple[str, int]]:
    keys = set()
    for r in records:
        oid = getattr(r, "originator_id", None)
        version = getattr(r, "originator_version", None)
        if oid is not None and version is not None:
            keys.add((str(oid), int(version)))
    return frozenset(keys)


@dataclass
class CommitStats:
    """Counters for benchmarks and tests (never read on the request path)."""

    transactions: int = 0
    """Transactions the writer committed or tried (a split counts each part)."""
    saves: int = 0
    """Callers' saves answered."""
    splits: int = 0
    """Batches split in halves after an ``IntegrityError`` (no probe, or it found nothing)."""
    probed: int = 0
    """Batches whose clashing saves a probe found after an ``IntegrityError``."""
    largest: int = 0
    """The most saves one transaction held."""


class GroupCommitter:
    """Saves through ``saver`` with the contract of ``Application.save``, batching the saves of
    concurrent callers into one transaction each (see the module docstring)."""

    def __init__(
        self,
        saver: Saver,
        *,
        window: float = DEFAULT_WINDOW,
        max_batch: int = DEFAULT_MAX_BATCH,
        name: str = "group-commit",
        probe: Probe | None = None,
    ) -> None:
        if window < 0 or max_batch < 1:
            raise ValueError(f"window must be >= 0 and max_batch >= 1, got {window!r}, {max_batch!r}")
        self._saver = saver
        self._probe = probe
        self._window = window
        self._max_batch = max_batch
        self._queue: deque[_Pending] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self._writing = False
        """A caller is writing a transaction (the others wait for it)."""
        self.name = name
        self.stats = CommitStats()
        """How the writers have batched so far."""

    # -- callers -----------------------------------------------------------------------------
    def save(self, *records: Any) -> None:
        """Store ``records`` atomically, together with other callers' saves; return when they
        are durable. ``IntegrityError`` (nothing of them stored) when one is taken."""
        if not records:
            return
        pending = _Pending(tuple(records), _keys(records))
        with self._cond:
            if self._closed:
                raise RuntimeError("the group committer is closed")
            self._queue.append(pending)
            while not pending.done:
                if self._writing:
                    self._cond.wait()  # the writer may take this save; else the next one will
                    continue
                self._write_one_batch()
        if pending.error is not None:
            raise pending.error

    def close(self) -> None:
        """Refuse new saves; return once every save handed in is answered."""
        with self._cond:
            self._closed = True
            while self._queue or self._writing:
                if not self._writing:
                    self._write_one_batch()  # pragma: no cover - a queued caller writes it first
                    continue
                self._cond.wait()

    # -- the writer (a caller, holding ``_cond`` when called) --------------------------------
    def _write_one_batch(self) -> None:
        """Be the writer: wait ``window`` for more saves, take a batch, save it without the
        lock, then wake the callers (answered ones return; one of the rest writes next)."""
        self._writing = True
        try:
            if self._window > 0 and len(self._queue) < self._max_batch and not self._closed:
                self._cond.wait(self._window)  # the lock is free meanwhile: others hand theirs in
            batch = self._take()
            self._cond.release()
            try:
                self._commit(batch)
            except BaseException as err:  # pragma: no cover - _commit answers every caller
                log.exception("group commit failed")
                for p in batch:
                    if not p.done:
                        p.error, p.done = err, True
            finally:
                self._cond.acquire()
        finally:
            self._writing = False
            self._cond.notify_all()

    def _take(self) -> list[_Pending]:
        """The next batch: what is queued, minus any save that shares a (stream, version) with
        an earlier one of the batch (it stays queued, for the next writer)."""
        batch: list[_Pending] = []
        taken: set[tuple[str, int]] = set()
        kept: deque[_Pending] = deque()
        while self._queue and len(batch) < self._max_batch:
            p = self._queue.popleft()
            if p.keys & taken:
                kept.append(p)  # decided by the database after this batch, as two saves would be
                continue
            taken |= p.keys
            batch.append(p)
        kept.extend(self._queue)
        self._queue = kept
        return batch

    def _commit(self, batch: list[_Pending]) -> None:
        """Save ``batch`` in one transaction; on ``IntegrityError`` split it until the clashing
        saves are alone, and answer every caller."""
        self.stats.transactions += 1
        self.stats.largest = max(self.stats.largest, len(batch))
        try:
            self._saver.save(*(r for p in batch for r in p.records))
        except IntegrityError as err:
            if len(batch) == 1:
                self._answer(batch, err)
                return
            clashing = self._clashing(batch)
            if clashing:
                # One query found the saves whose versions are taken: refuse them alone and
                # save the rest again (a worker whose cached heads went stale, because another
                # worker acted on its games, would otherwise split batch after batch).
                self.stats.probed += 1
                self._answer(clashing, IntegrityError("a version of this save is taken"))
                rest = [p for p in batch if p not in clashing]
                if rest:
                    self._commit(rest)
                return
            self.stats.splits += 1
            half = len(batch) // 2
            self._commit(batch[:half])
            self._commit(batch[half:])
            return
        except Exception as err:
            self._answer(batch, err)  # the store is down, say: every caller of the batch hears it
            return
        self._answer(batch, None)

    def _clashing(self, batch: list[_Pending]) -> list[_Pending]:
        """The saves of ``batch`` holding a (stream, version) the store has, by ``probe``
        (empty without one, or when it fails or finds none: then the batch is halved)."""
        if self._probe is None:
            return []
        try:
            taken = self._probe([k for p in batch for k in p.keys])
        except Exception:
            log.exception("group commit: the probe for taken versions failed")
            return []
        return [p for p in batch if p.keys & taken]

    def _answer(self, batch: list[_Pending], error: BaseException | None) -> None:
        for p in batch:
            p.error = error
            self.stats.saves += 1
            p.done = True  # seen by its caller once the writer, done, wakes everyone
