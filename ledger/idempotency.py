"""``Idempotency-Key`` records, stored as streams of the ledger application.

A key's stream id is ``_idem/<SHA-256 of the key>`` (deterministic, so two requests with one key
meet on one primary key). Two records can live there:

1. ``IdempotencyKeyClaimed`` (version 1), written in the *same atomic save* as the action's
   events when the caller passes the key to ``act`` / ``create_game`` / ``undo``. Of two racing
   requests with one key at most one can store its action: the other's whole save fails on the
   key's primary key, and it gets a ``Conflict``, never a duplicate action.
2. ``IdempotentResponseRecorded`` (``remember``): the response to replay on a retry. It follows
   the claim (version 2), or stands alone (version 1) for a response of a request that stored
   nothing to claim with.

A request reads its key's stream once (``read``); what it found (``KeyRecords``) is what
``remember`` writes after, so answering a request never reads the stream again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from domain.errors import Code, Conflict, InvalidCommand
from ledger.clock import Now
from store.errors import VersionClash
from store.records import IdempotencyKeyClaimed, IdempotentResponseRecorded, idempotency_stream_id
from store.streams import Streams

Recalled = tuple[str, int, str]
"""``(fingerprint, status, response_json)`` of a remembered response."""


def key_stream_id(key: str) -> str:
    if not isinstance(key, str) or not key:
        raise InvalidCommand(
            f"an idempotency key must be a non-empty string, got {key!r}", Code.INVALID_IDEMPOTENCY_KEY
        )
    return idempotency_stream_id(hashlib.sha256(key.encode("utf-8")).hexdigest())


@dataclass(frozen=True, slots=True)
class KeyRecords:
    """What one read of a key's stream found."""

    key: str
    claim: IdempotencyKeyClaimed | None
    """The claim an action stored with the key (also when its response was never remembered,
    e.g. the process died between the save and ``remember``)."""
    response: IdempotentResponseRecorded | None
    """The remembered response, if any."""
    fingerprints: tuple[str, ...]
    """The fingerprint of every record, in stream order."""

    @property
    def recalled(self) -> Recalled | None:
        """The remembered response as ``(fingerprint, status, response_json)``, or ``None``
        (also while only a claim exists)."""
        if self.response is None:
            return None
        return self.response.fingerprint, self.response.status, self.response.response_json


class IdempotencyRecords:
    """Claims, remembers and recalls responses by idempotency key."""

    def __init__(self, streams: Streams, now: Now) -> None:
        self._streams = streams
        self._now = now

    def read(self, key: str) -> KeyRecords:
        """Everything stored under ``key``: one read of its stream."""
        claim: IdempotencyKeyClaimed | None = None
        response: IdempotentResponseRecorded | None = None
        fingerprints: list[str] = []
        for record in self._streams.read(key_stream_id(key)):
            if isinstance(record, IdempotencyKeyClaimed) and claim is None:
                claim = record
            elif isinstance(record, IdempotentResponseRecorded):
                response = record
            fingerprints.append(str(getattr(record, "fingerprint", "")))
        return KeyRecords(key, claim, response, tuple(fingerprints))

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
        records = self._streams.read(claim.originator_id)
        if not records:
            return None
        first = records[0]
        if getattr(first, "fingerprint", None) != claim.fingerprint:
            return Conflict(
                "this Idempotency-Key was already used with a different request", Code.IDEMPOTENCY_KEY_REUSED
            )
        if isinstance(first, IdempotencyKeyClaimed):
            return Conflict(
                f"a request with this Idempotency-Key was already recorded as action {first.action_id} "
                f"(game {first.game_id!r}, version {first.version}); its response is not stored yet",
                Code.IDEMPOTENCY_IN_PROGRESS,
            )
        return Conflict("this Idempotency-Key was already answered", Code.IDEMPOTENCY_IN_PROGRESS)

    def remember(
        self, seen: KeyRecords, fingerprint: str, status: int, response_json: str, *, claimed_since: bool = False
    ) -> None:
        """Store the response for the key ``seen`` was read for. ``claimed_since``: the request
        claimed the key in its action's save after that read (so the claim is the record before
        this one). The same response twice is a no-op, another one for a key already answered
        (or claimed with another fingerprint) a ``Conflict``."""
        if any(other != fingerprint for other in seen.fingerprints):
            raise Conflict(
                f"Idempotency-Key {seen.key!r} was already used with a different request", Code.IDEMPOTENCY_KEY_REUSED
            )
        if seen.response is not None:
            return
        response = IdempotentResponseRecorded(
            originator_id=key_stream_id(seen.key),
            originator_version=len(seen.fingerprints) + (2 if claimed_since else 1),
            fingerprint=fingerprint,
            status=status,
            response_json=response_json,
            recorded_at=self._now(),
        )
        try:
            self._streams.append(response)
        except VersionClash:
            stored = self.read(seen.key).response
            if stored is not None and stored.fingerprint == fingerprint and stored.response_json == response_json:
                return  # an earlier try of this save committed, its answer was lost (a failover)
            raise Conflict(
                f"Idempotency-Key {seen.key!r} was answered by another request first", Code.IDEMPOTENCY_IN_PROGRESS
            ) from None
