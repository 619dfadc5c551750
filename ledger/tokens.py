"""API tokens, stored as streams of the ledger application (same database as the games).

A token's stream id is ``_token/<SHA-256 of the secret>``: the secret itself is never stored, and
looking a token up is one read by primary key. Admin tokens are stored under their own topic, so
"is there an admin yet?" reads one row filtered by topic instead of scanning every token.

A token may expire (``expires_at``) and may be revoked (``TokenRevoked``, version 2 of its
stream). Grants are cached per process for at most ``GRANT_TTL`` seconds: a revocation is seen at
once by the process that made it and within ``GRANT_TTL`` by every other worker on the store.
When a token was last used is recorded at most once per ``USE_RECORD_INTERVAL`` per process
(``_tokenuse/<digest>``), on a lookup that reads the store anyway.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime

from domain.errors import Code, Conflict, InvalidCommand, NotFound
from store.errors import VersionClash
from store.records import (
    AdminTokenIssued,
    TokenIssued,
    TokenRevoked,
    TokenUsed,
    token_stream_id,
    token_use_stream_id,
)
from store.results import TokenInfo
from store.streams import Streams

ROLES = ("admin", "head_judge", "judge", "scorekeeper", "player", "spectator")
"""The roles (docs/api.md, Authentication and roles), most powerful first."""
MAX_KNOWN = 10_000
"""Grants cached per process (the cache starts over when full)."""
GRANT_TTL = 1.0
"""Seconds a process trusts a cached grant before reading the token again: the bound on how long
another worker may still accept a revoked (or expired-by-revocation) token."""
USE_RECORD_INTERVAL = 60.0
"""Seconds between two stored last-use records of one token by one process."""
ID_LENGTH = 16
"""Hex digits of a token's public id."""


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class TokenRegistry:
    """Issues tokens and looks them up by secret."""

    def __init__(self, streams: Streams, now: Callable[[], str]) -> None:
        self._streams = streams
        self._now = now
        self._known: dict[str, tuple[TokenInfo, float]] = {}
        """Grants looked up so far, by digest, with when they were read (``time.monotonic``):
        trusted for ``GRANT_TTL`` seconds, which saves most authenticated requests a read."""
        self._used: dict[str, float] = {}
        """When this process last stored a use of each token (``time.monotonic``)."""
        self._lock = threading.Lock()

    def create(
        self,
        name: str,
        role: str,
        game_id: str | None = None,
        player_id: str | None = None,
        *,
        secret: str | None = None,
        expires_at: str | None = None,
    ) -> str:
        """Store a token and return its secret. ``secret`` registers a given one (the bootstrap
        admin token from the environment); registering the same secret again with the same
        grant is a no-op, with another grant a ``Conflict``."""
        if not isinstance(name, str) or not name.strip():
            raise InvalidCommand(f"a token needs a name, got {name!r}", Code.INVALID_FIELD)
        if role not in ROLES:
            raise InvalidCommand(f"role must be one of {list(ROLES)}, got {role!r}", Code.INVALID_ROLE)
        if role == "player" and (not game_id or not player_id):
            raise InvalidCommand("a player token needs a game_id and a player_id", Code.MISSING_FIELD)
        if expires_at is not None and _parse_time(expires_at) <= _parse_time(self._now()):
            raise InvalidCommand(f"expires_at must be in the future, got {expires_at!r}", Code.INVALID_FIELD)
        secret = secret if secret is not None else secrets.token_urlsafe(32)
        if not secret:
            raise InvalidCommand("a token secret can't be empty", Code.INVALID_FIELD)
        cls = AdminTokenIssued if role == "admin" else TokenIssued
        record = cls(
            originator_id=token_stream_id(secret_digest(secret)),
            originator_version=1,
            name=name,
            role=role,
            game_id=game_id,
            player_id=player_id,
            issued_at=self._now(),
            expires_at=expires_at,
        )
        try:
            self._streams.append_alone(record)
        except VersionClash:
            existing = self.lookup(secret)
            if existing is None or (existing.name, existing.role, existing.game_id, existing.player_id) != (
                name,
                role,
                game_id,
                player_id,
            ):
                raise Conflict(
                    "that token secret is already registered with another grant", Code.TOKEN_EXISTS
                ) from None
        return secret

    def lookup(self, secret: str) -> TokenInfo | None:
        """What the token grants, or ``None`` for an unknown, expired or revoked secret."""
        info = self.grant(secret)
        return info if info is not None and self.usable(info) else None

    def grant(self, secret: str) -> TokenInfo | None:
        """The stored grant of a secret (revoked or expired ones too: ``usable`` says), read at
        most ``GRANT_TTL`` seconds ago; ``None`` for an unknown secret."""
        if not secret:
            return None
        digest = secret_digest(secret)
        cached = self._cached(digest)
        if cached is not None:
            return cached
        info = self._read(digest)
        if info is None:
            self._known.pop(digest, None)
            return None
        if len(self._known) >= MAX_KNOWN:
            self._known.clear()
        self._known[digest] = (info, time.monotonic())
        if self.usable(info):
            self._record_use(digest)
        return info

    def usable(self, info: TokenInfo) -> bool:
        """Neither revoked nor expired."""
        if info.revoked_at is not None:
            return False
        return info.expires_at is None or _parse_time(info.expires_at) > _parse_time(self._now())

    def known(self, secret: str) -> TokenInfo | None:
        """The usable grant of a token this process read less than ``GRANT_TTL`` seconds ago (no
        I/O), else ``None``."""
        info = self._cached(secret_digest(secret)) if secret else None
        return info if info is not None and self.usable(info) else None

    def _cached(self, digest: str) -> TokenInfo | None:
        entry = self._known.get(digest)
        if entry is None or time.monotonic() - entry[1] > GRANT_TTL:
            return None
        return entry[0]

    def _read(self, digest: str) -> TokenInfo | None:
        info: TokenInfo | None = None
        for record in self._streams.read(token_stream_id(digest), limit=2):
            if isinstance(record, TokenIssued):
                info = _info(digest, record)
            elif isinstance(record, TokenRevoked) and info is not None:
                info = replace(info, revoked_at=record.revoked_at)
        return info

    def _record_use(self, digest: str) -> None:
        """Store that the token was used now, at most once per ``USE_RECORD_INTERVAL`` here."""
        now = time.monotonic()
        with self._lock:
            last = self._used.get(digest)
            if last is not None and now - last < USE_RECORD_INTERVAL:
                return
            if len(self._used) >= MAX_KNOWN:
                self._used.clear()
            self._used[digest] = now
        stream = token_use_stream_id(digest)
        for _ in range(3):
            newest = self._streams.read(stream, desc=True, limit=1)
            version = newest[0].originator_version + 1 if newest else 1
            try:
                self._streams.append_alone(
                    TokenUsed(originator_id=stream, originator_version=version, used_at=self._now())
                )
                return
            except VersionClash:
                continue  # another worker recorded a use at this moment: read and try again

    def last_used(self, digest: str) -> str | None:
        for record in self._streams.read(token_use_stream_id(digest), desc=True, limit=1):
            if isinstance(record, TokenUsed):
                return record.used_at
        return None

    def list(self) -> list[TokenInfo]:
        """Every stored token (revoked and expired ones too), oldest first, with its last use."""
        out = []
        for record in self._issued():
            digest = record.originator_id.removeprefix("_token/")
            info = self._read(digest)
            if info is not None:
                out.append(replace(info, last_used_at=self.last_used(digest)))
        return out

    def revoke(self, token_id: str, actor: dict[str, str]) -> TokenInfo:
        """Revoke the token with this public id, at once in this process (``GRANT_TTL`` elsewhere);
        an unknown id is ``NotFound`` (``unknown_token``); revoking twice is a no-op."""
        for record in self._issued():
            digest = record.originator_id.removeprefix("_token/")
            if digest[:ID_LENGTH] != token_id:
                continue
            self._known.pop(digest, None)
            info = self._read(digest)
            assert info is not None
            if info.revoked_at is not None:
                return info
            revoked = TokenRevoked(
                originator_id=record.originator_id, originator_version=2, revoked_at=self._now(), actor=actor
            )
            with contextlib.suppress(VersionClash):  # revoked at this moment by another request
                self._streams.append_alone(revoked)
            self._known.pop(digest, None)
            info = self._read(digest)
            assert info is not None
            return info
        raise NotFound(f"no token with id {token_id!r}", Code.UNKNOWN_TOKEN)

    def _issued(self) -> Iterator[TokenIssued]:
        for found in self._streams.each_with_topic([TokenIssued.TOPIC, AdminTokenIssued.TOPIC]):
            if isinstance(found.record, TokenIssued):
                yield found.record

    def has_admin(self) -> bool:
        return self._streams.any_with_topic([AdminTokenIssued.TOPIC])


def _info(digest: str, record: TokenIssued) -> TokenInfo:
    return TokenInfo(
        record.name,
        record.role,
        record.game_id,
        record.player_id,
        record.issued_at,
        expires_at=getattr(record, "expires_at", None),
        id=digest[:ID_LENGTH],
    )
