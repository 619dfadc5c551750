"""Matches and results by event and round (docs/judges.md, docs/api.md): the matches read model
(``projections.matches``), match reports, and the results export for tournament software."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import Field

from api.auth import require_async
from api.deps import json_object, plain_path_parameters, raw_body, service_of
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.routes.judging import _parse
from api.threads import in_thread
from domain.commands.bodies.fields import Body, Text
from domain.errors import Code, Conflict, IllegalAction, InvalidCommand
from domain.permissions import match_player
from ledger.csv_cells import to_csv
from ledger.service import Actor as StoreActor
from projections.matches import RESULT_COLUMNS, match_result

router = APIRouter(
    prefix="/v1/events", tags=["matches"], dependencies=[Depends(plain_path_parameters)], route_class=CheckedRoute
)


class ConfirmBody(Body):
    score: Text = Field(description="the score confirmed, as the match shows it (`2-1-0`)")


class ResultBody(Body):
    wins: dict[Text, int] = Field(description="game wins by player id")
    draws: int = Field(0, ge=0, le=5)


class EmptyBody(Body):
    pass


@router.get("/{event}/rounds/{round}", responses=ERRORS, summary="A round: tables, match results, open calls")
async def get_round(event: str, round: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "spectator")
    return await in_thread(service.round, event, round)


@router.get("/{event}/rounds/{round}/tables/{table}", responses=ERRORS, summary="One match and its result")
async def get_match(event: str, round: str, table: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "spectator")
    return await in_thread(service.match, event, round, table)


@router.post(
    "/{event}/rounds/{round}/tables/{table}/confirm", status_code=201, responses=ERRORS, summary="Confirm the result"
)
async def confirm(event: str, round: str, table: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "player")
    body = _parse(ConfirmBody, json_object(await raw_body(request)), "confirmation")
    match = await in_thread(service.match_record, event, round, table)
    player = match_player(principal, match["games"], match["players"])
    current = match_result(match)
    if not current["complete"] and len(set(current["wins"].values())) != 1:
        raise IllegalAction(f"the match is not over: {current['score']}", Code.MATCH_NOT_OVER)
    if body.score != current["score"]:
        raise Conflict(f"the match shows {current['score']}, not {body.score}", Code.RESULT_CHANGED)
    actor = StoreActor(principal.name, principal.role)
    await in_thread(
        lambda: service.report_match(event, round, table, "confirm", actor, player=player, score={"score": body.score})
    )
    return {"event": event, "round": round, "table": table, "confirmed_by": player, "score": body.score}


@router.post(
    "/{event}/rounds/{round}/tables/{table}/intentional-draw",
    status_code=201,
    responses=ERRORS,
    summary="Agree to an intentional draw (MTR 2.4; both players)",
)
async def intentional_draw(event: str, round: str, table: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "player")
    _parse(EmptyBody, json_object(await raw_body(request)), "intentional draw")
    match = await in_thread(service.match_record, event, round, table)
    player = match_player(principal, match["games"], match["players"])
    current = match_result(match)
    if current["complete"] and current["source"] != "intentional_draw":
        # MTR 2.4: players may agree to a draw while the match is played, not undo its result.
        raise IllegalAction(
            f"the match is over ({current['score']}, {current['source']}): too late for an intentional draw",
            Code.MATCH_COMPLETE,
        )
    actor = StoreActor(principal.name, principal.role)
    await in_thread(lambda: service.report_match(event, round, table, "intentional_draw", actor, player=player))
    return {"event": event, "round": round, "table": table, "agreed_by": player}


@router.post(
    "/{event}/rounds/{round}/tables/{table}/result",
    status_code=201,
    responses=ERRORS,
    summary="Enter the match result (scorekeeper+)",
)
async def enter_result(event: str, round: str, table: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body = _parse(ResultBody, json_object(await raw_body(request)), "result")
    match = await in_thread(service.match_record, event, round, table)
    unknown = sorted(set(body.wins) - set(match["players"]))
    if unknown or any(not 0 <= n <= 5 for n in body.wins.values()):
        raise InvalidCommand(
            f"wins are 0-5 by player of this match {match['players']}, got {body.wins}", Code.INVALID_FIELD
        )
    score = {"wins": dict(body.wins), "draws": body.draws}
    actor = StoreActor(principal.name, principal.role)
    await in_thread(lambda: service.report_match(event, round, table, "result", actor, score=score))
    return {"event": event, "round": round, "table": table, **score}


@router.get("/{event}/rounds/{round}/results.json", responses=ERRORS, summary="Results export (JSON)")
async def results_json(event: str, round: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "spectator")
    rows = await in_thread(service.round_results, event, round)
    return {"event": event, "round": round, "columns": list(RESULT_COLUMNS), "results": rows}


@router.get("/{event}/rounds/{round}/results.csv", responses=ERRORS, summary="Results export (CSV)")
async def results_csv(event: str, round: str, request: Request) -> Response:
    service = service_of(request)
    await require_async(request, "spectator")
    rows = await in_thread(service.round_results, event, round)
    return Response(to_csv(RESULT_COLUMNS, rows), media_type="text/csv; charset=utf-8")
