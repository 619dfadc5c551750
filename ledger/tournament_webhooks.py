"""The tournament's webhook events (docs/api.md, Webhooks): ``round_paired`` when a Swiss or
top-cut round is paired, ``standings_updated`` when a result is reported, corrected or drawn
intentionally. The outbox (``ledger.webhooks``) asks ``tournament_payload`` for each stored
record, so a delivery is written in the transaction that tracks the record, like the others.

A body names the tournament, the record's version and the event's data; the standings
themselves are read with ``GET /v1/tournaments/{id}/standings`` (a record alone doesn't hold them).
"""

from __future__ import annotations

from typing import Any

from store.records import TournamentRecord

TOURNAMENT_WEBHOOK_EVENTS: tuple[str, ...] = ("round_paired", "standings_updated")
_BY_TYPE = {
    "RoundPaired": "round_paired",
    "TopCutPaired": "round_paired",
    "ResultReported": "standings_updated",
    "ResultCorrected": "standings_updated",
    "IntentionalDraw": "standings_updated",
}


def tournament_payload(record: object) -> tuple[str, dict[str, Any]] | None:
    """The webhook event and body of a tournament record, or ``None`` (no webhook for it)."""
    if not isinstance(record, TournamentRecord):
        return None
    name = _BY_TYPE.get(record.type)
    if name is None:
        return None
    body = {
        "tournament": record.originator_id.removeprefix("_tournament/"),
        "version": record.originator_version,
        "type": record.type,
        "round": record.data.get("round"),
        "table": record.data.get("table"),
        "data": record.data,
        "actor": record.actor,
        "recorded_at": record.recorded_at,
    }
    return name, body
