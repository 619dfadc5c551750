"""API tokens, stored as streams of the ledger application (same database as the games).

A token's stream id is ``_token/<SHA-256 of the secret>``: the secret itself is never stored, and
looking a token up is one read by primary key. Admin tokens are stored under their own topic, so
"is there an admin yet?" reads one row filtered by topic instead of scanning every token.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from eventsourcing.persistence import IntegrityError

from domain.errors import Conflict, InvalidCommand
from projections.ledger_application import LedgerApplication
from projections.results import TokenInfo
from projections.stored_events import AdminTokenIssued, TokenIssued, token_stream_id

ROLES = ("admin", "head_judge", "judge", "scorekeeper", "player", "spectator")
"""The roles (docs/api.md, Authentication and roles), most powerful first."""
MAX_KNOWN = 10_000
"""Grants cached per process (the cache starts over when full)."""


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class TokenRegistry:
    """Issues tokens and looks them up by secret."""

    def __init__(self, app: LedgerApplication, now: Callable[[], str]) -> None:
        self._app = app
        self._now = now
        self._known: dict[str, TokenInfo] = {}
        """Grants looked up so far, by digest. A token is one record written once and never
        changed or revoked (no such operation exists), so what was read stays true; caching
        saves every authenticated request a read. Revocation, if it comes, must drop this."""

    def create(
        self,
        name: str,
        role: str,
        game_id: str | None = None,
        player_id: str | None = None,
        *,
        secret: str | None = None,
    ) -> str:
        """Store a token and return its secret. ``secret`` registers a given one (the bootstrap
        admin token from the environment); registering the same secret again with the same
        grant is a no-op, with another grant a ``Conflict``."""
        if not isinstance(name, str) or not name.strip():
            raise InvalidCommand(f"a token needs a name, got {name!r}", "invalid_field")
        if role not in ROLES:
            raise InvalidCommand(f"role must be one of {list(ROLES)}, got {role!r}", "invalid_role")
        if role == "player" and (not game_id or not player_id):
            raise InvalidCommand("a player token needs a game_id and a player_id", "missing_field")
        secret = secret if secret is not None else secrets.token_urlsafe(32)
        if not secret:
            raise InvalidCommand("a token secret can't be empty", "invalid_field")
        cls = AdminTokenIssued if role == "admin" else TokenIssued
        record = cls(
            originator_id=token_stream_id(secret_digest(secret)),
            originator_version=1,
            name=name,
            role=role,
            game_id=game_id,
            player_id=player_id,
            issued_at=self._now(),
        )
        try:
            self._app.save(record)
        except IntegrityError:
            existing = self.lookup(secret)
            if existing is None or (existing.name, existing.role, existing.game_id, existing.player_id) != (
                name,
                role,
                game_id,
                player_id,
            ):
                raise Conflict("that token secret is already registered with another grant", "token_exists") from None
        return secret

    def lookup(self, secret: str) -> TokenInfo | None:
        """What the token grants, or ``None`` for an unknown secret."""
        if not secret:
            return None
        digest = secret_digest(secret)
        known = self._known.get(digest)
        if known is not None:
            return known
        for record in self._app.events.get(token_stream_id(digest), limit=1):
            if isinstance(record, TokenIssued):
                info = TokenInfo(record.name, record.role, record.game_id, record.player_id, record.issued_at)
                if len(self._known) >= MAX_KNOWN:
                    self._known.clear()
                self._known[digest] = info
                return info
        return None

    def known(self, secret: str) -> TokenInfo | None:
        """The grant of a token this process has already looked up (no I/O), else ``None``."""
        return self._known.get(secret_digest(secret)) if secret else None

    def has_admin(self) -> bool:
        found = self._app.recorder.select_notifications(start=None, limit=1, topics=[AdminTokenIssued.TOPIC])
        return len(found) > 0
