"""``GameRecord``: the audit side of the ledger: verify a stored game, export it, check and
import an export file (docs/audit.md).

Verify and the import check re-seal what they read with ``store.hash_chain.seal`` (the
function that sealed it when it was appended) and compare.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from uuid import uuid4

from domain.errors import Busy, Code, Conflict
from domain.undo import reverted_versions
from ledger.clock import Now
from ledger.export_checks import check_export
from ledger.game_files import InvalidExport, export_lines
from store.errors import VersionClash
from store.hash_chain import GENESIS_HASH, seal
from store.records import GameEvent, GameImported, import_stream_id
from store.repository import GameRepository, is_game_id, recorded, unknown_game
from store.results import ActionResult, Actor, VerifyReport
from store.streams import StoredRow, Streams

CHECKPOINTS_KEPT = 4096
"""Verified checkpoints kept per process (the oldest is dropped first)."""
LONG_VERIFY = 10_000
"""Events to recompute above which a verify waits for no other: one such verify at a time."""


class GameRecord:
    """Verify, export and import games of one ledger application."""

    def __init__(self, streams: Streams, games: GameRepository, now: Now, *, snapshot_interval: int) -> None:
        self._streams = streams
        self._games = games
        self._now = now
        self._snapshot_interval = snapshot_interval
        self._checkpoints: dict[str, tuple[int, str]] = {}
        """Games whose chain this process verified whole: (version, hash at it)."""
        self._long_verify = threading.Lock()

    def verify(self, game_id: str, *, full: bool = True) -> VerifyReport:
        """Recompute the hash chain from the stored records. Never raises on damaged data: the
        first version that can't be read, is out of sequence or whose hash doesn't match is
        ``first_bad_version``.

        A chain this process verified whole is remembered (its version and head hash, for up to
        ``CHECKPOINTS_KEPT`` games): the next verify recomputes only the events after it, so a
        long game's verify costs what its new events cost, unless ``full`` (the default: from
        version 1; an edit inside the checkpointed part is found only so, docs/audit.md). A recompute of
        more than ``LONG_VERIFY`` events runs one at a time per process (``Busy``, 429, else)."""
        if not is_game_id(game_id):
            raise unknown_game(game_id)
        checkpoint = None if full else self._checkpoints.get(game_id)
        if checkpoint is not None:
            newest = self._streams.rows(game_id, desc=True, limit=1)
            if not newest or newest[0].originator_version < checkpoint[0]:
                checkpoint = None  # events were deleted: check it all again
        start, prev_hash = checkpoint if checkpoint is not None else (0, GENESIS_HASH)
        rows = self._streams.rows(game_id, gt=start) if start else self._streams.rows(game_id)
        if not rows and checkpoint is None:
            raise unknown_game(game_id)
        if len(rows) <= LONG_VERIFY:
            return self._verify_rows(game_id, rows, start, prev_hash)
        if not self._long_verify.acquire(blocking=False):
            raise Busy(
                f"another long verify is running in this process; game {game_id!r} has {len(rows)} events to check",
                Code.VERIFY_BUSY,
            )
        try:
            return self._verify_rows(game_id, rows, start, prev_hash)
        finally:
            self._long_verify.release()

    def _verify_rows(self, game_id: str, rows: Sequence[StoredRow], start: int, prev_hash: str) -> VerifyReport:
        head: str | None = prev_hash if start else None
        first_bad: int | None = None
        for expected_version, row in enumerate(rows, start=start + 1):
            head = None
            try:
                event = self._streams.decode(row)
                if not isinstance(event, GameEvent):
                    raise TypeError("not a game event")
                head = event.hash
                (again,) = seal(
                    game_id,
                    [event],
                    after=event.originator_version - 1,
                    prev_hash=event.prev_hash,
                    action_id=event.action_id,
                    actor=event.actor,
                    recorded_at=event.recorded_at,
                )
                in_place = event.originator_version == expected_version and event.prev_hash == prev_hash
                ok = in_place and again.hash == head
            except Exception:
                ok = False
            if not ok and first_bad is None:
                first_bad = min(expected_version, row.originator_version)
            prev_hash = head or ""
        events = start + len(rows)
        if first_bad is None and head is not None:
            if len(self._checkpoints) >= CHECKPOINTS_KEPT:
                self._checkpoints.pop(next(iter(self._checkpoints)))
            self._checkpoints[game_id] = (events, head)
        else:
            self._checkpoints.pop(game_id, None)
        return VerifyReport(
            ok=first_bad is None, events=events, head=head, first_bad_version=first_bad, checked_from=start + 1
        )

    def export(self, game_id: str) -> Iterator[str]:
        """NDJSON lines (without line ends): a header, then every event (docs/audit.md)."""
        game = self._games.load(game_id)
        return export_lines(game_id, self._games.all_events(game), self._now())

    def verify_export(self, lines: Iterable[str]) -> VerifyReport:
        """Check an export file (chain and rules replay) without storing it. A bad event line
        gives ``ok=False`` and its version; a bad header raises ``InvalidExport``."""
        body = list(lines)
        try:
            checked = check_export(body, snapshot_interval=0, valid_game_id=is_game_id)
        except InvalidExport as err:
            if err.version is None:
                raise
            events = sum(1 for text in body if text.strip()) - 1
            return VerifyReport(ok=False, events=events, head=None, first_bad_version=err.version)
        return VerifyReport(ok=True, events=len(checked.records), head=checked.final.last_hash, first_bad_version=None)

    def import_game(self, lines: Iterable[str], actor: Actor) -> ActionResult:
        """Verify and replay an export file, then store the game with the same events, versions,
        hashes and metadata (one atomic save, with a receipt naming ``actor``)."""

        def refuse_existing(game_id: str) -> None:
            if self._streams.exists(game_id):
                raise Conflict(f"a game {game_id!r} already exists", Code.GAME_EXISTS)

        checked = check_export(
            lines, snapshot_interval=self._snapshot_interval, on_header=refuse_existing, valid_game_id=is_game_id
        )
        final = checked.final
        action_id = str(uuid4())
        receipt = GameImported(
            originator_id=import_stream_id(checked.game_id),
            originator_version=1,
            game_id=checked.game_id,
            action_id=action_id,
            actor=actor.to_json(),
            recorded_at=self._now(),
            events=final.version,
            head=final.last_hash,
        )
        try:
            self._streams.append_alone(*checked.records, receipt)
        except VersionClash:
            raise Conflict(f"a game {checked.game_id!r} already exists", Code.GAME_EXISTS) from None
        if checked.checkpoints:
            self._streams.put_snapshots([g.snapshot() for g in checked.checkpoints])
        self._games.remember(final)
        flagged = reverted_versions(final.reverts)
        events = [recorded(e, e.originator_version in flagged) for e in checked.records]
        return ActionResult(checked.game_id, action_id, final.version, events, final.state)
