"""An event link's own view (docs/api.md, Tournaments; docs/tournaments.md, The player's link):
``GET /v1/tournaments/{tid}/me``, the player's "my match now" that the page at
``/tournaments/{tid}/me`` polls. Only the event's own links read it (``403 wrong_game`` for another
player token, ``403 forbidden`` for other roles); a dropped player's link still reads it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from api.deps import Actor, plain_path_parameters, service_of
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.schemas_player import MeOut
from api.threads import in_thread

router = APIRouter(
    prefix="/v1/tournaments",
    tags=["tournaments"],
    dependencies=[Depends(plain_path_parameters)],
    route_class=CheckedRoute,
)


@router.get(
    "/{tid}/me",
    response_model=MeOut,
    responses=ERRORS,
    summary="The event link's own view: the player, the round, the match and game to play now",
)
async def me(tid: str, request: Request, principal: Actor) -> dict[str, Any]:
    found: dict[str, Any] = await in_thread(service_of(request).tournament_me, tid, principal)
    return found
