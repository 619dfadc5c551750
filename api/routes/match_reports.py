"""Match results from the players (issue 38; docs/api.md, Match results from the players): a
player reports their own match from their event link, the opponent confirms it (it becomes the
tournament's result, the one ``…/result`` records) or disputes it (the scorekeeper or a judge
settles it through ``…/result`` with a ``reason``). Every write takes an ``Idempotency-Key``
and goes through the one tournament writer (``ledger.tournament_use_cases``).

Who: ``domain.tournament.report_access`` (a player token of the event, as its own player; staff
enter results instead); the kernel says whether that player plays at the table
(``403 not_your_match``) and is still in the event (``403 report_by_dropped_player``).
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import Field

from api.auth import Principal
from api.deps import Actor, Reader, Scorekeeper, plain_path_parameters, raw_body, service_of
from api.path_numbers import whole_path_numbers
from api.presenters import AnswerResponse
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.routes.tournaments import MAX_GAMES, EmptyBody, _optional, _parsed, _wins, _write
from api.schemas_match_reports import MatchReportOut, WaitingReportsOut
from api.threads import in_thread
from domain.commands.bodies.fields import Body, Text
from domain.tournament.report_access import may_read_report, reporting_player
from ledger import tournament_use_cases as uc

router = APIRouter(
    prefix="/v1/tournaments",
    tags=["tournaments"],
    dependencies=[Depends(plain_path_parameters), Depends(whole_path_numbers)],
    route_class=CheckedRoute,
)
TABLE = "/{tid}/rounds/{n}/tables/{t}/report"


class ReportBody(Body):
    wins: dict[Text, int] = Field(description="game wins by player id (both players of the match)")
    draws: int = Field(0, ge=0, le=MAX_GAMES)


class DisputeBody(Body):
    note: Text | None = Field(None, description="what the player says happened (for the judge)")


def _player(principal: Principal, tid: str, n: int | None = None, t: int | None = None) -> str:
    return reporting_player(principal, tid, n, t)


@router.get(TABLE, responses=ERRORS, response_model=MatchReportOut, summary="A match's report form, prefilled")
async def report_form(tid: str, n: int, t: int, request: Request, principal: Reader) -> Response:
    viewer = may_read_report(principal, tid, n, t)
    return AnswerResponse(await in_thread(service_of(request).match_report, tid, n, t, viewer))


@router.get("/{tid}/my_result", responses=ERRORS, response_model=MatchReportOut, summary="My match's report form")
async def my_result(tid: str, request: Request, principal: Actor) -> Response:
    player = _player(principal, tid)
    return AnswerResponse(await in_thread(service_of(request).my_match_report, tid, player))


@router.get("/{tid}/reports", responses=ERRORS, response_model=WaitingReportsOut, summary="Reports waiting, disputes")
async def waiting(tid: str, request: Request, principal: Scorekeeper) -> Response:
    return AnswerResponse(await in_thread(service_of(request).waiting_match_reports, tid))


@router.post(
    TABLE, status_code=201, responses=ERRORS, response_model=MatchReportOut, summary="Report my match (a player)"
)
async def report(tid: str, n: int, t: int, request: Request, principal: Actor) -> Response:
    player = _player(principal, tid, n, t)
    raw = await raw_body(request)
    body: ReportBody = _parsed(raw, ReportBody, "report")
    wins = _wins(body)  # type: ignore[arg-type]
    use_case = uc.ReportOwnMatch(tid, player, n, t, wins, body.draws, principal.token_id)
    return await _write(request, principal, raw, use_case)


@router.post(
    f"{TABLE}/confirm",
    status_code=201,
    responses=ERRORS,
    response_model=MatchReportOut,
    summary="Confirm the opponent's report",
)
async def confirm(tid: str, n: int, t: int, request: Request, principal: Actor) -> Response:
    player = _player(principal, tid, n, t)
    raw = await raw_body(request)
    _optional(raw, EmptyBody, "confirmation")
    return await _write(request, principal, raw, uc.ConfirmMatchReport(tid, player, n, t, principal.token_id))


@router.post(
    f"{TABLE}/dispute",
    status_code=201,
    responses=ERRORS,
    response_model=MatchReportOut,
    summary="Dispute the opponent's report",
)
async def dispute(tid: str, n: int, t: int, request: Request, principal: Actor) -> Response:
    player = _player(principal, tid, n, t)
    raw = await raw_body(request)
    body: DisputeBody = _optional(raw, DisputeBody, "dispute")
    use_case = uc.DisputeMatchReport(tid, player, n, t, body.note, principal.token_id)
    return await _write(request, principal, raw, use_case)
