"""Tournaments (docs/api.md, Tournaments; docs/tournaments.md): the event, its roster, Swiss
rounds and the top cut with their games, results, the round clock, standings, exports, the
public view and the tournament's own audit record. Thin: each route takes the caller's role as
an ``Annotated`` dependency (``api.deps``), reads its body into a model, and calls one facade
method. Every write takes an ``Idempotency-Key`` (``api.idempotency``: claimed in the same atomic
save as the write, a retry with the same key and body answers the first response and stores
nothing). Every route names its answer's model (``api.schemas_tournaments``); answers are
rendered by orjson.

Roles: scorekeepers (and above: judges, head judges, admins) run the event and read everything;
the public view is for spectators (and anyone, with public reads on).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import Field

from api import schemas_tournaments as out
from api.auth import Principal
from api.deps import Reader, Scorekeeper, json_object, plain_path_parameters, raw_body, service_of
from api.idempotency import Answer, idempotent
from api.path_numbers import whole_path_numbers
from api.presenters import AnswerResponse
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.routes.judging import _parse
from api.threads import in_thread
from domain.commands.bodies.fields import Body, Text
from domain.errors import Code, InvalidCommand, Unsupported
from domain.tournament import CreateEvent
from ledger import tournament_use_cases as uc
from ledger.service import Actor as StoreActor
from ledger.tournament_use_cases import UseCase

router = APIRouter(
    prefix="/v1/tournaments",
    tags=["tournaments"],
    dependencies=[Depends(plain_path_parameters), Depends(whole_path_numbers)],
    route_class=CheckedRoute,
)
CSV = "text/csv; charset=utf-8"
MAX_PAGE = 100
"""Most tournaments in one page of ``GET /v1/tournaments`` (without ``limit``: all of them, as v1 answered)."""
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
    reason: Text | None = Field(None, description="why (needed to settle a disputed players' report)")


class CorrectionBody(ResultBody):
    reason: Text


class FeatureBody(Body):
    featured: bool = True


class ClockBody(Body):
    action: Literal["start", "pause", "resume", "end"]


def _actor(principal: Principal) -> StoreActor:
    return StoreActor(principal.name, principal.role, principal.token_id)


def _caller(principal: Principal) -> str:
    return f"{principal.role}:{principal.name}:{principal.game_id or ''}:{principal.player_id or ''}"


def _parsed(raw: bytes, model: type[Any], what: str) -> Any:
    return _parse(model, json_object(raw), what)


def _optional(raw: bytes, model: type[Any], what: str) -> Any:
    """A body that may be left out (empty): its model's defaults."""
    return _parsed(raw, model, what) if raw.strip() else model()


def _wins(body: ResultBody) -> dict[str, int]:
    if any(not 0 <= n <= MAX_GAMES for n in body.wins.values()):
        raise InvalidCommand(f"game wins are 0-{MAX_GAMES} per player, got {body.wins}", Code.INVALID_RESULT)
    return dict(body.wins)


async def _write(request: Request, principal: Principal, raw: bytes, use_case: UseCase) -> Response:
    """Carry out one tournament use case once per Idempotency-Key (``api.idempotency``): the key
    and the request's fingerprint go to the writer, which claims the key in the write's own save."""
    service = service_of(request)

    def perform(key: str | None, fingerprint: str | None) -> Answer:
        answer = service.handle(use_case, _actor(principal), idempotency_key=key, request_fingerprint=fingerprint)
        return Answer(201, answer, key_claimed=key is not None)

    return await idempotent(request, service, raw, perform, None, _caller(principal))


def _json(body: bytes) -> Response:
    """An answer the ledger rendered once per version (a 5,000-player event's standings)."""
    return Response(body, media_type="application/json")


async def _read(call: Callable[..., Any], *args: Any) -> AnswerResponse:
    return AnswerResponse(await in_thread(call, *args))


@router.post(
    "",
    status_code=201,
    responses=ERRORS,
    response_model=out.TournamentOut,
    summary="Create a tournament (scorekeeper+)",
)
async def create(request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: CreateBody = _parsed(raw, CreateBody, "tournament")
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
    return await _write(request, principal, raw, uc.CreateTournament(body.id, command))


@router.get(
    "",
    responses=ERRORS,
    response_model=out.TournamentList,
    summary="The tournaments, newest first, by pages (scorekeeper+)",
)
async def list_all(
    request: Request,
    principal: Scorekeeper,
    limit: Annotated[int | None, Query(ge=1, le=MAX_PAGE)] = None,
    after: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
) -> Response:
    return AnswerResponse(await in_thread(service_of(request).list_tournaments, limit, after))


@router.get(
    "/{tid}",
    responses=ERRORS,
    response_model=out.TournamentOut,
    summary="The tournament: roster, rounds, clock, standings",
)
async def get_one(tid: str, request: Request, principal: Scorekeeper) -> Response:
    return await _read(service_of(request).tournament, tid)


@router.post(
    "/{tid}/players",
    status_code=201,
    responses=ERRORS,
    response_model=out.PlayerWritten,
    summary="Register a player (late entry after round 1)",
)
async def register(tid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: PlayerBody = _parsed(raw, PlayerBody, "player")
    return await _write(request, principal, raw, uc.RegisterPlayer(tid, body.name, body.wizards_id))


@router.post(
    "/{tid}/players.csv",
    status_code=201,
    responses=ERRORS,
    response_model=out.RegisteredOut,
    summary="Register a roster file",
)
async def register_csv(tid: str, request: Request, principal: Scorekeeper) -> Response:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media not in ("text/csv", "text/plain"):
        raise Unsupported(f"a roster is text/csv, got {media or 'no Content-Type'!r}", Code.UNSUPPORTED_MEDIA_TYPE)
    raw = await raw_body(request)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidCommand("a roster file is UTF-8 text", Code.INVALID_BODY) from None
    return await _write(request, principal, raw, uc.RegisterRoster(tid, text))


@router.get("/{tid}/players.csv", responses=ERRORS, summary="The roster as CSV")
async def players_csv(tid: str, request: Request, principal: Scorekeeper) -> Response:
    return Response(await in_thread(service_of(request).tournament_players_csv, tid), media_type=CSV)


@router.post(
    "/{tid}/players/{pid}/drop",
    status_code=201,
    responses=ERRORS,
    response_model=out.PlayerWritten,
    summary="Drop a player (MTR 2.10)",
)
async def drop(tid: str, pid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: DropBody = _parsed(raw, DropBody, "drop")
    return await _write(request, principal, raw, uc.DropPlayer(tid, pid, body.reason))


@router.post(
    "/{tid}/players/{pid}/no_show",
    status_code=201,
    responses=ERRORS,
    response_model=out.PlayerWritten,
    summary="A player didn't show up",
)
async def no_show(tid: str, pid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    _parsed(raw, EmptyBody, "no-show")
    return await _write(request, principal, raw, uc.MarkNoShow(tid, pid))


@router.post(
    "/{tid}/players/{pid}/link",
    status_code=201,
    responses=ERRORS,
    response_model=out.LinkOut,
    summary="The player's link for the event",
)
async def player_link(tid: str, pid: str, request: Request, principal: Scorekeeper) -> Response:
    # Not idempotent by key on purpose: each call issues a new secret, shown once.
    answer = await in_thread(service_of(request).tournament_player_link, tid, pid, principal)
    return AnswerResponse(answer, status_code=201)


@router.post(
    "/{tid}/rounds",
    status_code=201,
    responses=ERRORS,
    response_model=out.RoundWritten,
    summary="Pair the next Swiss round, with its games",
)
async def pair_round(tid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: RoundBody = _optional(raw, RoundBody, "round")
    return await _write(request, principal, raw, uc.PairRound(tid, body.seed))


@router.post(
    "/{tid}/top_cut",
    status_code=201,
    responses=ERRORS,
    response_model=out.RoundWritten,
    summary="Pair the next top-cut round",
)
async def top_cut(tid: str, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    _optional(raw, EmptyBody, "top cut")
    return await _write(request, principal, raw, uc.PairTopCut(tid))


@router.post(
    "/{tid}/rounds/{n}/tables/{t}/result",
    status_code=201,
    responses=ERRORS,
    response_model=out.TableWritten,
    summary="Report a result",
)
async def result(tid: str, n: int, t: int, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: ResultBody = _parsed(raw, ResultBody, "result")
    wins = _wins(body)
    return await _write(request, principal, raw, uc.ReportResult(tid, n, t, wins, body.draws, body.reason))


@router.post(
    "/{tid}/rounds/{n}/tables/{t}/correction",
    status_code=201,
    responses=ERRORS,
    response_model=out.TableWritten,
    summary="Correct a result",
)
async def correction(tid: str, n: int, t: int, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: CorrectionBody = _parsed(raw, CorrectionBody, "correction")
    wins = _wins(body)
    return await _write(request, principal, raw, uc.CorrectResult(tid, n, t, wins, body.draws, body.reason))


@router.post(
    "/{tid}/rounds/{n}/tables/{t}/intentional_draw",
    status_code=201,
    responses=ERRORS,
    response_model=out.TableWritten,
    summary="MTR 2.4 draw",
)
async def intentional_draw(tid: str, n: int, t: int, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    _optional(raw, EmptyBody, "intentional draw")
    return await _write(request, principal, raw, uc.IntentionalDraw(tid, n, t))


@router.post(
    "/{tid}/rounds/{n}/tables/{t}/games",
    status_code=201,
    responses=ERRORS,
    response_model=out.NextGameOut,
    summary="The match's next game",
)
async def next_game(tid: str, n: int, t: int, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    _optional(raw, EmptyBody, "next game")
    return await _write(request, principal, raw, uc.NextGame(tid, n, t))


@router.post(
    "/{tid}/rounds/{n}/tables/{t}/featured",
    status_code=201,
    responses=ERRORS,
    response_model=out.TableWritten,
    summary="Feature a table",
)
async def featured(tid: str, n: int, t: int, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: FeatureBody = _parsed(raw, FeatureBody, "featured")
    return await _write(request, principal, raw, uc.FeatureTable(tid, n, t, body.featured))


@router.post(
    "/{tid}/rounds/{n}/clock",
    status_code=201,
    responses=ERRORS,
    response_model=out.ClockWritten,
    summary="Start, pause, resume, end",
)
async def clock(tid: str, n: int, request: Request, principal: Scorekeeper) -> Response:
    raw = await raw_body(request)
    body: ClockBody = _parsed(raw, ClockBody, "clock")
    return await _write(request, principal, raw, uc.RoundClock(tid, n, body.action))


@router.get(
    "/{tid}/standings", responses=ERRORS, response_model=out.StandingsOut, summary="Standings with MTR tiebreakers"
)
async def standings(tid: str, request: Request, principal: Scorekeeper) -> Response:
    return _json(await in_thread(service_of(request).tournament_standings_json, tid))


@router.get("/{tid}/standings.csv", responses=ERRORS, summary="Standings as CSV")
async def standings_csv(tid: str, request: Request, principal: Scorekeeper) -> Response:
    return Response(await in_thread(service_of(request).tournament_standings_csv, tid), media_type=CSV)


@router.get("/{tid}/results.csv", responses=ERRORS, summary="Results as CSV: one row per match")
async def results_csv(tid: str, request: Request, principal: Scorekeeper) -> Response:
    return Response(await in_thread(service_of(request).tournament_results_csv, tid), media_type=CSV)


@router.get(
    "/{tid}/public",
    responses=ERRORS,
    response_model=out.PublicOut,
    summary="Pairings and standings for players (names only)",
)
async def public(tid: str, request: Request, principal: Reader) -> Response:
    return _json(await in_thread(service_of(request).public_tournament_json, tid))


@router.get(
    "/{tid}/record", responses=ERRORS, response_model=list[out.RecordOut], summary="The tournament's audit record"
)
async def record(tid: str, request: Request, principal: Scorekeeper) -> Response:
    return await _read(service_of(request).tournament_record, tid)


@router.get(
    "/{tid}/verify", responses=ERRORS, response_model=out.VerifyOut, summary="Recompute the record's hash chain"
)
async def verify(tid: str, request: Request, principal: Scorekeeper) -> Response:
    report = await in_thread(service_of(request).verify_tournament, tid)
    return AnswerResponse(report.to_json())
