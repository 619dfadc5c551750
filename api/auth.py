"""Authentication and roles (docs/api.md, Authentication and roles).

This module turns a bearer token into the caller (a ``Principal``: the token's ``Grant`` and its
id); what a grant may do is ``domain.permissions``'s to decide (the role ladder, the game a player
token is bound to, and every other 403). Tokens are stored hashed by the service; the bootstrap
admin token comes from ``MTG_LEDGER_ADMIN_TOKEN`` or is generated once and printed once.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import cast

from fastapi import Request

from api.threads import in_thread
from domain.errors import Code, Unauthenticated
from domain.permissions import ROLES, TOURNAMENT_BINDING, Grant, Role, require_role
from store.results import TokenInfo

__all__ = ["ANONYMOUS", "ROLES", "Principal", "Role", "authenticate", "bearer", "require", "require_async"]


@dataclass(frozen=True, slots=True)
class Principal(Grant):
    """Who is calling: the token's grant (name, role, its public id, and for players their game
    and player; for an event link, its seat in the game the path names: ``seated``)."""


ANONYMOUS = Principal(name="anonymous", role="spectator")


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("Authorization must be 'Bearer <token>'", Code.INVALID_TOKEN)
    return token.strip()


def authenticate(request: Request) -> Principal | None:
    """The caller, or ``None`` when no token was sent; a bad token is 401."""
    token = bearer(request)
    if token is None:
        return None
    settings = request.app.state.settings
    if settings.admin_token is not None and hmac.compare_digest(
        token.encode(), settings.admin_token.get_secret_value().encode()
    ):
        return Principal(name="admin", role="admin")
    service = request.app.state.service
    info = service.token_grant(token)
    if info is None:
        # The usual cause is a token made (mtg-ledger token create) against another store.
        detail = "the bearer token is not known to this server's store; a token works only where it was made"
        raise Unauthenticated(detail, Code.INVALID_TOKEN)
    if info.revoked_at is not None:
        raise Unauthenticated(f"the bearer token was revoked at {info.revoked_at}", Code.INVALID_TOKEN)
    if not service.token_usable(info):
        raise Unauthenticated(f"the bearer token expired at {info.expires_at}", Code.INVALID_TOKEN)
    return Principal(
        name=info.name,
        role=cast(Role, info.role),  # the registry stores only the roles of ``ROLES``
        game_id=info.game_id,
        player_id=info.player_id,
        token_id=info.id or None,
    )


def require(request: Request, role: Role) -> Principal:
    """The caller, who must hold at least ``role``; reads may be public (MTG_LEDGER_PUBLIC_READS).
    The caller is kept on ``request.state.principal``: error messages are redacted by role."""
    principal = authenticate(request)
    if principal is None:
        if role == "spectator" and request.app.state.settings.public_reads:
            return ANONYMOUS
        raise Unauthenticated("this endpoint needs a bearer token", Code.UNAUTHORIZED)
    request.state.principal = principal
    require_role(principal, role)
    game_id = request.path_params.get("game_id")
    if isinstance(game_id, str) and _event_link(principal):
        # An event link acts in a game only where its player is seated (domain.permissions,
        # seat_refusal): every route of a game sees the seat, looked up once per request.
        principal = request.app.state.service.seated(principal, game_id)
    request.state.principal = principal
    return principal


def _event_link(grant: Grant | TokenInfo) -> bool:
    return grant.role == "player" and (grant.game_id or "").startswith(TOURNAMENT_BINDING)


async def require_async(request: Request, role: Role) -> Principal:
    """``require`` for an ``async`` dependency: inline (no thread hop) when the token needs no
    read (none, the bootstrap admin token, or a token this process has seen), else ``require``
    in the thread pool. Each hop costs a request a thread switch (docs/performance.md)."""
    token = bearer(request)
    settings = request.app.state.settings
    known = request.app.state.service.known_token(token) if token is not None else None
    # An event link's seat in the path's game is a read of the tournament (``require``).
    seats = known is not None and _event_link(known) and "game_id" in request.path_params
    if not seats and (
        token is None
        or (
            settings.admin_token is not None
            and hmac.compare_digest(token.encode(), settings.admin_token.get_secret_value().encode())
        )
        or known is not None
    ):
        return require(request, role)
    return await in_thread(require, request, role)
