"""Values the ledger service returns: plain frozen dataclasses, free of the storage library.

``RecordedEvent.to_json`` is exactly docs/api.md's Event shape, so the HTTP layer, the export file and
the tests all speak one format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.state import GameState


@dataclass(frozen=True, slots=True)
class Actor:
    """Who reported an action: a token's name and role (docs/api.md, Authentication and roles)."""

    name: str
    role: str
    token: str | None = None
    """The token's public id (``None``: the environment's admin token, a trusted caller, or a
    record from before ids were recorded): who the actor is, never its name (docs/audit.md)."""

    def to_json(self) -> dict[str, str]:
        out = {"name": self.name, "role": self.role}
        if self.token is not None:
            out["token"] = self.token  # additive: records without it read and verify as before
        return out


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """One stored event of a game, with its audit metadata."""

    version: int
    """Position in the game's log, from 1."""
    type: str
    """Domain event type, e.g. ``CardsMilled``."""
    data: Mapping[str, Any]
    """JSON-native event data."""
    rule: str | None
    """The rule that made it happen, or ``None`` for a reported fact."""
    action_id: str
    """Shared by every event one command caused."""
    actor: Actor
    """Who reported the action."""
    recorded_at: str
    """RFC 3339 UTC time the action was stored."""
    prev_hash: str
    """Hash of the previous event (64 zeros for version 1)."""
    hash: str
    """This event's link in the hash chain (docs/audit.md)."""
    reverted: bool = False
    """Undone by a live ``ActionsReverted`` (the event stays in the log)."""

    def to_json(self) -> dict[str, Any]:
        """docs/api.md's Event shape; ``rule`` is left out when there is none."""
        out: dict[str, Any] = {
            "version": self.version,
            "type": self.type,
            "data": dict(self.data),
            "action_id": self.action_id,
            "actor": self.actor.to_json(),
            "recorded_at": self.recorded_at,
        }
        if self.rule is not None:
            out["rule"] = self.rule
        out["hash"] = self.hash
        out["prev_hash"] = self.prev_hash
        out["reverted"] = self.reverted
        return out


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What one stored action gives back: its events and the state after them."""

    game_id: str
    action_id: str
    """The id every event of the action shares."""
    version: int
    """The game's version after the action (its If-Match for the next one)."""
    events: list[RecordedEvent]
    """The events the action stored, in order."""
    state: GameState
    """The state at ``version``."""
    key_claimed: bool = False
    """The action's save also claimed its ``Idempotency-Key`` (``ledger.idempotency``)."""


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """Outcome of recomputing a game's hash chain (docs/api.md, Undo, replay and audit)."""

    ok: bool
    events: int
    """How many events were read."""
    head: str | None
    """The stored hash of the last event (``None`` if it could not be read)."""
    first_bad_version: int | None
    """The first version whose content or hash does not match, or ``None``."""
    checked_from: int = 1
    """The first version recomputed this time (after a checkpoint this process verified)."""

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "events": self.events, "head": self.head, "first_bad_version": self.first_bad_version}


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """What a token grants; looked up by the SHA-256 of its secret."""

    name: str
    role: str
    game_id: str | None
    player_id: str | None
    issued_at: str
    expires_at: str | None = None
    """RFC 3339 UTC; ``None``: never expires."""
    id: str = ""
    """The token's public id (the first 16 hex digits of the SHA-256 of its secret): what
    ``GET /v1/tokens`` shows and ``DELETE /v1/tokens/{id}`` takes; never the secret."""
    revoked_at: str | None = None
    last_used_at: str | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One row of the game list read model (``list_games``)."""

    game_id: str
    variant: str
    status: str
    """``in_progress`` or ``finished``."""
    winners: tuple[str, ...]
    event: str | None
    """Tournament event name, from the game's ``tournament`` object."""
    round: Any
    """Tournament round as given at creation (usually an integer)."""
    table: Any
    """Tournament table as given at creation (usually an integer)."""
    version: int
    """The game's version the summary reflects."""
    created_at: str
    updated_at: str
    """``recorded_at`` of the latest event the summary reflects."""
    tournament: Mapping[str, Any] | None = field(default=None)
    """The whole tournament object given at creation."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "variant": self.variant,
            "status": self.status,
            "winners": list(self.winners),
            "tournament": dict(self.tournament) if self.tournament is not None else None,
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "version": self.version,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }
