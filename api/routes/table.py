"""Setting up a table (docs/api.md, Player links and QR codes): one player token per player of a
game, for the scorekeeper who created it, and QR codes of the links that carry them.

``POST /v1/games/{id}/player-links`` mints a ``player`` token for each player of the game (or
the ones named) and answers each with the page address that carries it in its fragment. Only
admins may mint tokens in general (``POST /v1/tokens``); this endpoint lets the scorekeeper who
created a game, and any judge or admin, hand that game's players their tokens, and nothing else:
the tokens are bound to that game and player, so they are no more powerful than the player's own
seat. A scorekeeper who did not create the game (the ``GameStarted`` event's actor, by token name
and role) is refused with ``403 not_game_creator``.

``POST /v1/qr`` draws a QR code (SVG, made by the ``segno`` library) of a short text sent in the
body, so a secret in a link never goes into a URL or a server log.
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import quote

import segno
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from api.deps import Reader, Scorekeeper, json_object, raw_body, service_of
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.threads import in_thread
from domain.commands.bodies.text import MAX_NAME
from domain.errors import Code, InvalidCommand, NotFound, UnknownName
from domain.permissions import check_player_links

router = APIRouter(prefix="/v1", tags=["table"], route_class=CheckedRoute)
MAX_QR_TEXT = 1000
NO_STORE = {"Cache-Control": "no-store"}


class PlayerLink(BaseModel):
    """One player's token and the page address that carries it (shown once)."""

    player_id: str
    name: str
    """The player's name in the game (its id when it has none)."""
    token: str
    """A ``player`` token bound to this game and player; only its hash is stored."""
    path: str
    """``/games/{id}#token=…``: the game page with the token in the fragment (never sent)."""


class PlayerLinks(BaseModel):
    """Body of ``POST /v1/games/{id}/player-links``."""

    game_id: str
    links: list[PlayerLink]


def _object_or_empty(body: bytes, allowed: set[str]) -> dict[str, Any]:
    """An optional JSON object body whose fields are all in ``allowed`` (else 422 unknown_field)."""
    parsed = json_object(body) if body.strip() else {}
    unknown = sorted(set(parsed) - allowed)
    if unknown:
        raise UnknownName(f"unknown field {unknown[0]!r}; this body takes {sorted(allowed)}", Code.UNKNOWN_FIELD)
    return parsed


@router.post(
    "/games/{game_id}/player-links",
    status_code=201,
    response_model=PlayerLinks,
    responses=ERRORS,
    openapi_extra={
        "requestBody": {
            "required": False,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {"players": {"type": "array", "items": {"type": "string"}}},
                    },
                    "example": {"players": ["P1", "P2"]},
                }
            },
        }
    },
    summary="Player tokens and page links for a game's players (its creator, judge+)",
)
async def player_links(game_id: str, request: Request, principal: Scorekeeper) -> JSONResponse:
    service = service_of(request)
    body = _object_or_empty(await raw_body(request), {"players"})
    _, state = await in_thread(service.state_at, game_id, None)
    creator = await in_thread(service.creator, game_id)
    check_player_links(principal, game_id, (creator.name, creator.role, creator.token))
    wanted = body.get("players")
    if wanted is None:
        wanted = list(state.players)
    if not isinstance(wanted, list) or not wanted or not all(isinstance(p, str) for p in wanted):
        raise InvalidCommand(f"'players' must be a non-empty list of player ids, got {wanted!r}", Code.INVALID_FIELD)
    for player_id in wanted:
        if player_id not in state.players:
            raise NotFound(f"game {game_id!r} has no player {player_id!r}", Code.UNKNOWN_PLAYER)
    links = []
    for player_id in dict.fromkeys(wanted):
        player_name = state.players[player_id].name or player_id
        token_name = _token_name(player_name, player_id, game_id)
        secret = await in_thread(service.create_token, token_name, "player", game_id, player_id)
        links.append(
            {
                "player_id": player_id,
                "name": player_name,
                "token": secret,
                "path": f"/games/{_path_part(game_id)}#token={secret}",
            }
        )
    return JSONResponse({"game_id": game_id, "links": links}, status_code=201, headers=NO_STORE)


def _token_name(player_name: str, player_id: str, game_id: str) -> str:
    """``Alice (P1), game g1``, within ``MAX_NAME`` (the token's name is its events' actor name,
    which an import checks against the same limit): a long name is cut, then the game's id."""
    name = f"{player_name} ({player_id}), game {game_id}"
    if len(name) <= MAX_NAME:
        return name
    return f"{player_name[:40]}… ({player_id[:60]}), game {game_id[:60]}"[:MAX_NAME]


def _path_part(text: str) -> str:
    return quote(text, safe="")


@router.post(
    "/qr",
    responses={
        200: {"content": {"image/svg+xml": {}}, "description": "the QR code as SVG"},
        **{k: v for k, v in ERRORS.items() if k in (400, 401, 403, 422)},
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "required": ["text"],
                        "additionalProperties": False,
                        "properties": {"text": {"type": "string", "minLength": 1, "maxLength": MAX_QR_TEXT}},
                    },
                    "example": {"text": "http://127.0.0.1:8000/games/g1#token=…"},
                }
            },
        }
    },
    summary="A QR code (SVG) of a short text, e.g. a player link",
)
async def qr_code(request: Request, principal: Reader) -> Response:
    body = _object_or_empty(await raw_body(request), {"text"})
    text = body.get("text")
    if not isinstance(text, str) or not text or len(text) > MAX_QR_TEXT:
        raise InvalidCommand(f"'text' must be a string of 1-{MAX_QR_TEXT} characters", Code.INVALID_FIELD)
    svg = await in_thread(qr_svg, text)
    return Response(svg, media_type="image/svg+xml", headers={**NO_STORE, "X-Content-Type-Options": "nosniff"})


def qr_svg(text: str) -> bytes:
    """The QR code of ``text`` (error correction M, the standard four-module quiet zone); a text
    too long for the largest code (version 40: 2,331 bytes at level M, so 1,000
    characters fit only when most are one byte) is ``400 qr_text_too_long``, never a 500."""
    try:
        code = segno.make(text, error="m", micro=False)
    except segno.DataOverflowError:
        raise InvalidCommand(
            f"the text ({len(text.encode('utf-8'))} bytes in UTF-8) doesn't fit in a QR code; "
            "the largest holds 2,331 bytes at level M",
            Code.QR_TEXT_TOO_LONG,
        ) from None
    out = io.BytesIO()
    code.save(out, kind="svg", scale=6, border=4, xmldecl=False, svgclass="qr", lineclass=None)
    return out.getvalue()
