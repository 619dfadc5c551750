"""Export files (NDJSON): their format, and writing one (docs/audit.md).

An export is a header line ``{"format": "mtg-ledger/1", "game_id", "events", "head",
"exported_at"}`` followed by one line per event in docs/api.md's Event shape, in version order.
Reading one back is checking it before it is imported: ``ledger.export_checks``, which raises
``InvalidExport`` naming the first bad line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from domain.errors import InvalidExport
from store.hash_chain import GENESIS_HASH
from store.results import RecordedEvent

__all__ = ["FORMAT", "MAX_LINE", "InvalidExport", "export_lines"]

FORMAT = "mtg-ledger/1"
"""The ``format`` of an export file's header line."""
MAX_LINE = 16 * 1024 * 1024
"""Longest line of an export file, in bytes (a revert holds a whole state)."""


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def export_lines(game_id: str, events: Sequence[RecordedEvent], exported_at: str) -> Iterator[str]:
    """The file's lines, without line ends: the header, then every event."""
    head = events[-1].hash if events else GENESIS_HASH
    yield _dumps(
        {"format": FORMAT, "game_id": game_id, "events": len(events), "head": head, "exported_at": exported_at}
    )
    for event in events:
        yield _dumps(event.to_json())
