"""``Idempotency-Key``: a retry with the same key and body returns the first response and stores
nothing; the same key with another body is 409 ``idempotency_key_reused``.

Records are stored durably (``ledger.idempotency``) with a fingerprint of the request
(method, path and the SHA-256 of the body). Keys are scoped to the path, so one key can't collide
across games.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, NamedTuple

from fastapi import Request
from fastapi.responses import JSONResponse

from api.presenters import AnswerResponse
from api.threads import in_thread
from domain.errors import Code, Conflict, InvalidCommand
from ledger.service import LedgerService
from store.canonical_json import CanonicalizationError, canonical

MAX_KEY = 200


def fingerprint(request: Request, body: bytes) -> str:
    """Method, path and the body's canonical JSON (RFC 8785): the same request with its keys in
    another order or other whitespace is the same request."""
    try:
        text = canonical(json.loads(body)) if body.strip() else b""
    except (ValueError, RecursionError, CanonicalizationError):
        text = body
    return hashlib.sha256(request.method.encode() + b" " + request.url.path.encode() + b"\n" + text).hexdigest()


class Answer(NamedTuple):
    """A request's response, and whether its save claimed the key."""

    status: int
    payload: dict[str, Any]
    key_claimed: bool = False
    """The action's save also claimed the key (``ActionResult.key_claimed``)."""


Perform = Callable[[str | None, str | None], Answer]
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
    """Run ``perform`` once per key; replay its stored response on a retry. The key's records
    are read once per request; remembering the response writes without reading them again."""
    key = request.headers.get("idempotency-key")
    if key is None:
        status, payload, _ = await in_thread(perform, None, None)
        return AnswerResponse(payload, status_code=status)
    if not key.strip() or len(key) > MAX_KEY or not key.isprintable():
        raise InvalidCommand(f"Idempotency-Key must be 1-{MAX_KEY} printable characters", Code.INVALID_IDEMPOTENCY_KEY)
    # Scoped to the caller too: a replayed response is only ever shown to the token that got it
    # first (it may hold hidden information that another token may not see).
    scoped = f"{caller}|{request.url.path}|{key}"
    print_ = fingerprint(request, body)
    seen = await in_thread(service.read_idempotency_key, scoped)
    recalled = seen.recalled
    if recalled is not None:
        stored_print, status, response_json = recalled
        if stored_print != print_:
            raise Conflict(
                f"Idempotency-Key {key!r} was used with a different request body", Code.IDEMPOTENCY_KEY_REUSED
            )
        return JSONResponse(json.loads(response_json), status_code=status, headers={"Idempotent-Replayed": "true"})
    claim = seen.claim
    if claim is not None and rebuild is not None and claim.fingerprint != print_:
        raise Conflict(f"Idempotency-Key {key!r} was used with a different request body", Code.IDEMPOTENCY_KEY_REUSED)

    def answer() -> Answer:
        if claim is not None and rebuild is not None:
            # The action was stored but its response never was (the process died in between):
            # answer from the record itself rather than refusing the retry forever.
            return Answer(*rebuild(claim.game_id, claim.action_id, claim.version))
        return perform(scoped, print_)

    def answer_and_remember() -> Answer:
        answered = answer()
        service.remember_response(
            seen, print_, answered.status, json.dumps(answered.payload), claimed_since=answered.key_claimed
        )
        return answered

    status, payload, _ = await in_thread(answer_and_remember)
    return AnswerResponse(payload, status_code=status)
