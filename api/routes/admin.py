"""Tokens (admin) and the card catalog (docs/api.md, Tokens and Cards)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from api import schemas
from api.bodies import TokenCreateBody, parse_token_create
from api.deps import Admin, Reader, ServiceDep, json_object, raw_body
from api.errors import ApiError
from api.routes.games import ERRORS
from domain.cards.behaviour import behaviour_of

router = APIRouter(prefix="/v1", tags=["admin"])


@router.post(
    "/tokens",
    status_code=201,
    response_model=schemas.TokenCreated,
    responses=ERRORS,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/TokenCreate"},
                    "example": schemas.example_of(TokenCreateBody),
                }
            },
        }
    },
    summary="Create a token (admin); the secret is shown once",
)
async def create_token(request: Request, service: ServiceDep, principal: Admin) -> dict[str, Any]:
    body = parse_token_create(json_object(await raw_body(request)))
    name, role, game_id, player_id = body.name, body.role, body.game_id, body.player_id
    if game_id is not None and player_id is not None:
        _, state = await run_in_threadpool(service.games.state_at, game_id, None)
        if player_id not in state.players:
            raise ApiError(404, "unknown_player", f"game {game_id!r} has no player {player_id!r}")
    secret = await run_in_threadpool(service.tokens.create, name, role, game_id, player_id)
    return {"token": secret, "name": name, "role": role, "game_id": game_id, "player_id": player_id}


@router.get(
    "/whoami",
    response_model=schemas.WhoAmI,
    responses=ERRORS,
    tags=["admin"],
    summary="The caller's token: name, role and binding",
)
async def whoami(principal: Reader) -> dict[str, Any]:
    """Lets a tool (or the web page) show only what the token may do."""
    return {
        "name": principal.name,
        "role": principal.role,
        "game_id": principal.game_id,
        "player_id": principal.player_id,
    }


@router.get(
    "/cards/{name:path}", response_model=schemas.CardOut, responses=ERRORS, tags=["cards"], summary="Catalog entry"
)
async def get_card(name: str, request: Request, principal: Reader) -> dict[str, Any]:
    card = request.app.state.catalog.get(name)
    if card is None:
        raise ApiError(422, "unknown_card", f"unknown card {name!r}: not in the catalog")
    return {**card.to_json(), "implemented": behaviour_of(card.name) is not None or _intrinsic(card.subtypes)}


def _intrinsic(subtypes: frozenset[str]) -> bool:
    """Basic land types carry their mana ability by rule (CR 305.6)."""
    return bool(subtypes & {"Plains", "Island", "Swamp", "Mountain", "Forest"})
