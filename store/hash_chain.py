"""The tamper-evident hash chain over a game's events (docs/architecture.md; docs/audit.md).

``hash = SHA-256(prev_hash + canonical JSON of the record)``, hex encoded, where the record is
exactly the fields ``_hashed_record`` lists and the canonical JSON is RFC 8785
(``store.canonical_json``: sorted keys, no whitespace, fixed number formatting).
``prev_hash`` is the previous event's hash, 64 zeros for a game's first event. Editing any
hashed field of any event changes its hash, so the chain breaks from that version on.

``seal`` is the only way to compute a link: the service seals the events it appends, and
verify, the import check, the benchmarks and the tests re-seal what they read and compare. One
function, so what is written and what is checked can never drift apart.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, Protocol

from domain.errors import Code, InvalidCommand
from store.canonical_json import CanonicalizationError, canonical
from store.records import GENESIS_HASH, GameEvent

__all__ = ["GENESIS_HASH", "Fact", "Sealable", "seal"]


class Sealable(Protocol):
    """What the chain covers of one event besides its metadata. A domain event is one, and so is
    a stored ``GameEvent`` (re-sealed by verify)."""

    @property
    def type(self) -> str: ...
    @property
    def data(self) -> Mapping[str, Any]: ...
    @property
    def rule(self) -> str | None: ...


class Fact(NamedTuple):
    """A ``Sealable`` read from a file or a record (the import check, forging tests)."""

    type: str
    data: Mapping[str, Any]
    rule: str | None


def seal(
    game_id: str,
    events: Iterable[Sealable],
    *,
    after: int,
    prev_hash: str,
    action_id: str,
    actor: Mapping[str, str],
    recorded_at: str,
) -> list[GameEvent]:
    """The stored records of ``events`` as one action: versions ``after + 1, ...``, each linked
    to the one before (the first to ``prev_hash``), one action id, actor and time.

    Data is stored as it reads back (tuples become lists), so the hash computed here is the hash
    recomputed from the stored record. Raises ``InvalidCommand(value_out_of_range)`` for a
    number JSON can't carry exactly (RFC 8785 allows integers up to 2**53 - 1), so such a value
    is refused before anything is stored."""
    who = {"name": actor["name"], "role": actor["role"]}
    if actor.get("token") is not None:
        who["token"] = actor["token"]  # the token's public id, where known (an additive key)
    out: list[GameEvent] = []
    for version, event in enumerate(events, start=after + 1):
        data = _json_native(event.data)
        record = _hashed_record(game_id, version, event.type, data, event.rule, action_id, who, recorded_at)
        digest = _link(prev_hash, record)
        out.append(
            GameEvent(
                originator_id=game_id,
                originator_version=version,
                type=event.type,
                data=data,
                rule=event.rule,
                action_id=action_id,
                actor=who,
                recorded_at=recorded_at,
                prev_hash=prev_hash,
                hash=digest,
            )
        )
        prev_hash = digest
    return out


def _json_native(data: Mapping[str, Any]) -> dict[str, Any]:
    native: dict[str, Any] = json.loads(json.dumps(data, ensure_ascii=False))
    return native


def _hashed_record(
    game_id: str,
    version: int,
    type_: str,
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
        "type": type_,
        "data": data,
        "rule": rule,
        "action_id": action_id,
        "actor": actor,
        "recorded_at": recorded_at,
    }


def _link(prev_hash: str, record: Mapping[str, Any]) -> str:
    """SHA-256 hex of ``prev_hash`` (64 ASCII hex digits) followed by the RFC 8785 bytes of
    ``record``."""
    try:
        canonical_bytes = canonical(dict(record))
    except CanonicalizationError as err:
        raise InvalidCommand(f"a value can't be recorded: {err}", Code.VALUE_OUT_OF_RANGE) from None
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_bytes).hexdigest()
