"""Games: create, list, state (live and at a version), actions and undo (docs/api.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from api import schemas
from api.auth import Principal
from api.bodies import parse_undo
from api.deps import Actor, Reader, Scorekeeper, if_match, json_object, raw_body, service_of
from api.idempotency import Answer, Rebuild, idempotent
from api.presenters import MINIMAL, action_out, game_out, prefers_minimal
from api.query import CheckedRoute
from api.threads import in_thread
from domain.commands import parse_command, parse_create_body
from domain.commands.bodies.create import GameCreateBody
from domain.permissions import check_command, check_game, check_undo
from ledger.service import LedgerService

router = APIRouter(prefix="/v1/games", tags=["games"], route_class=CheckedRoute)


QUICK_UNDO_REASON = "quick undo: the player takes back their own last report"
"""The reason on the record of a player's quick undo that gives none (docs/judges.md)."""


def _caller(principal: Principal) -> str:
    return f"{principal.role}:{principal.name}:{principal.game_id or ''}:{principal.player_id or ''}"


def _rebuild_action(service: LedgerService, principal: Principal) -> Rebuild:
    """The response of a stored action, rebuilt from the record (see ``api.idempotency``)."""

    def rebuild(game_id: str, action_id: str, version: int) -> tuple[int, dict[str, Any]]:
        return 201, action_out(service.action(game_id, action_id, version), principal)

    return rebuild


PROBLEM = {"content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"description": desc, **PROBLEM}
    for status, desc in (
        (400, "malformed request"),
        (401, "no or bad token"),
        (403, "role not allowed"),
        (404, "unknown game or object"),
        (409, "version conflict or idempotency-key reuse"),
        (422, "illegal by the rules or the game state"),
        (503, "the event store could not be reached in time (store_unavailable, with Retry-After): send it again"),
    )
}


@router.post(
    "",
    status_code=201,
    response_model=schemas.GameOut,
    responses=ERRORS,
    openapi_extra=schemas.body_doc("GameCreate", {"two_player": schemas.example_of(GameCreateBody)}),
    summary="Create a game (scorekeeper+)",
)
async def create_game(request: Request, principal: Scorekeeper) -> JSONResponse:
    service = service_of(request)
    body_bytes = await raw_body(request)
    body = parse_create_body(json_object(body_bytes))
    game_id = body.game_id

    def perform(key: str | None, fingerprint: str | None) -> Answer:
        result = service.create_game(
            body,
            principal,
            game_id,
            idempotency_key=key,
            request_fingerprint=fingerprint,
        )
        out = {**game_out(result.game_id, result.version, result.state, principal), "action_id": result.action_id}
        return Answer(201, out, result.key_claimed)

    def rebuild(created: str, action_id: str, version: int) -> tuple[int, dict[str, Any]]:
        _, state = service.state_at(created, version)
        return 201, {**game_out(created, version, state, principal), "action_id": action_id}

    return await idempotent(request, service, body_bytes, perform, rebuild, _caller(principal))


@router.get(
    "",
    response_model=schemas.GameList,
    summary="List game summaries (a read model: it may trail a write by a moment)",
    responses=ERRORS,
)
async def list_games(
    request: Request,
    principal: Reader,
    event: str | None = None,
    round: Annotated[int | None, Query(ge=0)] = None,
    table: Annotated[int | None, Query(ge=0)] = None,
    status: Annotated[str | None, Query(pattern="^(in_progress|finished)$")] = None,
) -> dict[str, Any]:
    service = service_of(request)
    games = await in_thread(service.list_games, event, round, table, status)
    return {"games": [g.to_json() for g in games]}


@router.get("/{game_id}", response_model=schemas.GameOut, responses=ERRORS, summary="Game state, live or at a version")
async def get_game(
    game_id: str,
    request: Request,
    principal: Reader,
    version: Annotated[int | None, Query(ge=1)] = None,
) -> dict[str, Any]:
    service = service_of(request)
    at, state = await in_thread(service.state_at, game_id, version)
    return game_out(game_id, at, state, principal)


@router.post(
    "/{game_id}/actions",
    status_code=201,
    response_model=schemas.ActionOut,
    responses=ERRORS,
    openapi_extra=schemas.body_doc("Action", schemas.ACTION_EXAMPLES),
    summary="Report an action (player in own game, scorekeeper+)",
)
async def post_action(game_id: str, request: Request, principal: Actor) -> JSONResponse:
    service = service_of(request)
    body_bytes = await raw_body(request)
    check_game(principal, game_id)  # before the body is read: nothing learnt of other games
    body = json_object(body_bytes)
    expected = if_match(request)
    command = parse_command(body, service.catalog.resolve)
    # What the grant alone decides, before anything is read; the service asks again inside the
    # decision, on the state the action is decided on.
    check_command(principal, game_id, command)
    # ``Prefer: return=minimal`` (RFC 7240): the answer leaves the state out; the default, for
    # v1 clients, keeps it.
    minimal = prefers_minimal(request.headers.get("prefer"))

    def perform(key: str | None, fingerprint: str | None) -> Answer:
        result = service.act(
            game_id, command, principal, expected, idempotency_key=key, request_fingerprint=fingerprint
        )
        return Answer(201, action_out(result, principal, with_state=not minimal), result.key_claimed)

    response = await idempotent(
        request, service, body_bytes, perform, _rebuild_action(service, principal), _caller(principal)
    )
    if minimal and "idempotent-replayed" not in response.headers:  # a replay is the first answer, as it was
        response.headers["Preference-Applied"] = MINIMAL
    return response


@router.post(
    "/{game_id}/undo",
    status_code=201,
    response_model=schemas.ActionOut,
    responses=ERRORS,
    openapi_extra=schemas.body_doc(
        "Undo",
        {
            "last_action": {"actions": 1, "reason": "wrong target reported"},
            "to_version": {"to_version": 12, "reason": "backup"},
        },
    ),
    summary="Undo by appending a revert (judge+; a player token: its own last action, within 30 s)",
)
async def undo(game_id: str, request: Request, principal: Actor) -> JSONResponse:
    service = service_of(request)
    check_undo(principal, game_id)  # a judge's backup, or a player's quick undo: before the body is read
    body_bytes = await raw_body(request)
    raw = json_object(body_bytes)
    if principal.role == "player" and "reason" not in raw:
        raw = {**raw, "reason": QUICK_UNDO_REASON}  # a player's quick undo needs no reason of its own
    body = parse_undo(raw)
    actions = 1 if body.to_version is None and body.actions is None else body.actions
    expected = if_match(request)

    def perform(key: str | None, fingerprint: str | None) -> Answer:
        # Who may back this game up is decided inside the decision (domain.permissions.check_backup).
        result = service.undo(
            game_id,
            to_version=body.to_version,
            actions=actions,
            reason=body.reason,
            actor=principal,
            expected_version=expected,
            idempotency_key=key,
            request_fingerprint=fingerprint,
        )
        return Answer(201, action_out(result, principal), result.key_claimed)

    return await idempotent(
        request, service, body_bytes, perform, _rebuild_action(service, principal), _caller(principal)
    )


@router.get("/{game_id}/boundaries", responses=ERRORS, summary="The game's actions: where a backup may go back to")
async def boundaries(game_id: str, request: Request, principal: Reader) -> dict[str, Any]:
    service = service_of(request)
    actions = await in_thread(service.boundaries, game_id)
    return {"game_id": game_id, "actions": actions, "boundaries": [a["last"] for a in actions]}
