"""What a response shows of the record, by role: known libraries and hands are for judges and
admins only (docs/api.md, State), so lower roles see those parts of events redacted."""

from __future__ import annotations

from typing import Any

from api.auth import Principal
from domain.event_view import redacted
from domain.state import GameState
from domain.view import state_view
from ledger.service import ActionResult, RecordedEvent
from projections.sentences import describe


def sees_hidden(principal: Principal) -> bool:
    return principal.at_least("judge")


def game_out(game_id: str, version: int, state: GameState, principal: Principal) -> dict[str, Any]:
    return {"game_id": game_id, "version": version, "state": state_view(state, show_libraries=sees_hidden(principal))}


def event_out(event: RecordedEvent, principal: Principal) -> dict[str, Any]:
    """An event as the API serves it: its stored form, its readable ``sentence`` (which never
    names hidden cards, so it is written from the stored data) and, for readers who may not see
    hidden zones, its data redacted by its type's rule (``domain.event_view``)."""
    out = event.to_json()
    out["sentence"] = describe(event.type, event.data, event.rule)
    if not sees_hidden(principal):
        data = redacted(event.type, event.data)
        if data is not None:
            out["data"] = data
            out["redacted"] = True
    return out


def action_out(result: ActionResult, principal: Principal) -> dict[str, Any]:
    return {
        "action_id": result.action_id,
        "version": result.version,
        "events": [event_out(e, principal) for e in result.events],
        "state": state_view(result.state, show_libraries=sees_hidden(principal)),
    }
