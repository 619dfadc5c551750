"""Tokens (admin) and the card catalog (docs/api.md, Tokens and Cards)."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter, Request

from api import schemas
from api.bodies import TokenCreateBody, parse_token_create
from api.deps import Admin, Reader, json_object, raw_body, service_of
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.threads import in_thread
from domain.cards.behaviour import behaviour_of
from domain.errors import Code, IllegalAction, NotFound
from ledger.tokens import ID_LENGTH, secret_digest
from store.results import TokenInfo

router = APIRouter(prefix="/v1", tags=["admin"], route_class=CheckedRoute)


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
async def create_token(request: Request, principal: Admin) -> dict[str, Any]:
    service = service_of(request)
    body = parse_token_create(json_object(await raw_body(request)))
    name, role, game_id, player_id = body.name, body.role, body.game_id, body.player_id
    if game_id is not None and player_id is not None:
        _, state = await in_thread(service.state_at, game_id, None)
        if player_id not in state.players:
            raise NotFound(f"game {game_id!r} has no player {player_id!r}", Code.UNKNOWN_PLAYER)
    secret = await in_thread(partial(service.create_token, name, role, game_id, player_id, expires_at=body.expires_at))
    return {
        "token": secret,
        "id": secret_digest(secret)[:ID_LENGTH],
        "name": name,
        "role": role,
        "game_id": game_id,
        "player_id": player_id,
        "expires_at": body.expires_at,
    }


def _token_out(info: TokenInfo) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "role": info.role,
        "game_id": info.game_id,
        "player_id": info.player_id,
        "issued_at": info.issued_at,
        "expires_at": info.expires_at,
        "revoked_at": info.revoked_at,
        "last_used_at": info.last_used_at,
    }


@router.get(
    "/tokens",
    response_model=schemas.TokenList,
    responses=ERRORS,
    summary="List the stored tokens (admin): names, roles, expiry, last use; never secrets",
)
async def list_tokens(request: Request, principal: Admin) -> dict[str, Any]:
    service = service_of(request)
    tokens = await in_thread(service.list_tokens)
    return {"tokens": [_token_out(t) for t in tokens]}


@router.delete(
    "/tokens/{token_id}",
    response_model=schemas.TokenOut,
    responses=ERRORS,
    summary="Revoke a token (admin): refused at once here, within a second in every worker",
)
async def revoke_token(token_id: str, request: Request, principal: Admin) -> dict[str, Any]:
    service = service_of(request)
    actor = {"name": principal.name, "role": principal.role}
    info = await in_thread(service.revoke_token, token_id, actor)
    return _token_out(info)


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
        raise IllegalAction(f"unknown card {name!r}: not in the catalog", Code.UNKNOWN_CARD)
    return {**card.to_json(), "implemented": behaviour_of(card.name) is not None or _intrinsic(card.subtypes)}


def _intrinsic(subtypes: frozenset[str]) -> bool:
    """Basic land types carry their mana ability by rule (CR 305.6)."""
    return bool(subtypes & {"Plains", "Island", "Swamp", "Mountain", "Forest"})
