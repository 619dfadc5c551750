"""The tamper-evident hash chain over a game's events (DESIGN.md, Event store; docs/audit.md).

``hash = SHA-256(prev_hash + canonical JSON of the record)``, hex encoded, where the record is
exactly the fields of ``hashed_record`` and the canonical JSON is RFC 8785 (the ``rfc8785``
package: sorted keys, no whitespace, fixed number formatting). ``prev_hash`` is the previous
event's hash, 64 zeros for a game's first event. Editing any hashed field of any event changes
its hash, so the chain breaks from that version on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import rfc8785

from domain.errors import InvalidCommand
from projections.stored_events import GENESIS_HASH

__all__ = ["GENESIS_HASH", "chain_hash", "hashed_record", "json_native"]


def json_native(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as it reads back from the store (tuples become lists), so the hash computed at
    write time is the hash recomputed from the stored record."""
    native: dict[str, Any] = json.loads(json.dumps(data, ensure_ascii=False))
    return native


def hashed_record(
    *,
    game_id: str,
    version: int,
    type: str,
    data: Mapping[str, Any],
    rule: str | None,
    action_id: str,
    actor: Mapping[str, str],
    recorded_at: str,
) -> dict[str, Any]:
    """The fields the hash covers: everything stored about the event except the hashes."""
    return {
        "game_id": game_id,
        "version": version,
        "type": type,
        "data": data,
        "rule": rule,
        "action_id": action_id,
        "actor": {"name": actor["name"], "role": actor["role"]},
        "recorded_at": recorded_at,
    }


def chain_hash(prev_hash: str, record: Mapping[str, Any]) -> str:
    """SHA-256 hex of ``prev_hash`` (64 ASCII hex digits) followed by the RFC 8785 bytes of
    ``record``. Raises ``InvalidCommand`` for a number JSON can't carry exactly (RFC 8785 allows
    integers up to 2**53 - 1), so such a value is refused before anything is stored."""
    try:
        canonical = rfc8785.dumps(dict(record))
    except rfc8785.CanonicalizationError as err:
        raise InvalidCommand(f"a value can't be recorded: {err}", "value_out_of_range") from None
    return hashlib.sha256(prev_hash.encode("ascii") + canonical).hexdigest()
