"""What a response shows of the record, by role: known libraries and hands are for judges and
admins only (docs/api.md, State), so lower roles see those parts of events redacted."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import JSONResponse

from api.auth import Principal
from domain import events as ev
from domain.event_view import redacted
from domain.state import GameState
from domain.view import state_view
from ledger.service import ActionResult, RecordedEvent
from projections.sentences import Names, describe


def sees_hidden(principal: Principal) -> bool:
    return principal.at_least("judge")


def game_out(game_id: str, version: int, state: GameState, principal: Principal) -> dict[str, Any]:
    return {"game_id": game_id, "version": version, "state": state_view(state, show_libraries=sees_hidden(principal))}


def _payload(event: RecordedEvent) -> ev.DomainEvent | None:
    """The event's typed payload, or ``None`` for a record outside the vocabulary (its sentence
    then names its type)."""
    try:
        return ev.event_class(event.type).from_json(event.data)
    except ev.EventFormatError:
        return None


def event_out(event: RecordedEvent, principal: Principal, names: Names | None = None) -> dict[str, Any]:
    """An event as the API serves it: its stored form, its readable ``sentence`` (which never
    names hidden cards, so it is written from the stored data) and, for readers who may not see
    hidden zones, its data redacted by its type's rule (``domain.event_view``). ``names``: the
    game's names before this event (``Names``, which learns this event's own), so the sentence
    names players and cards rather than ids; without it, ids."""
    out = event.to_json()
    if names is None:
        out["sentence"] = describe(event.type, event.data, event.rule)
    else:
        payload = _payload(event)
        names.learn(payload)  # before its sentence: a game's start names its own players
        out["sentence"] = describe(event.type, event.data, event.rule, payload, names)
    if not sees_hidden(principal):
        data = redacted(event.type, event.data)
        if data is not None:
            out["data"] = data
            out["redacted"] = True
    return out


def action_out(result: ActionResult, principal: Principal, *, with_state: bool = True) -> dict[str, Any]:
    """An action's answer: its events and, unless the client asked for less (``Prefer:
    return=minimal``, ``prefers_minimal``), the game's state after it."""
    names = Names.of_state(result.state)
    out: dict[str, Any] = {
        "action_id": result.action_id,
        "version": result.version,
        # The state after the action knows every player's name and the permanents still there;
        # each event teaches the ones it brings (a permanent entering).
        "events": [event_out(e, principal, names) for e in result.events],
    }
    if with_state:
        out["state"] = state_view(result.state, show_libraries=sees_hidden(principal))
    return out


MINIMAL = "return=minimal"
"""The preference (RFC 7240, section 4.2) that leaves the state out of an action's answer."""


def prefers_minimal(prefer: str | None) -> bool:
    """Whether a ``Prefer`` header asks for ``return=minimal``: RFC 7240 preferences are
    comma-separated, each ``token[=value]`` with optional ``;`` parameters, the token
    case-insensitive and the value possibly quoted. A client that reads the state from another
    source (its own fold of the events, the event stream) saves the server rendering it."""
    if not prefer:
        return False
    for preference in prefer.split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


class AnswerResponse(JSONResponse):
    """A JSON response rendered by orjson (``store.fast_json``): an action's answer holds the
    whole game state, which cost about 280,000 instructions to encode with ``json``, several
    times what orjson takes (docs/performance.md). What orjson refuses (a non-string key, an
    integer past 64 bits, a lone surrogate) is rendered, or refused, by starlette's own
    ``json.dumps``, as before."""

    def render(self, content: Any) -> bytes:
        try:
            return orjson.dumps(content)
        except TypeError:
            return super().render(content)
