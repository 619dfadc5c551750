"""``Idempotency-Key``: a retry with the same key and body returns the first response and stores
nothing; the same key with another body is 409 ``idempotency_key_reused``.

Records are stored durably by the service with a fingerprint of the request (method, path and
the SHA-256 of the body). Keys are scoped to the path, so one key can't collide across games.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import rfc8785
from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from api.errors import ApiError
from projections.service import LedgerService

MAX_KEY = 200


def fingerprint(request: Request, body: bytes) -> str:
    """Method, path and the body's canonical JSON (RFC 8785): the same request with its keys in
    another order or other whitespace is the same request."""
    try:
        canonical = rfc8785.dumps(json.loads(body)) if body.strip() else b""
    except (ValueError, RecursionError, rfc8785.CanonicalizationError):
        canonical = body
    return hashlib.sha256(request.method.encode() + b" " + request.url.path.encode() + b"\n" + canonical).hexdigest()


Perform = Callable[[str | None, str | None], tuple[int, dict[str, Any]]]
"""Runs the request, given the scoped key and fingerprint (None without a key): the service
claims the key in the same atomic save as the action, so two racing retries can't both act."""


Rebuild = Callable[[str, str, int], tuple[int, dict[str, Any]]]
"""Rebuilds the first response from the stored action: (game id, action id, version)."""


async def idempotent(
    request: Request,
    service: LedgerService,
    body: bytes,
    perform: Perform,
    rebuild: Rebuild | None = None,
    caller: str = "",
) -> JSONResponse:
    """Run ``perform`` once per key; replay its stored response on a retry."""
    key = request.headers.get("idempotency-key")
    if key is None:
        status, payload = await run_in_threadpool(perform, None, None)
        return JSONResponse(payload, status_code=status)
    if not key.strip() or len(key) > MAX_KEY:
        raise ApiError(400, "invalid_idempotency_key", f"Idempotency-Key must be 1-{MAX_KEY} characters")
    # Scoped to the caller too: a replayed response is only ever shown to the token that got it
    # first (it may hold hidden information that another token may not see).
    scoped = f"{caller}|{request.url.path}|{key}"
    print_ = fingerprint(request, body)
    seen = await run_in_threadpool(service.recall, scoped)
    if seen is not None:
        stored_print, status, response_json = seen
        if stored_print != print_:
            raise ApiError(
                409, "idempotency_key_reused", f"Idempotency-Key {key!r} was used with a different request body"
            )
        return JSONResponse(json.loads(response_json), status_code=status, headers={"Idempotent-Replayed": "true"})
    claimed = await run_in_threadpool(service.claimed_action, scoped)
    if claimed is not None and rebuild is not None:
        # The action was stored but its response never was (the process died in between):
        # answer from the record itself rather than refusing the retry forever.
        claim_print, game_id, action_id, version = claimed
        if claim_print != print_:
            raise ApiError(
                409, "idempotency_key_reused", f"Idempotency-Key {key!r} was used with a different request body"
            )
        status, payload = await run_in_threadpool(rebuild, game_id, action_id, version)
    else:
        status, payload = await run_in_threadpool(perform, scoped, print_)
    await run_in_threadpool(service.remember, scoped, print_, status, json.dumps(payload))
    return JSONResponse(payload, status_code=status)
