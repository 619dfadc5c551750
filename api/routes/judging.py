"""Judging: judge calls and rulings, penalties, time extensions, deck checks, and players'
acknowledgements and disputes of reports (docs/judges.md, docs/api.md).

Each endpoint turns its body into a ``domain.commands.judging`` command and appends it through
the ledger's one entry point (``LedgerService.act``), so If-Match and Idempotency-Key work as for
actions and a refused request stores nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError

from api.auth import Principal, require_async
from api.deps import Reader, ServiceDep, if_match, json_object, raw_body
from api.idempotency import Answer, idempotent
from api.presenters import action_out
from api.routes.games import ERRORS, _caller, _rebuild_action
from api.threads import in_thread
from domain.commands import Command
from domain.commands import judging as j
from domain.commands.bodies.fields import Body, Text
from domain.commands.refusals import refusal
from domain.errors import Code, InvalidCommand
from domain.judge_call_pages import MAX_PAGE, Status, calls_page
from domain.permissions import acknowledger, acknowledges_as_judge, check_game, disputer, judge_caller
from ledger.service import LedgerService

router = APIRouter(prefix="/v1/games", tags=["judging"])

B = TypeVar("B", bound=BaseModel)


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


def _parse(model: type[B], raw: Any, what: str) -> B:
    if not isinstance(raw, dict):
        raise InvalidCommand(f"the {what} must be a JSON object, got {raw!r}", Code.INVALID_BODY)
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        raise refusal(err, what=what) from None


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


@router.post("/{game_id}/judge-calls", status_code=201, responses=ERRORS, summary="Call a judge (player, scorekeeper+)")
async def call_judge(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
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


@router.get(
    "/{game_id}/judge-calls",
    response_model=JudgeCallPage,
    responses=ERRORS,
    summary="The game's judge calls, open, closed or all, by pages (spectator+)",
)
async def judge_calls(
    game_id: str,
    service: ServiceDep,
    principal: Reader,
    status: Annotated[Status, Query(description="open, closed or all")] = "all",
    after: Annotated[str | None, Query(max_length=200, description="the `next_after` of the last page")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
) -> dict[str, Any]:
    """The state carries only the latest closed calls (``domain.judge_call_pages``): every call
    the game has is read here."""
    version, state = await in_thread(service.state_at, game_id, None)
    return {"game_id": game_id, "version": version, **calls_page(state.judging.calls, status, after, limit)}


@router.post(
    "/{game_id}/judge-calls/{call}/ruling", status_code=201, responses=ERRORS, summary="Rule on a call (judge+)"
)
async def answer_call(game_id: str, call: str, request: Request, service: ServiceDep) -> JSONResponse:
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(RulingBody, json_object(body_bytes), "ruling")
    return await _append(request, service, principal, game_id, body_bytes, j.AnswerCall(call, body.ruling))


@router.post("/{game_id}/penalties", status_code=201, responses=ERRORS, summary="Give a penalty (judge+)")
async def give_penalty(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(PenaltyBody, json_object(body_bytes), "penalty")
    command = j.GivePenalty(body.player, body.section, body.penalty, body.reason, body.call)
    return await _append(request, service, principal, game_id, body_bytes, command)


@router.post("/{game_id}/time-extensions", status_code=201, responses=ERRORS, summary="Extend the time (judge+)")
async def extend_time(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(TimeBody, json_object(body_bytes), "time extension")
    command = j.ExtendTime(body.minutes, body.reason, body.call)
    return await _append(request, service, principal, game_id, body_bytes, command)


@router.post("/{game_id}/deck-checks", status_code=201, responses=ERRORS, summary="Record a deck check (judge+)")
async def deck_check(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
    principal = await require_async(request, "judge")
    body_bytes = await raw_body(request)
    body = _parse(DeckCheckBody, json_object(body_bytes), "deck check")
    command = j.CheckDecks(tuple(body.players), body.result)
    return await _append(request, service, principal, game_id, body_bytes, command)


@router.post(
    "/{game_id}/acknowledge",
    status_code=201,
    responses=ERRORS,
    summary="Acknowledge a report (affected player, judge+)",
)
async def acknowledge(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
    principal = await require_async(request, "player")
    check_game(principal, game_id)
    by = acknowledger(principal)
    body_bytes = await raw_body(request)
    body = _parse(AcknowledgeBody, json_object(body_bytes), "acknowledgement")
    command = j.Acknowledge(body.report, by, acknowledges_as_judge(principal))
    return await _append(request, service, principal, game_id, body_bytes, command)


@router.post("/{game_id}/dispute", status_code=201, responses=ERRORS, summary="Dispute a report (affected player)")
async def dispute(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
    principal = await require_async(request, "player")
    check_game(principal, game_id)
    by = disputer(principal)
    body_bytes = await raw_body(request)
    body = _parse(DisputeBody, json_object(body_bytes), "dispute")
    command = j.Dispute(body.report, by, body.reason)
    return await _append(request, service, principal, game_id, body_bytes, command)
