"""``Idempotency-Key`` records, stored as streams of the ledger application.

A key's stream id is ``_idem/<SHA-256 of the key>`` (deterministic, so two requests with one key
meet on one primary key). Two records can live there:

1. ``IdempotencyKeyClaimed`` (version 1), written in the *same atomic save* as the action's
   events when the caller passes the key to ``act`` / ``create_game`` / ``undo``. Of two racing
   requests with one key at most one can store its action: the other's whole save fails on the
   key's primary key, and it gets a ``Conflict``, never a duplicate action.
2. ``IdempotentResponseRecorded`` (``remember``): the response to replay on a retry. It follows
   the claim (version 2), or stands alone (version 1) for a response of a refused request,
   which stored nothing to claim with.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from eventsourcing.persistence import IntegrityError

from domain.errors import Conflict, InvalidCommand
from projections.ledger_application import LedgerApplication
from projections.stored_events import IdempotencyKeyClaimed, IdempotentResponseRecorded, idempotency_stream_id

Recalled = tuple[str, int, str]
"""``(fingerprint, status, response_json)`` of a remembered response."""


def key_stream_id(key: str) -> str:
    if not isinstance(key, str) or not key:
        raise InvalidCommand(f"an idempotency key must be a non-empty string, got {key!r}", "invalid_idempotency_key")
    return idempotency_stream_id(hashlib.sha256(key.encode("utf-8")).hexdigest())


class IdempotencyRecords:
    """Claims, remembers and recalls responses by idempotency key."""

    def __init__(self, app: LedgerApplication, now: Callable[[], str]) -> None:
        self._app = app
        self._now = now

    def _records(self, key: str) -> list[object]:
        return list(self._app.events.get(key_stream_id(key)))

    def claim(self, key: str, fingerprint: str, game_id: str, action_id: str, version: int) -> IdempotencyKeyClaimed:
        """The claim record to save together with an action's events."""
        return IdempotencyKeyClaimed(
            originator_id=key_stream_id(key),
            originator_version=1,
            fingerprint=fingerprint,
            game_id=game_id,
            action_id=action_id,
            version=version,
            recorded_at=self._now(),
        )

    def clash(self, claim: IdempotencyKeyClaimed) -> Conflict | None:
        """After a failed save with ``claim``: the ``Conflict`` to raise if its key was already
        taken, or ``None`` if the save failed for another reason."""
        records = list(self._app.events.get(claim.originator_id))
        if not records:
            return None
        first = records[0]
        if getattr(first, "fingerprint", None) != claim.fingerprint:
            return Conflict("this Idempotency-Key was already used with a different request", "idempotency_key_reused")
        if isinstance(first, IdempotencyKeyClaimed):
            return Conflict(
                f"a request with this Idempotency-Key was already recorded as action {first.action_id} "
                f"(game {first.game_id!r}, version {first.version}); its response is not stored yet",
                "idempotency_in_progress",
            )
        return Conflict("this Idempotency-Key was already answered", "idempotency_in_progress")

    def recall(self, key: str) -> Recalled | None:
        """The remembered response for ``key``, or ``None`` (also while only a claim exists)."""
        for record in reversed(self._records(key)):
            if isinstance(record, IdempotentResponseRecorded):
                return record.fingerprint, record.status, record.response_json
        return None

    def claimed(self, key: str) -> IdempotencyKeyClaimed | None:
        """The claim an action stored with ``key``, if any (also when its response was never
        remembered, e.g. the process died between the save and ``remember``)."""
        for record in self._records(key):
            if isinstance(record, IdempotencyKeyClaimed):
                return record
        return None

    def remember(self, key: str, fingerprint: str, status: int, response_json: str) -> None:
        """Store the response for ``key``; the same response twice is a no-op, another one for a
        key already answered (or claimed with another fingerprint) a ``Conflict``."""
        records = self._records(key)
        for record in records:
            if getattr(record, "fingerprint", None) != fingerprint:
                raise Conflict(
                    f"Idempotency-Key {key!r} was already used with a different request", "idempotency_key_reused"
                )
            if isinstance(record, IdempotentResponseRecorded):
                return
        response = IdempotentResponseRecorded(
            originator_id=key_stream_id(key),
            originator_version=len(records) + 1,
            fingerprint=fingerprint,
            status=status,
            response_json=response_json,
            recorded_at=self._now(),
        )
        try:
            self._app.save(response)
        except IntegrityError:
            raise Conflict(
                f"Idempotency-Key {key!r} was answered by another request first", "idempotency_in_progress"
            ) from None
