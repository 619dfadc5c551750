"""Every error as RFC 9457 problem details (``application/problem+json``) with a stable ``code``.

The one error tree and every code live in ``domain/errors.py``; the HTTP status of each is
chosen here (``status_of``), and nowhere else. One handler answers the tree; the others cover
what FastAPI and Starlette raise themselves (validation, unknown route, wrong method) and a store
out of reach, so no error leaves the server in another shape. docs/api.md's error table is
generated from the same (``api/error_table.py``).
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from domain.errors import (
    Busy,
    Code,
    Conflict,
    Forbidden,
    GameError,
    IllegalAction,
    InternalError,
    InvalidCommand,
    LimitExceeded,
    NotFound,
    TooLarge,
    Unauthenticated,
    Unavailable,
    UnknownName,
    Unsupported,
)
from store.errors import STORE_UNREACHABLE

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("mtg_ledger.api")

STATUS: dict[type[GameError], int] = {
    InvalidCommand: 400,
    Unauthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    Unsupported: 405,
    Conflict: 409,
    TooLarge: 413,
    UnknownName: 422,
    LimitExceeded: 422,
    IllegalAction: 422,
    Busy: 429,
    InternalError: 500,
    Unavailable: 503,
}
"""The HTTP status of each class of the tree (a subclass takes its nearest listed base's)."""

_STATUS_BY_CODE: dict[Code, int] = {Code.NOT_ACCEPTABLE: 406, Code.UNSUPPORTED_MEDIA_TYPE: 415}
"""The codes of a class whose status is not the class's (the ways a request's form is refused)."""

_CODE_BY_STATUS: dict[int, Code] = {
    400: Code.BAD_REQUEST,
    401: Code.UNAUTHORIZED,
    403: Code.FORBIDDEN,
    404: Code.NOT_FOUND,
    405: Code.METHOD_NOT_ALLOWED,
    406: Code.NOT_ACCEPTABLE,
    409: Code.CONFLICT,
    413: Code.PAYLOAD_TOO_LARGE,
    415: Code.UNSUPPORTED_MEDIA_TYPE,
    422: Code.UNPROCESSABLE,
    429: Code.TOO_MANY_REQUESTS,
    500: Code.INTERNAL_ERROR,
    503: Code.STORE_UNAVAILABLE,
}
"""The code of a refusal Starlette raises itself, by its status."""


def status_of(code: Code) -> int:
    """The HTTP status a code is answered with."""
    if code in _STATUS_BY_CODE:
        return _STATUS_BY_CODE[code]
    for cls in code.kind.__mro__:
        if cls in STATUS:
            return STATUS[cls]
    raise KeyError(f"no HTTP status for {code.kind.__name__}")


STORE_RETRY_AFTER = "1"
"""Seconds a client is asked to wait before it sends again when the store is out of reach."""


def problem(status: int, code: Code, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    body = {
        "type": f"/problems/{code}",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def problem_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["type", "title", "status", "detail", "code"],
        "properties": {
            "type": {"type": "string"},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string"},
            "code": {"type": "string", "enum": [code.value for code in Code]},
        },
    }


def _headers(exc: GameError) -> dict[str, str] | None:
    """What a refusal's class asks the client to do next (RFC 9110 WWW-Authenticate, Retry-After)."""
    if isinstance(exc, Unauthenticated):
        return {"WWW-Authenticate": "Bearer"}
    if isinstance(exc, Busy):
        return {"Retry-After": str(exc.retry_after)}
    if isinstance(exc, Unavailable):
        return {"Retry-After": STORE_RETRY_AFTER}
    return None


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(GameError)
    async def _game_error(request: Request, exc: GameError) -> JSONResponse:
        # Hidden-zone details only for callers who see hidden zones (judges, admins), as reads.
        principal = getattr(request.state, "principal", None)
        sees_hidden = principal is not None and principal.at_least("judge")
        return problem(status_of(exc.code), exc.code, exc.message_for(sees_hidden), _headers(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()))
            parts.append(f"{where}: {err.get('msg')}")
        return problem(400, Code.INVALID_REQUEST, "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _CODE_BY_STATUS.get(exc.status_code, Code.HTTP_ERROR)
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such resource: {request.method} {request.url.path}"
        if exc.status_code == 405:
            detail = f"method {request.method} is not allowed on {request.url.path}"
        return problem(exc.status_code, code, detail, dict(exc.headers) if exc.headers else None)

    async def _store_unavailable(request: Request, exc: Exception) -> JSONResponse:
        # Not the request's fault nor a bug of ours: the database is down, or every
        # connection was busy for the pool's whole timeout. Almost always nothing was stored
        # (a save is atomic); only a connection lost during the commit itself leaves that
        # unknown, which is what the Idempotency-Key of a retry is for.
        log.warning("store unavailable on %s %s: %s", request.method, request.url.path, exc)
        return problem(
            503,
            Code.STORE_UNAVAILABLE,
            "the event store could not be reached in time; send the request again "
            "(with the same Idempotency-Key, a retry never acts twice)",
            {"Retry-After": STORE_RETRY_AFTER},
        )

    for unreachable in STORE_UNREACHABLE:
        app.add_exception_handler(unreachable, _store_unavailable)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return problem(500, Code.INTERNAL_ERROR, "the server failed to handle this request; it has been logged")
