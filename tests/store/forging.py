"""Forging exports in tests: edit an exported file and recompute its whole hash chain, as a
careful forger would, so that only the rules check on import can catch the edit."""

from __future__ import annotations

import json
from typing import Any

from store.hash_chain import GENESIS_HASH, Fact, seal


def rehash(lines: list[str]) -> list[str]:
    """Recompute every ``prev_hash``, ``hash`` and the header's ``events`` and ``head``."""
    header = json.loads(lines[0])
    prev = GENESIS_HASH
    out = []
    for text in lines[1:]:
        event: dict[str, Any] = json.loads(text)
        (sealed,) = seal(
            header["game_id"],
            [Fact(event["type"], event["data"], event.get("rule"))],
            after=event["version"] - 1,
            prev_hash=prev,
            action_id=event["action_id"],
            actor=event["actor"],
            recorded_at=event["recorded_at"],
        )
        event["prev_hash"] = prev
        event["hash"] = prev = sealed.hash
        out.append(json.dumps(event, ensure_ascii=False))
    header["events"] = len(out)
    header["head"] = prev
    return [json.dumps(header), *out]
