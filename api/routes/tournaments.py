"""Tournaments (docs/api.md, Tournaments; docs/tournaments.md): the event, its roster, Swiss
rounds and the top cut with their games, results, the round clock, standings, exports, the
public view and the tournament's own audit record. Thin: each route reads its body into a model,
checks the caller's role, and calls one facade method.

Roles: scorekeepers (and above: judges, head judges, admins) run the event and read everything;
the public view is for spectators (and anyone, with public reads on).
"""

from __future__ import annotations

from typing import Any, Literal

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
from domain.errors import Code, InvalidCommand, Unsupported
from domain.tournament import CreateEvent
from ledger.service import Actor as StoreActor

router = APIRouter(
    prefix="/v1/tournaments",
    tags=["tournaments"],
    dependencies=[Depends(plain_path_parameters)],
    route_class=CheckedRoute,
)
CSV = "text/csv; charset=utf-8"
MAX_GAMES = 5
"""Game wins or draws one match may report (best of five)."""


class Points(Body):
    win: int = Field(3, ge=0, le=100)
    draw: int = Field(1, ge=0, le=100)


class CreateBody(Body):
    id: Text
    name: Text
    format: Text
    rel: Literal["casual", "regular", "competitive", "professional"] = "casual"
    kind: Literal["two_player", "commander"] = "two_player"
    rounds: int | None = Field(None, ge=1, le=20)
    round_minutes: int = Field(50, ge=1, le=600)
    top_cut: Literal[8, 4, 2] | None = None
    best_of: Literal[1, 3, 5] = 3
    points: Points = Points()


class PlayerBody(Body):
    name: Text
    wizards_id: Text | None = None


class DropBody(Body):
    reason: Text = "requested"


class EmptyBody(Body):
    pass


class RoundBody(Body):
    seed: int | None = Field(None, ge=0, lt=2**53)


class ResultBody(Body):
    wins: dict[Text, int] = Field(description="game wins by player id")
    draws: int = Field(0, ge=0, le=MAX_GAMES)


class CorrectionBody(ResultBody):
    reason: Text


class FeatureBody(Body):
    featured: bool = True


class ClockBody(Body):
    action: Literal["start", "pause", "resume", "end"]


def _actor(principal: Any) -> StoreActor:
    return StoreActor(principal.name, principal.role)


async def _body(request: Request, model: type[Any], what: str) -> Any:
    return _parse(model, json_object(await raw_body(request)), what)


def _wins(body: ResultBody) -> dict[str, int]:
    if any(not 0 <= n <= MAX_GAMES for n in body.wins.values()):
        raise InvalidCommand(f"game wins are 0-{MAX_GAMES} per player, got {body.wins}", Code.INVALID_RESULT)
    return dict(body.wins)


@router.post("", status_code=201, responses=ERRORS, summary="Create a tournament (scorekeeper+)")
async def create(request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body: CreateBody = await _body(request, CreateBody, "tournament")
    command = CreateEvent(
        name=body.name,
        format=body.format,
        rel=body.rel,
        rounds=body.rounds,
        round_minutes=body.round_minutes,
        top_cut=body.top_cut,
        kind=body.kind,
        win_points=body.points.win,
        draw_points=body.points.draw,
        best_of=body.best_of,
    )
    return await in_thread(service.create_tournament, body.id, command, _actor(principal))


@router.get("", responses=ERRORS, summary="The tournaments (scorekeeper+)")
async def list_all(request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    return {"tournaments": await in_thread(service.list_tournaments)}


@router.get("/{tid}", responses=ERRORS, summary="The tournament: roster, rounds, clock, standings")
async def get_one(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    return await in_thread(service.tournament, tid)


@router.post(
    "/{tid}/players", status_code=201, responses=ERRORS, summary="Register a player (late entry after round 1)"
)
async def register(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body: PlayerBody = await _body(request, PlayerBody, "player")
    return await in_thread(service.register_player, tid, body.name, body.wizards_id, _actor(principal))


@router.post("/{tid}/players.csv", status_code=201, responses=ERRORS, summary="Register a roster file")
async def register_csv(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media not in ("text/csv", "text/plain"):
        raise Unsupported(f"a roster is text/csv, got {media or 'no Content-Type'!r}", Code.UNSUPPORTED_MEDIA_TYPE)
    try:
        text = (await raw_body(request)).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidCommand("a roster file is UTF-8 text", Code.INVALID_BODY) from None
    return await in_thread(service.register_players_csv, tid, text, _actor(principal))


@router.get("/{tid}/players.csv", responses=ERRORS, summary="The roster as CSV")
async def players_csv(tid: str, request: Request) -> Response:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    return Response(await in_thread(service.tournament_players_csv, tid), media_type=CSV)


@router.post("/{tid}/players/{pid}/drop", status_code=201, responses=ERRORS, summary="Drop a player (MTR 2.10)")
async def drop(tid: str, pid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body: DropBody = await _body(request, DropBody, "drop")
    return await in_thread(service.drop_player, tid, pid, body.reason, _actor(principal))


@router.post("/{tid}/players/{pid}/no_show", status_code=201, responses=ERRORS, summary="A player didn't show up")
async def no_show(tid: str, pid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    await _body(request, EmptyBody, "no-show")
    return await in_thread(service.mark_no_show, tid, pid, _actor(principal))


@router.post("/{tid}/players/{pid}/link", status_code=201, responses=ERRORS, summary="The player's link for the event")
async def player_link(tid: str, pid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    return await in_thread(service.tournament_player_link, tid, pid, _actor(principal))


@router.post("/{tid}/rounds", status_code=201, responses=ERRORS, summary="Pair the next Swiss round, with its games")
async def pair_round(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    raw = await raw_body(request)
    body = _parse(RoundBody, json_object(raw), "round") if raw.strip() else RoundBody()
    return await in_thread(service.pair_round, tid, body.seed, _actor(principal))


@router.post("/{tid}/top_cut", status_code=201, responses=ERRORS, summary="Pair the next top-cut round")
async def top_cut(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    raw = await raw_body(request)
    if raw.strip():
        _parse(EmptyBody, json_object(raw), "top cut")
    return await in_thread(service.pair_top_cut, tid, _actor(principal))


@router.post("/{tid}/rounds/{n}/tables/{t}/result", status_code=201, responses=ERRORS, summary="Report a result")
async def result(tid: str, n: int, t: int, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body: ResultBody = await _body(request, ResultBody, "result")
    return await in_thread(service.report_tournament_result, tid, n, t, _wins(body), body.draws, _actor(principal))


@router.post("/{tid}/rounds/{n}/tables/{t}/correction", status_code=201, responses=ERRORS, summary="Correct a result")
async def correction(tid: str, n: int, t: int, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body: CorrectionBody = await _body(request, CorrectionBody, "correction")
    wins = _wins(body)
    return await in_thread(
        service.correct_tournament_result, tid, n, t, wins, body.draws, body.reason, _actor(principal)
    )


@router.post("/{tid}/rounds/{n}/tables/{t}/intentional_draw", status_code=201, responses=ERRORS, summary="MTR 2.4 draw")
async def intentional_draw(tid: str, n: int, t: int, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    raw = await raw_body(request)
    if raw.strip():
        _parse(EmptyBody, json_object(raw), "intentional draw")
    return await in_thread(service.tournament_intentional_draw, tid, n, t, _actor(principal))


@router.post("/{tid}/rounds/{n}/tables/{t}/games", status_code=201, responses=ERRORS, summary="The match's next game")
async def next_game(tid: str, n: int, t: int, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    raw = await raw_body(request)
    if raw.strip():
        _parse(EmptyBody, json_object(raw), "next game")
    return await in_thread(service.next_tournament_game, tid, n, t, _actor(principal))


@router.post("/{tid}/rounds/{n}/tables/{t}/featured", status_code=201, responses=ERRORS, summary="Feature a table")
async def featured(tid: str, n: int, t: int, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body: FeatureBody = await _body(request, FeatureBody, "featured")
    return await in_thread(service.feature_table, tid, n, t, body.featured, _actor(principal))


@router.post("/{tid}/rounds/{n}/clock", status_code=201, responses=ERRORS, summary="Start, pause, resume, end")
async def clock(tid: str, n: int, request: Request) -> dict[str, Any]:
    service = service_of(request)
    principal = await require_async(request, "scorekeeper")
    body: ClockBody = await _body(request, ClockBody, "clock")
    return await in_thread(service.round_clock, tid, n, body.action, _actor(principal))


@router.get("/{tid}/standings", responses=ERRORS, summary="Standings with MTR tiebreakers")
async def standings(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    return await in_thread(service.tournament_standings, tid)


@router.get("/{tid}/standings.csv", responses=ERRORS, summary="Standings as CSV")
async def standings_csv(tid: str, request: Request) -> Response:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    return Response(await in_thread(service.tournament_standings_csv, tid), media_type=CSV)


@router.get("/{tid}/results.csv", responses=ERRORS, summary="Results as CSV: one row per match")
async def results_csv(tid: str, request: Request) -> Response:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    return Response(await in_thread(service.tournament_results_csv, tid), media_type=CSV)


@router.get("/{tid}/public", responses=ERRORS, summary="Pairings and standings for players (names only)")
async def public(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "spectator")
    return await in_thread(service.public_tournament, tid)


@router.get("/{tid}/record", responses=ERRORS, summary="The tournament's audit record")
async def record(tid: str, request: Request) -> list[dict[str, Any]]:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    return await in_thread(service.tournament_record, tid)


@router.get("/{tid}/verify", responses=ERRORS, summary="Recompute the record's hash chain")
async def verify(tid: str, request: Request) -> dict[str, Any]:
    service = service_of(request)
    await require_async(request, "scorekeeper")
    report = await in_thread(service.verify_tournament, tid)
    return report.to_json()
