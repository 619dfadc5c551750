"""Every error as RFC 9457 problem details (``application/problem+json``) with a stable ``code``.

One handler maps the kernel's ``GameError`` tree to its status and code; the others cover what
FastAPI and Starlette raise themselves (validation, unknown route, wrong method), so no error
leaves the server in another shape.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from domain.errors import GameError
from store.errors import STORE_UNREACHABLE

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("mtg_ledger.api")

_STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "unprocessable",
    429: "too_many_requests",
    500: "internal_error",
    503: "store_unavailable",
}

STORE_RETRY_AFTER = "1"
"""Seconds a client is asked to wait before it sends again when the store is out of reach."""


class ApiError(Exception):
    """An error raised by the HTTP layer itself (auth, headers, bodies)."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers


def problem(status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
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
            "code": {"type": "string"},
        },
    }


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(GameError)
    async def _game_error(request: Request, exc: GameError) -> JSONResponse:
        # Hidden-zone details only for callers who see hidden zones (judges, admins), as reads.
        principal = getattr(request.state, "principal", None)
        sees_hidden = principal is not None and principal.at_least("judge")
        headers = {"Retry-After": "1"} if exc.status == 429 else None
        return problem(exc.status, exc.code, exc.message_for(sees_hidden), headers)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return problem(exc.status, exc.code, exc.detail, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()))
            parts.append(f"{where}: {err.get('msg')}")
        return problem(400, "invalid_request", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "http_error")
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
            "store_unavailable",
            "the event store could not be reached in time; send the request again "
            "(with the same Idempotency-Key, a retry never acts twice)",
            {"Retry-After": STORE_RETRY_AFTER},
        )

    for unreachable in STORE_UNREACHABLE:
        app.add_exception_handler(unreachable, _store_unavailable)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return problem(500, "internal_error", "the server failed to handle this request; it has been logged")
