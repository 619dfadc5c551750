"""Decklists (issue 42; docs/api.md, Decklists; docs/tournaments.md, Decklists): registration by
a player's event link or the scorekeeper, the deadline and the lock, deck checks, the
cross-check of the games' records against the lists, publication and exports.

Thin like ``api.routes.tournaments``: each write is one use case (``ledger.decklist_use_cases``)
through the facade's ``handle`` with the request's Idempotency-Key; who may submit or read a
list is decided in ``domain.decklist_permissions`` (its 403 in ``domain.permissions``). A list
refused for its contents answers every reason in the problem's ``reasons``.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import Field

from api import schemas_decklists as out
from api.auth import Principal
from api.deps import Actor, Judge, Reader, Scorekeeper, plain_path_parameters, raw_body, service_of
from api.errors import problem, status_of
from api.path_numbers import whole_path_numbers
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.routes.tournaments import CSV, _optional, _parsed, _read, _write
from api.threads import in_thread
from domain.commands.bodies.fields import Body
from domain.decklist_permissions import check_decklist_submitter
from domain.tournament.decklists_legality import DecklistRefused
from ledger import decklist_use_cases as uc

router = APIRouter(
    prefix="/v1/tournaments",
    tags=["decklists"],
    dependencies=[Depends(plain_path_parameters), Depends(whole_path_numbers)],
    route_class=CheckedRoute,
)


class DecklistBody(Body):
    text: str = Field(description="The list: `4 Lightning Bolt` lines, a `Sideboard` line before the sideboard")


class DeadlineBody(Body):
    deadline: str | None = Field(None, description="ISO 8601 with a UTC offset; `null` clears it")


class LockBody(Body):
    locked: bool = True


class PublishBody(Body):
    scope: Literal["all", "top_cut"] = "all"


class PickBody(Body):
    round: int = Field(ge=1, le=40)
    tables: list[int] = Field(default_factory=list, max_length=500)
    random: int = Field(0, ge=0, le=500)


@router.get("/{tid}/decklists", responses=ERRORS, response_model=out.DecklistsOut, summary="Decklists (player+)")
async def overview(tid: str, request: Request, principal: Actor) -> Response:
    """The deadline, the lock, who has submitted, and the lists the caller may see: before
    publication a player's event link sees its own list only."""
    return await _read(service_of(request).decklists, tid, principal)


@router.post(
    "/{tid}/decklists/deadline",
    status_code=201,
    responses=ERRORS,
    response_model=out.SettingsOut,
    summary="Set the decklist deadline (scorekeeper+)",
)
async def deadline(tid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: DeadlineBody = _optional(raw, DeadlineBody, "deadline")
    return await _write(request, principal, raw, uc.SetDecklistDeadline(tid, body.deadline))


@router.post(
    "/{tid}/decklists/lock",
    status_code=201,
    responses=ERRORS,
    response_model=out.SettingsOut,
    summary="Lock or unlock decklist submission (scorekeeper+)",
)
async def lock(tid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: LockBody = _optional(raw, LockBody, "lock")
    return await _write(request, principal, raw, uc.LockDecklists(tid, body.locked))


@router.post(
    "/{tid}/decklists/publish",
    status_code=201,
    responses=ERRORS,
    response_model=out.PublishedOut,
    summary="Publish the lists after the event (scorekeeper+)",
)
async def publish(tid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: PublishBody = _optional(raw, PublishBody, "publication")
    return await _write(request, principal, raw, uc.PublishDecklists(tid, body.scope))


@router.get(
    "/{tid}/decklists/mismatches",
    responses=ERRORS,
    response_model=out.MismatchesOut,
    summary="Cards played that are not on the player's list (judge+)",
)
async def mismatches(tid: str, request: Request, principal: Judge) -> Response:
    return await _read(service_of(request).decklist_mismatches, tid)


@router.get("/{tid}/decklists.csv", responses=ERRORS, summary="The published lists as CSV")
async def decklists_csv(tid: str, request: Request, principal: Reader) -> Response:
    return Response(await in_thread(service_of(request).decklists_csv, tid), media_type=CSV)


@router.get(
    "/{tid}/public/decklists",
    responses=ERRORS,
    response_model=out.PublicDecklistsOut,
    summary="The published lists (the JSON export)",
)
async def public(tid: str, request: Request, principal: Reader) -> Response:
    return await _read(service_of(request).public_decklists, tid)


@router.get("/{tid}/decklists/{pid}", responses=ERRORS, response_model=out.DecklistOut, summary="One player's decklist")
async def one(tid: str, pid: str, request: Request, principal: Actor) -> Response:
    return await _read(service_of(request).decklist, tid, pid, principal)


@router.post(
    "/{tid}/decklists/{pid}",
    status_code=201,
    responses=ERRORS,
    response_model=out.DecklistWritten,
    summary="Submit a decklist (the player's event link or scorekeeper+)",
)
async def submit(tid: str, pid: str, request: Request, principal: Actor) -> Response:
    check_decklist_submitter(principal, tid, pid)
    raw = await raw_body(request)
    body: DecklistBody = _parsed(raw, DecklistBody, "decklist")
    return await _refused_with_reasons(request, principal, raw, uc.SubmitDecklist(tid, pid, body.text))


async def _refused_with_reasons(
    request: Request, principal: Principal, raw: bytes, use_case: uc.SubmitDecklist
) -> Response:
    try:
        return await _write(request, principal, raw, use_case)
    except DecklistRefused as refused:
        return problem(status_of(refused.code), refused.code, refused.message, reasons=list(refused.reasons))


@router.post(
    "/{tid}/deck-checks",
    status_code=201,
    responses=ERRORS,
    response_model=out.PickOut,
    summary="Pick tables for deck checks, chosen or random (judge+)",
)
async def pick(tid: str, request: Request, principal: Judge) -> Response:
    raw = await raw_body(request)
    body: PickBody = _parsed(raw, PickBody, "deck check")
    return await _write(request, principal, raw, uc.PickDeckChecks(tid, body.round, list(body.tables), body.random))


@router.get(
    "/{tid}/deck-checks",
    responses=ERRORS,
    response_model=out.DeckChecksOut,
    summary="Deck-check picks with the checks their games recorded (judge+)",
)
async def deck_checks(tid: str, request: Request, principal: Judge) -> Response:
    return await _read(service_of(request).deck_checks, tid)
