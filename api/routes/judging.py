"""Judging: judge calls and rulings, penalties, time extensions, deck checks, and players'
acknowledgements and disputes of reports (docs/judges.md, docs/api.md); and the open calls of
every game, for the judges' page (``GET /v1/judge-calls``, a read model).

Each endpoint of a game turns its body into a ``domain.commands.judging`` command and appends it
through the ledger's one entry point (``LedgerService.act``), so If-Match and Idempotency-Key
work as for actions and a refused request stores nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from api.auth import Principal, require_async
from api.deps import Reader, Scorekeeper, if_match, json_object, parse_body, raw_body, service_of
from api.idempotency import Answer, idempotent
from api.presenters import action_out
from api.query import CheckedRoute
from api.routes.games import ERRORS, _caller, _rebuild_action
from api.threads import in_thread
from domain.commands import Command
from domain.commands import judging as j
from domain.commands.bodies.fields import Body, Text
from domain.judge_call_pages import MAX_PAGE, Status, calls_page
from domain.permissions import acknowledger, acknowledges_as_judge, check_game, disputer, judge_caller
from ledger.service import LedgerService
from projections.open_calls import MAX_LIMIT

router = APIRouter(tags=["judging"], route_class=CheckedRoute)
"""What ``api.app`` includes: the game's endpoints (``games``) and the floor's (``/v1/judge-calls``)."""
games = APIRouter(prefix="/v1/games", tags=["judging"], route_class=CheckedRoute)


class CallBody(Body):
    """A judge call: who called and the question. A player token calls as its player."""

    called_by: Text | None = Field(None, description="a player id or a name; a player token's own player")
    question: Text


class RulingBody(Body):
    ruling: Text


class PenaltyBody(Body):
    """A penalty for an IPG infraction, named by its section (docs/judges.md)."""

    player: Text
    section: Text = Field(description="the IPG section: 2.1 Missed Trigger, 2.5 Game Rule Violation, ...")
    penalty: Literal["Warning", "Game Loss", "Match Loss", "Disqualification"]
    reason: Text | None = None
    call: Text | None = None


class TimeBody(Body):
    minutes: int = Field(ge=1, le=60)
    reason: Text
    call: Text | None = None


class DeckCheckBody(Body):
    players: list[Text] = Field(min_length=1)
    result: Text


class AcknowledgeBody(Body):
    report: Text


class DisputeBody(Body):
    report: Text
    reason: Text


_parse = parse_body
"""Kept for the routers that still import it by this name (``api.deps.parse_body``)."""


async def _append(
    request: Request,
    service: LedgerService,
    principal: Principal,
    game_id: str,
    body_bytes: bytes,
    command: Command,
) -> JSONResponse:
    expected = if_match(request)

    def perform(key: str | None, fingerprint: str | None) -> Answer:
        result = service.act(
            game_id, command, principal, expected, idempotency_key=key, request_fingerprint=fingerprint
        )
        return Answer(201, action_out(result, principal), result.key_claimed)

    return await idempotent(
        request, service, body_bytes, perform, _rebuild_action(service, principal), _caller(principal)
    )


@games.post("/{game_id}/judge-calls", status_code=201, responses=ERRORS, summary="Call a judge (player, scorekeeper+)")
async def call_judge(game_id: str, request: Request) -> JSONResponse:
    service = service_of(request)
    principal = await require_async(request, "player")
    check_game(principal, game_id)
    body_bytes = await raw_body(request)
    body = _parse(CallBody, json_object(body_bytes), "judge call")
    called_by = judge_caller(principal, body.called_by)
    return await _append(request, service, principal, game_id, body_bytes, j.CallJudge(called_by, body.question))


class JudgeCallPage(BaseModel):
    game_id: str
    version: int
    status: Status
    calls: list[dict[str, Any]] = Field(description="the calls, in the order they were made")
    next_after: str | None = Field(description="pass as `after` for the next page; null on the last")
    total: int = Field(description="how many calls of this status the game has")


@games.get(
    "/{game_id}/judge-calls",
    response_model=JudgeCallPage,
    responses=ERRORS,
    summary="The game's judge calls, open, closed or all, by pages (spectator+)",
)
async def judge_calls(
    game_id: str,
    request: Request,
    principal: Reader,
    status: Annotated[Status, Query(description="open, closed or all")] = "all",
    after: Annotated[str | None, Query(max_length=200, description="the `next_after` of the last page")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
) -> dict[str, Any]:
    """The state carries only the latest closed calls (``domain.judge_call_pages``): every call
    the game has is read here."""
    service = service_of(request)
    version, state = await in_thread(service.state_at, game_id, None)
    return {"game_id": game_id, "version": version, **calls_page(state.judging.calls, status, after, limit)}


@games.post(
    "/{game_id}/judge-calls/{call}/ruling", status_code=201, responses=ERRORS, summary="Rule on a call (judge+)"
)
async def answer_call(game_id: str, call: str, request: Request) -> JSONResponse:
    service = service_of(request)
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(RulingBody, json_object(body_bytes), "ruling")
    return await _append(request, service, principal, game_id, body_bytes, j.AnswerCall(call, body.ruling))


@games.post("/{game_id}/penalties", status_code=201, responses=ERRORS, summary="Give a penalty (judge+)")
async def give_penalty(game_id: str, request: Request) -> JSONResponse:
    service = service_of(request)
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(PenaltyBody, json_object(body_bytes), "penalty")
    command = j.GivePenalty(body.player, body.section, body.penalty, body.reason, body.call)
    return await _append(request, service, principal, game_id, body_bytes, command)


@games.post("/{game_id}/time-extensions", status_code=201, responses=ERRORS, summary="Extend the time (judge+)")
async def extend_time(game_id: str, request: Request) -> JSONResponse:
    service = service_of(request)
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(TimeBody, json_object(body_bytes), "time extension")
    command = j.ExtendTime(body.minutes, body.reason, body.call)
    return await _append(request, service, principal, game_id, body_bytes, command)


@games.post("/{game_id}/deck-checks", status_code=201, responses=ERRORS, summary="Record a deck check (judge+)")
async def deck_check(game_id: str, request: Request) -> JSONResponse:
    service = service_of(request)
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(DeckCheckBody, json_object(body_bytes), "deck check")
    command = j.CheckDecks(tuple(body.players), body.result)
    return await _append(request, service, principal, game_id, body_bytes, command)


@games.post(
    "/{game_id}/acknowledge",
    status_code=201,
    responses=ERRORS,
    summary="Acknowledge a report (affected player, judge+)",
)
async def acknowledge(game_id: str, request: Request) -> JSONResponse:
    service = service_of(request)
    principal = await require_async(request, "player")
    check_game(principal, game_id)
    by = acknowledger(principal)
    body_bytes = await raw_body(request)
    body = _parse(AcknowledgeBody, json_object(body_bytes), "acknowledgement")
    command = j.Acknowledge(body.report, by, acknowledges_as_judge(principal))
    return await _append(request, service, principal, game_id, body_bytes, command)


@games.post("/{game_id}/dispute", status_code=201, responses=ERRORS, summary="Dispute a report (affected player)")
async def dispute(game_id: str, request: Request) -> JSONResponse:
    service = service_of(request)
    principal = await require_async(request, "player")
    check_game(principal, game_id)
    by = disputer(principal)
    body_bytes = await raw_body(request)
    body = _parse(DisputeBody, json_object(body_bytes), "dispute")
    command = j.Dispute(body.report, by, body.reason)
    return await _append(request, service, principal, game_id, body_bytes, command)


class OpenCallOut(BaseModel):
    """A judge call not answered yet, with what a judge walking to it needs."""

    game_id: str
    call: str = Field(description="the call's id in its game (`call-1`, ...)")
    event: str | None = Field(description="the game's tournament event, if any")
    round: Any = Field(description="the game's tournament round, if any")
    table: int | None = Field(description="the table, if known")
    called_by: str = Field(description="a player id, or the caller's name (a judge's, a scorekeeper's)")
    caller: str = Field(description="the caller's name: the player's name for a player id")
    question: str
    report: str | None = Field(description="the disputed report, for a call a dispute opened")
    players: list[str] = Field(description="the game's players' names, in seating order")
    opened_at: str = Field(description="when the call was made (RFC 3339, UTC)")


class OpenCallsOut(BaseModel):
    status: Literal["open"]
    event: str | None
    calls: list[OpenCallOut] = Field(description="newest first, at most `limit`")
    total: int = Field(description="how many open calls match, in all")
    read_model: str = Field(
        description="the read model's runner: `running`, `elsewhere` (another process keeps it) or `stopped: ...`"
    )


@router.get(
    "/v1/judge-calls",
    response_model=OpenCallsOut,
    responses=ERRORS,
    summary="Open judge calls of every game, or of one event (scorekeeper+; a read model)",
)
async def open_judge_calls(
    request: Request,
    principal: Scorekeeper,
    status: Annotated[Literal["open"], Query(description="open: the calls not answered yet")] = "open",
    event: Annotated[str | None, Query(min_length=1, max_length=200, description="one event's games only")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = MAX_LIMIT,
) -> dict[str, Any]:
    """The judges' page reads this (docs/judges.md): one indexed read of a read model kept as
    calls open and are answered, never a fold of every game. It may trail a write by a moment."""
    service = service_of(request)
    found = await in_thread(service.open_judge_calls, event, limit)
    return {
        "status": status,
        "event": event,
        "calls": [c.to_json() for c in found.calls],
        "total": found.total,
        "read_model": found.runner,
    }


router.include_router(games)  # last: a router's routes are copied when it is included
