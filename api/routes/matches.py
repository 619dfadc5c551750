"""Matches and results by event and round (docs/judges.md, docs/api.md): the matches read model
(``projections.matches``), match reports, and the results export for tournament software.

The edge's one style (issue 39): the caller by role is a dependency (``api.deps``'s ``Reader``,
``Actor``, ``Scorekeeper``), a body is read with ``api.deps.read_body`` into the model written
beside the route that takes it, and every route names its answer (``api.schemas_matches``), so
the OpenAPI document describes it and FastAPI checks it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import Field

from api.deps import (
    Actor,
    Reader,
    Scorekeeper,
    json_object,
    parse_body,
    plain_path_parameters,
    raw_body,
    read_body,
    service_of,
)
from api.query import CheckedRoute
from api.routes import match_bridge as bridge
from api.routes.games import ERRORS
from api.schemas import model_body_doc
from api.schemas_matches import CSV_ANSWER, Confirmed, DrawAgreed, MatchOut, ResultEntered, ResultsOut, RoundOut
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
MAX_GAMES = 5
"""Game wins or draws one match may report (best of five)."""


@router.get(
    "/{event}/rounds/{round}",
    response_model=RoundOut,
    responses=ERRORS,
    summary="A round: tables, match results, open calls",
)
async def get_round(event: str, round: str, request: Request, _: Reader) -> dict[str, Any]:
    return await in_thread(service_of(request).event_round, event, round)


@router.get(
    "/{event}/rounds/{round}/tables/{table}",
    response_model=MatchOut,
    responses=ERRORS,
    summary="One match and its result",
)
async def get_match(event: str, round: str, table: str, request: Request, _: Reader) -> dict[str, Any]:
    return await in_thread(service_of(request).event_match, event, round, table)


class ConfirmBody(Body):
    score: Text = Field(description="the score confirmed, as the match shows it (`2-1-0`)")


@router.post(
    "/{event}/rounds/{round}/tables/{table}/confirm",
    status_code=201,
    response_model=Confirmed,
    openapi_extra=model_body_doc(ConfirmBody),
    responses=ERRORS,
    summary="Confirm the result",
)
async def confirm(event: str, round: str, table: str, request: Request, principal: Actor) -> Any:
    service = service_of(request)
    raw = await raw_body(request)
    body: ConfirmBody = parse_body(ConfirmBody, json_object(raw), "confirmation")
    if await in_thread(service.event_is_tournament, event):
        return await bridge.confirm(request, principal, raw, event, round, table, body.score)
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


class EmptyBody(Body):
    pass


@router.post(
    "/{event}/rounds/{round}/tables/{table}/intentional-draw",
    status_code=201,
    response_model=DrawAgreed,
    openapi_extra=model_body_doc(EmptyBody),
    responses=ERRORS,
    summary="Agree to an intentional draw (MTR 2.4; both players)",
)
async def intentional_draw(event: str, round: str, table: str, request: Request, principal: Actor) -> Any:
    service = service_of(request)
    await read_body(request, EmptyBody, "intentional draw")
    match = await in_thread(service.match_record, event, round, table)
    player = match_player(principal, match["games"], match["players"])
    if await in_thread(service.event_is_tournament, event):
        return await bridge.intentional_draw(request, principal, event, round, table, player, match)
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


class ResultBody(Body):
    wins: dict[Text, int] = Field(description="game wins by player id")
    draws: int = Field(0, ge=0, le=MAX_GAMES)


@router.post(
    "/{event}/rounds/{round}/tables/{table}/result",
    status_code=201,
    response_model=ResultEntered,
    openapi_extra=model_body_doc(ResultBody),
    responses=ERRORS,
    summary="Enter the match result (scorekeeper+)",
)
async def enter_result(event: str, round: str, table: str, request: Request, principal: Scorekeeper) -> Any:
    service = service_of(request)
    raw = await raw_body(request)
    body: ResultBody = parse_body(ResultBody, json_object(raw), "result")
    if await in_thread(service.event_is_tournament, event):
        return await bridge.enter_result(request, principal, raw, event, round, table, dict(body.wins), body.draws)
    match = await in_thread(service.match_record, event, round, table)
    unknown = sorted(set(body.wins) - set(match["players"]))
    if unknown or any(not 0 <= n <= MAX_GAMES for n in body.wins.values()):
        raise InvalidCommand(
            f"wins are 0-5 by player of this match {match['players']}, got {body.wins}", Code.INVALID_FIELD
        )
    score = {"wins": dict(body.wins), "draws": body.draws}
    actor = StoreActor(principal.name, principal.role)
    await in_thread(lambda: service.report_match(event, round, table, "result", actor, score=score))
    return {"event": event, "round": round, "table": table, **score}


@router.get(
    "/{event}/rounds/{round}/results.json", response_model=ResultsOut, responses=ERRORS, summary="Results export (JSON)"
)
async def results_json(event: str, round: str, request: Request, _: Reader) -> dict[str, Any]:
    rows = await in_thread(service_of(request).event_round_results, event, round)
    return {"event": event, "round": round, "columns": list(RESULT_COLUMNS), "results": rows}


@router.get(
    "/{event}/rounds/{round}/results.csv",
    response_model=None,
    response_class=Response,
    responses={**ERRORS, **CSV_ANSWER},
    summary="Results export (CSV)",
)
async def results_csv(event: str, round: str, request: Request, _: Reader) -> Response:
    rows = await in_thread(service_of(request).event_round_results, event, round)
    return Response(to_csv(RESULT_COLUMNS, rows), media_type="text/csv; charset=utf-8")
