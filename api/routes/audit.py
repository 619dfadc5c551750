"""The record: events (paged), the live SSE stream, the timeline, verify, export and import."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.background import BackgroundTask

from api import schemas
from api.auth import Principal, authenticate
from api.deps import Admin, Judge, Reader, header_version, service_of
from api.limits import StreamSlots, stream_key
from api.presenters import event_out, game_out
from api.query import CheckedRoute
from api.routes.games import ERRORS
from api.threads import in_thread
from domain.errors import Code, InvalidCommand, TooLarge, Unauthenticated
from domain.permissions import full_verify
from ledger.game_files import MAX_LINE, InvalidExport
from ledger.service import Actor as StoreActor
from ledger.service import LedgerService
from projections.sentences import Names
from store.results import ActionResult

router = APIRouter(prefix="/v1/games", tags=["record"], route_class=CheckedRoute)


class EventStreamResponse(StreamingResponse):
    media_type = "text/event-stream"


class NDJSONResponse(StreamingResponse):
    media_type = "application/x-ndjson"


MAX_IMPORT = 1024 * 1024 * 1024
"""Largest import body, in bytes (1 GiB; read line by line, never held whole)."""
POLL_SECONDS = 0.25
KEEPALIVE_SECONDS = 15.0
GRANT_CHECK_SECONDS = 5.0
"""How often an open stream asks again whether its token still holds (revoked or expired: the
stream ends with an ``error`` event), so a stream never outlives its grant by more."""


async def _still_granted(request: Request, principal: Principal) -> str | None:
    """Why the stream's token no longer holds (revoked, expired), or ``None``; the token is read
    again as at the start of a request (``api.auth.authenticate``)."""
    if principal.token_id is None:
        return None  # no token, or the environment's admin token: nothing to revoke
    try:
        await in_thread(authenticate, request)
    except Unauthenticated as err:
        return err.message
    return None


@router.get("/{game_id}/events", response_model=schemas.EventPage, responses=ERRORS, summary="Events, paged")
async def list_events(
    game_id: str,
    request: Request,
    principal: Reader,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> dict[str, Any]:
    service = service_of(request)
    events = await in_thread(service.events, game_id, after, limit)
    head = await in_thread(service.head_version, game_id)
    last = events[-1].version if events else after
    names = await in_thread(_names_at, service, game_id, after) if events else None
    return {
        "events": [event_out(e, principal, names) for e in events],
        "next_after": last if last < head else None,
    }


def _names_at(service: LedgerService, game_id: str, version: int) -> Names:
    """Who and what the game names at ``version`` (nothing before its first event), so the
    sentences of the events after it name players and cards, not ids."""
    if version < 1:
        return Names()
    return Names.of_state(service.state_at(game_id, version)[1])


async def _sse(
    service: LedgerService, game_id: str, after: int, principal: Principal, follow: bool, request: Request
) -> AsyncIterator[str]:
    last = after
    idle = 0.0
    checked = time.monotonic()
    names: Names | None = None  # read once, at the first events; each event then teaches its own
    yield "retry: 2000\n\n"
    while True:
        if time.monotonic() - checked >= GRANT_CHECK_SECONDS:
            checked = time.monotonic()
            gone = await _still_granted(request, principal)
            if gone is not None:
                problem = json.dumps({"code": Code.INVALID_TOKEN.value, "detail": gone}, separators=(",", ":"))
                yield f"event: error\ndata: {problem}\n\n"
                return
        events = await in_thread(service.events, game_id, last, 500)
        if names is None and events:
            names = await in_thread(_names_at, service, game_id, last)
        for event in events:
            payload = json.dumps(event_out(event, principal, names), separators=(",", ":"))
            yield f"id: {event.version}\nevent: {event.type}\ndata: {payload}\n\n"
            last = event.version
        if len(events) == 500:
            continue
        if not follow or await request.is_disconnected():
            return
        await asyncio.sleep(POLL_SECONDS)
        idle += POLL_SECONDS
        if idle >= KEEPALIVE_SECONDS:
            idle = 0.0
            yield ": keep-alive\n\n"


@router.get(
    "/{game_id}/events/stream",
    response_class=EventStreamResponse,
    responses={**ERRORS, 200: {"content": {"text/event-stream": {}}, "description": "one SSE event per stored event"}},
    summary="Live events (Server-Sent Events); resumes after Last-Event-ID",
)
async def stream_events(
    game_id: str,
    request: Request,
    principal: Reader,
    last_event_id: Annotated[str | None, Header()] = None,
    after: Annotated[int | None, Query(ge=0)] = None,
    follow: bool = True,
) -> EventStreamResponse:
    service = service_of(request)
    start = after or 0
    if last_event_id is not None:
        parsed = header_version(last_event_id.strip())
        if parsed is None:
            shown = last_event_id if len(last_event_id) <= 40 else last_event_id[:40] + "..."
            raise InvalidCommand(f"Last-Event-ID must be a version, got {shown!r}", Code.INVALID_LAST_EVENT_ID)
        start = parsed
    await in_thread(service.head_version, game_id)  # 404 before the stream starts
    slots: StreamSlots = request.app.state.streams
    key = stream_key(principal, request)
    slots.acquire(key)  # 429 too_many_streams beyond the token's or the worker's limit
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            slots.release(key)

    async def held() -> AsyncIterator[str]:
        try:
            async for chunk in _sse(service, game_id, start, principal, follow, request):
                yield chunk
        finally:
            release()

    return EventStreamResponse(
        held(),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        background=BackgroundTask(release),  # also when the body never started
    )


@router.get(
    "/{game_id}/timeline",
    response_model=schemas.TimelineOut,
    responses=ERRORS,
    summary="Readable lines by turn and step",
)
async def timeline(
    game_id: str,
    request: Request,
    principal: Reader,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 1000,
) -> dict[str, Any]:
    service = service_of(request)
    page = await in_thread(service.timeline, game_id, after, limit)
    return {"game_id": game_id, "timeline": page.groups, "next_after": page.next_after}


@router.get("/{game_id}/verify", response_model=schemas.VerifyOut, responses=ERRORS, summary="Check the hash chain")
async def verify(
    game_id: str,
    request: Request,
    principal: Reader,
    full: Annotated[bool | None, Query(description="recompute from version 1 (judge+; their default)")] = None,
) -> dict[str, Any]:
    """Judges and admins recompute the whole chain; lower roles only the events after the last
    chain this server process verified whole (docs/audit.md, Verify)."""
    service = service_of(request)
    whole = full_verify(principal, full)
    report = await in_thread(partial(service.verify, game_id, full=whole))
    return {
        "ok": report.ok,
        "events": report.events,
        "head": report.head,
        "first_bad_version": report.first_bad_version,
        "checked_from": report.checked_from,
    }


@router.get(
    "/{game_id}/export",
    response_class=NDJSONResponse,
    responses={**ERRORS, 200: {"content": {"application/x-ndjson": {}}, "description": "header line, then events"}},
    summary="Export the record as NDJSON (judge+)",
)
async def export(game_id: str, request: Request, principal: Judge) -> NDJSONResponse:
    service = service_of(request)
    lines = await in_thread(lambda: list(service.export(game_id)))
    return NDJSONResponse(
        iter(line if line.endswith("\n") else line + "\n" for line in lines),
        headers={"Content-Disposition": f'attachment; filename="{game_id}.ndjson"'},
    )


@router.post(
    "/import",
    status_code=201,
    response_model=schemas.GameOut,
    responses=ERRORS,
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}
    },
    summary="Import an exported record: verified and replayed through the rules (admin)",
)
async def import_game(request: Request, principal: Admin) -> JSONResponse:
    """The body is read as it arrives, one line at a time (up to ``MAX_IMPORT`` bytes, a line up
    to ``MAX_LINE``), and checked while it is read: a large export is never held whole."""
    service = service_of(request)
    chunks = request.stream().__aiter__()
    loop = asyncio.get_running_loop()

    async def next_chunk() -> bytes | None:
        try:
            return await chunks.__anext__()
        except StopAsyncIteration:
            return None

    seen = {"bytes": 0, "lines": 0}

    def lines() -> Iterator[str]:
        pending = b""
        while True:
            chunk = asyncio.run_coroutine_threadsafe(next_chunk(), loop).result()  # read on the loop
            if chunk is None:
                break
            seen["bytes"] += len(chunk)
            if seen["bytes"] > MAX_IMPORT:
                raise TooLarge(f"an import is at most {MAX_IMPORT} bytes", Code.PAYLOAD_TOO_LARGE)
            pending += chunk
            *complete, pending = pending.split(b"\n")
            if len(pending) > MAX_LINE:
                raise TooLarge(f"a line of the file is over {MAX_LINE} bytes", Code.PAYLOAD_TOO_LARGE)
            for raw in complete:
                yield _line(raw)
        if pending:
            yield _line(pending)

    def _line(raw: bytes) -> str:
        try:
            text = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            raise InvalidCommand("the export file must be UTF-8 NDJSON", Code.MALFORMED_NDJSON) from None
        if text.strip():
            seen["lines"] += 1
        return text

    def run() -> ActionResult:
        try:
            return service.import_game(lines(), StoreActor(principal.name, principal.role))
        except InvalidExport:
            if seen["lines"] == 0:
                raise InvalidCommand("the body is empty: send an exported NDJSON file", Code.MALFORMED_NDJSON) from None
            raise

    try:
        result = await in_thread(run)
    except RecursionError:
        raise InvalidCommand("a line of the file nests JSON too deeply", Code.MALFORMED_NDJSON) from None
    return JSONResponse(game_out(result.game_id, result.version, result.state, principal), status_code=201)
