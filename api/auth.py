"""Authentication and roles (docs/api.md, Authentication and roles).

Roles form a ladder: ``spectator < player < scorekeeper < judge < head_judge < admin``; "scorekeeper+" means
scorekeeper, judge or admin. A ``player`` token is bound to one game and one player and may act
only there, only as that player. Tokens are stored hashed by the service; the bootstrap admin
token comes from ``MTG_LEDGER_ADMIN_TOKEN`` or is generated once and printed once.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Literal

from fastapi import Request

from api.errors import ApiError
from api.threads import in_thread

Role = Literal["spectator", "player", "scorekeeper", "judge", "head_judge", "admin"]
ROLES: tuple[Role, ...] = ("spectator", "player", "scorekeeper", "judge", "head_judge", "admin")
RANK = {role: i for i, role in enumerate(ROLES)}


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the token's name and role, and for players their game and player."""

    name: str
    role: Role
    game_id: str | None = None
    player_id: str | None = None
    token_id: str | None = None
    """The stored token's public id (``None`` for the bootstrap admin token of the environment)."""

    def at_least(self, role: Role) -> bool:
        return RANK[self.role] >= RANK[role]


ANONYMOUS = Principal(name="anonymous", role="spectator")
_BEARER = {"WWW-Authenticate": "Bearer"}


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "invalid_token", "Authorization must be 'Bearer <token>'", {"WWW-Authenticate": "Bearer"})
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
    tokens = request.app.state.service.tokens
    info = tokens.grant(token)
    if info is None:
        # The usual cause is a token made (mtg-ledger token create) against another store.
        detail = "the bearer token is not known to this server's store; a token works only where it was made"
        raise ApiError(401, "invalid_token", detail, {"WWW-Authenticate": "Bearer"})
    if info.revoked_at is not None:
        raise ApiError(401, "invalid_token", f"the bearer token was revoked at {info.revoked_at}", _BEARER)
    if not tokens.usable(info):
        raise ApiError(401, "invalid_token", f"the bearer token expired at {info.expires_at}", _BEARER)
    return Principal(
        name=info.name, role=info.role, game_id=info.game_id, player_id=info.player_id, token_id=info.id or None
    )


def require(request: Request, role: Role) -> Principal:
    """The caller, who must hold at least ``role``; reads may be public (MTG_LEDGER_PUBLIC_READS).
    The caller is kept on ``request.state.principal``: error messages are redacted by role."""
    principal = authenticate(request)
    if principal is None:
        if role == "spectator" and request.app.state.settings.public_reads:
            return ANONYMOUS
        raise ApiError(401, "unauthorized", "this endpoint needs a bearer token", {"WWW-Authenticate": "Bearer"})
    request.state.principal = principal
    if not principal.at_least(role):
        raise ApiError(403, "forbidden", f"role {principal.role!r} may not do this; it needs {role!r} or above")
    return principal


async def require_async(request: Request, role: Role) -> Principal:
    """``require`` for an ``async`` dependency: inline (no thread hop) when the token needs no
    read (none, the bootstrap admin token, or a token this process has seen), else ``require``
    in the thread pool. Each hop costs a request a thread switch (docs/performance.md)."""
    token = bearer(request)
    settings = request.app.state.settings
    if (
        token is None
        or (
            settings.admin_token is not None
            and hmac.compare_digest(token.encode(), settings.admin_token.get_secret_value().encode())
        )
        or request.app.state.service.tokens.known(token) is not None
    ):
        return require(request, role)
    return await in_thread(require, request, role)


def check_bound_game(principal: Principal, game_id: str) -> str:
    """A player token acts only in its own game (docs/api.md, Authentication and roles): its player id, or ``403
    wrong_game``. What it may do there is ``domain.permissions.check_player_command``'s."""
    if principal.game_id != game_id or principal.player_id is None:
        raise ApiError(403, "wrong_game", f"this player token is bound to game {principal.game_id!r}")
    return principal.player_id


def check_player_game(principal: Principal, game_id: str) -> None:
    """A player token acts only in its own game: refused before its request is even parsed, so a
    token learns nothing about another game's bodies (or whether that game exists)."""
    if principal.role == "player" and principal.game_id != game_id:
        raise ApiError(403, "wrong_game", f"this player token is bound to game {principal.game_id!r}")
