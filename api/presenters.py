"""What a response shows of the record, by role: known libraries and hands are for judges and
admins only (docs/api.md, State), so lower roles see those parts of events redacted."""

from __future__ import annotations

from typing import Any

from api.auth import Principal
from domain.state import GameState
from domain.view import state_view
from projections.service import ActionResult, RecordedEvent


def sees_hidden(principal: Principal) -> bool:
    return principal.at_least("judge")


def game_out(game_id: str, version: int, state: GameState, principal: Principal) -> dict[str, Any]:
    return {"game_id": game_id, "version": version, "state": state_view(state, show_libraries=sees_hidden(principal))}


def _redact(event: dict[str, Any]) -> dict[str, Any]:
    data = dict(event["data"])
    if event["type"] == "GameStarted":
        data["players"] = [
            {
                **p,
                "library": None,
                "hand": None,
                "library_size": len(p.get("library") or []) + p.get("library_unknown", 0),
                "hand_size": len(p.get("hand") or []) + p.get("hand_unknown", 0),
            }
            for p in data.get("players", [])
        ]
    elif event["type"] == "CardsDrawn":
        data["cards"] = None
        data["count"] = len(event["data"].get("cards") or []) + event["data"].get("unknown_count", 0)
    elif event["type"] == "ActionsReverted":
        data.pop("restored_state", None)
    else:
        return event
    return {**event, "data": data, "redacted": True}


def event_out(event: RecordedEvent, principal: Principal) -> dict[str, Any]:
    raw = event.to_json()
    return raw if sees_hidden(principal) else _redact(raw)


def action_out(result: ActionResult, principal: Principal) -> dict[str, Any]:
    return {
        "action_id": result.action_id,
        "version": result.version,
        "events": [event_out(e, principal) for e in result.events],
        "state": state_view(result.state, show_libraries=sees_hidden(principal)),
    }
