"""The append and read operations of the ledger's streams: everything above ``store`` uses these.

Every audited record of the ledger is one entry of one stream (a game, a tournament, a token, an
Idempotency-Key, a webhook subscription, ...) in one ``eventsourcing`` application
(``store.application``). ``Streams`` is the one door to it, in the shape of the library's own
small examples: ``read`` (the library's ``events.get``) and ``append`` (``put_events`` through the
partition's saver: the group committer when it is on), plus the notification log by topic and
the snapshots. ``ledger`` never holds the library's application object, so a second copy of the
save loop or a stray ``recorder`` query cannot appear above this module
(``tests/store/test_store_boundary.py`` checks it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from store.application import LedgerApplication, StoredRow
from store.group_commit import Saver

__all__ = ["PAGE", "Notification", "StoredRow", "Streams"]

PAGE = 500
"""Notifications read per query by ``each_with_topic``."""


@dataclass(frozen=True, slots=True)
class Notification:
    """One record as the notification log holds it: its position, stream and the record."""

    id: int
    originator_id: str
    record: Any


class Streams:
    """Read and append the records of one database's streams (see the module docstring)."""

    def __init__(self, app: LedgerApplication, saver: Saver | None = None) -> None:
        self._app = app
        self._saver: Saver = saver if saver is not None else app

    # -- reads -------------------------------------------------------------------------------
    def read(
        self,
        stream_id: str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[Any]:
        """The stream's records (versions in ``(gt, lte]``), oldest first unless ``desc``."""
        return list(self._app.events.get(stream_id, gt=gt, lte=lte, desc=desc, limit=limit))

    def last(self, stream_id: str) -> Any | None:
        """The stream's newest record, or ``None`` for an empty stream."""
        found = self.read(stream_id, desc=True, limit=1)
        return found[0] if found else None

    def exists(self, stream_id: str) -> bool:
        """Whether the stream holds any record (one row read at most)."""
        return bool(self._app.recorder.select_events(stream_id, limit=1))

    def rows(
        self, stream_id: str, *, gt: int | None = None, desc: bool = False, limit: int | None = None
    ) -> list[StoredRow]:
        """The stream's stored rows as the database holds them (an export reads their exact
        state; ``decode`` turns one into its record)."""
        return list(self._app.recorder.select_events(stream_id, gt=gt, desc=desc, limit=limit))

    def decode(self, row: StoredRow) -> Any:
        """A stored row as its record (raises what a damaged row raises: ``store.repository.DAMAGED``)."""
        return self._app.mapper.to_domain_event(row)

    def with_topic(self, topics: Sequence[str], start: int | None = None, limit: int = PAGE) -> list[Notification]:
        """One page of the notification log's records whose topic is in ``topics``, from
        notification id ``start`` on."""
        page = self._app.recorder.select_notifications(start=start, limit=limit, topics=list(topics))
        return [Notification(n.id, str(n.originator_id), self._app.mapper.to_domain_event(n)) for n in page]

    def each_with_topic(self, topics: Sequence[str]) -> list[Notification]:
        """Every record with one of ``topics``, in log order (read a page at a time)."""
        out: list[Notification] = []
        start: int | None = None
        while True:
            page = self.with_topic(topics, start)
            out += page
            if len(page) < PAGE:
                return out
            start = page[-1].id + 1

    def any_with_topic(self, topics: Sequence[str]) -> bool:
        """Whether the log holds any record with one of ``topics`` (one row read at most)."""
        return bool(self._app.recorder.select_notifications(start=None, limit=1, topics=list(topics)))

    def newest_notification(self) -> int:
        """The notification log's newest id (0 when empty)."""
        return self._app.recorder.max_notification_id() or 0

    # -- writes ------------------------------------------------------------------------------
    def append(self, *records: Any) -> None:
        """Store ``records`` in one atomic save (grouped with concurrent saves when the group
        committer is on); ``store.errors.VersionClash`` and nothing stored when a (stream,
        version) is taken."""
        self._saver.save(*records)

    def append_alone(self, *records: Any) -> None:
        """``append`` in a transaction of its own (never grouped): for records whose clash the
        caller expects and answers (a token's use, an import's receipt)."""
        self._app.save(*records)

    def put_snapshots(self, snapshots: Sequence[Any]) -> None:
        """Store snapshots (an optimisation: the caller decides what a failure means)."""
        assert self._app.snapshots is not None, "snapshots are on for every ledger application"
        self._app.snapshots.put(list(snapshots))
