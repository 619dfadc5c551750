"""Request-scoped helpers: the service, the caller, bodies and headers."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from pydantic import BaseModel, ValidationError

from api.auth import Principal, require_async
from api.settings import Settings
from domain.commands.bodies.text import bad_id_character, check_string, check_value, parse_int, refuse_constant
from domain.commands.refusals import refusal
from domain.errors import Code, InvalidCommand, TooLarge
from ledger.service import LedgerService

MAX_BODY = 4 * 1024 * 1024


# Dependencies are ``async def`` when they do no I/O: FastAPI runs a plain ``def`` dependency in
# the thread pool, one thread hop per dependency per request (docs/performance.md).
async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def service_of(request: Request) -> LedgerService:
    """The app's one service. A plain call, not a dependency: it declares nothing for the
    OpenAPI schema, and each FastAPI dependency costs every request its own solving (about
    64,000 instructions per action; docs/performance.md)."""
    service: LedgerService = request.app.state.service
    return service


SettingsDep = Annotated[Settings, Depends(get_settings)]


async def reader(request: Request) -> Principal:
    return await require_async(request, "spectator")


async def scorekeeper(request: Request) -> Principal:
    return await require_async(request, "scorekeeper")


async def player_or_above(request: Request) -> Principal:
    return await require_async(request, "player")


async def judge(request: Request) -> Principal:
    return await require_async(request, "judge")


async def admin(request: Request) -> Principal:
    return await require_async(request, "admin")


Reader = Annotated[Principal, Depends(reader)]
Scorekeeper = Annotated[Principal, Depends(scorekeeper)]
Actor = Annotated[Principal, Depends(player_or_above)]
Judge = Annotated[Principal, Depends(judge)]
Admin = Annotated[Principal, Depends(admin)]


async def raw_body(request: Request) -> bytes:
    """The body, at most ``MAX_BODY`` bytes, never read further: a ``Content-Length`` over it is
    refused before a byte is read, and a body without one (chunked) is read only up to the
    limit (``413 payload_too_large``). Reading first and measuring after held a 200 MiB upload
    whole (RSS +370 MiB) before refusing it."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.strip().isdigit() and int(declared) > MAX_BODY:
        raise TooLarge(f"the body is {int(declared)} bytes; the limit is {MAX_BODY}", Code.PAYLOAD_TOO_LARGE)
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge(f"the body is over {MAX_BODY} bytes, the limit", Code.PAYLOAD_TOO_LARGE)
        parts.append(chunk)
    return b"".join(parts)


async def plain_path_parameters(request: Request) -> None:
    """A router dependency: the path's parameters (an event's name, a round, a table) reach the
    store as text, so they follow the rules of ids (``bad_id_character``: no control character,
    not even a tab or line break) and are bounded. A NUL in ``/v1/events/GP%00/...`` was a 500
    on PostgreSQL; it is ``400 invalid_character``."""
    for name, value in request.path_params.items():
        if not isinstance(value, str):
            continue
        bad = bad_id_character(value)
        if bad is not None:
            raise InvalidCommand(f"{name}: control character {bad} is not allowed in a path", Code.INVALID_CHARACTER)
        check_string(value, name, MAX_PATH_PARAMETER)


MAX_PATH_PARAMETER = 1_000
"""Longest path parameter (an event's name is at most 200 characters)."""


def parse_json(body: bytes) -> Any:
    """The body as JSON; malformed JSON is 400 ``malformed_json``. Every string and number in
    it is checked once here (``domain.commands.bodies.text``: control characters, sizes, digits)."""
    if not body.strip():
        raise InvalidCommand("the request needs a JSON body", Code.MALFORMED_JSON)
    try:
        value = json.loads(body, parse_int=parse_int, parse_constant=refuse_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise InvalidCommand(f"the body is not valid JSON: {err}", Code.MALFORMED_JSON) from None
    except RecursionError:
        raise InvalidCommand("the body nests JSON too deeply", Code.MALFORMED_JSON) from None
    check_value(value)
    return value


def json_object(body: bytes) -> dict[str, Any]:
    value = parse_json(body)
    if not isinstance(value, dict):
        raise InvalidCommand(f"the body must be a JSON object, got {type(value).__name__}", Code.INVALID_BODY)
    return value


B = TypeVar("B", bound=BaseModel)


def parse_body(model: type[B], raw: Any, what: str) -> B:
    """``raw`` (a parsed JSON body) as ``model``; what the model refuses is a 400 with the
    model's code (``domain.commands.refusals``), naming ``what`` (``"webhook"``, ``"result"``)."""
    if not isinstance(raw, dict):
        raise InvalidCommand(f"the {what} must be a JSON object, got {raw!r}", Code.INVALID_BODY)
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        raise refusal(err, what=what) from None


async def read_body(request: Request, model: type[B], what: str) -> B:
    """The request's JSON object body as ``model`` (``raw_body``, ``json_object``, ``parse_body``):
    how a route reads a body it doesn't keep the bytes of (an ``Idempotency-Key`` route does)."""
    return parse_body(model, json_object(await raw_body(request)), what)


def if_match(request: Request) -> int | None:
    """``If-Match: "<version>"`` (quotes and a weak ``W/`` prefix allowed)."""
    raw = request.headers.get("if-match")
    if raw is None:
        return None
    text = raw.strip()
    if text.startswith("W/"):
        text = text[2:]
    version = header_version(text.strip('"'))
    if version is None:
        raise InvalidCommand(f'If-Match must be a game version like "7", got {_shown(raw)}', Code.INVALID_IF_MATCH)
    return version


MAX_HEADER_VERSION = 2**63 - 1
_ASCII_DIGITS = re.compile(r"[0-9]{1,19}")


def header_version(text: str) -> int | None:
    """A version in a header: 1 to 19 ASCII digits, within 64 bits (``'²'.isdigit()`` is true in
    Python, but ``int('²')`` fails), else ``None``."""
    if _ASCII_DIGITS.fullmatch(text) is None:
        return None
    value = int(text)
    return value if value <= MAX_HEADER_VERSION else None


def _shown(raw: str) -> str:
    """A header value quoted in an error, cut short (a 5,000-digit header is not echoed whole)."""
    return repr(raw) if len(raw) <= 40 else repr(raw[:40]) + f"... ({len(raw)} characters)"
