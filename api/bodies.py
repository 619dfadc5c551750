"""The bodies of the HTTP layer's own requests (undo, tokens): models like the action bodies.

Actions and the create body are the kernel's (``domain.commands``); these two are the API's, as
they become service calls rather than commands. Both refuse unknown fields (``unknown_field``)
and keep the codes of the checks they replace (``reason_required``, ``invalid_role``, ...).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Self

from pydantic import AfterValidator, Field, PlainValidator, ValidationError, WithJsonSchema, model_validator

from domain.commands.bodies.fields import Body, Text, example, int_schema, refuse, shown, within
from domain.commands.refusals import refusal
from domain.errors import Code, InvalidCommand
from ledger.clock import rfc3339

ROLES = ("spectator", "player", "scorekeeper", "judge", "head_judge", "admin")
MAX_VERSION = 2**63 - 1
"""Versions are 64-bit integers in both stores."""

Version = Annotated[int, AfterValidator(within(1, MAX_VERSION, "invalid_field")), int_schema(1, MAX_VERSION)]


def _reason(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise refuse("reason_required", "undo needs a 'reason' (a non-empty string) for the record")
    return value


class UndoBody(Body):
    """Take the game back to ``to_version``, or to before the last ``actions`` actions (default 1),
    by appending one revert (MIPG 1.4: the reason is on the record)."""

    model_config = example({"actions": 1, "reason": "wrong target reported"})
    to_version: Version | None = None
    actions: Version | None = None
    reason: Annotated[str, PlainValidator(_reason), WithJsonSchema({"type": "string", "minLength": 1})]

    @model_validator(mode="after")
    def _one_way_back(self) -> Self:
        if self.to_version is not None and self.actions is not None:
            raise refuse("invalid_field", "give either 'to_version' or 'actions', not both")
        return self


def _role(value: Any) -> str:
    if value not in ROLES:
        raise refuse("invalid_role", f"must be one of {list(ROLES)}, got {value!r}")
    return str(value)


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise refuse("invalid_field", f"must be a non-empty string (at most 200), got {value!r}")
    return value


def expiry_time(value: Any) -> str | None:
    """An RFC 3339 time with a time zone, stored as UTC (``2026-12-31T23:59:59.000000Z``)."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) and len(value) <= 40 else None
        if moment is None or moment.tzinfo is None:
            raise ValueError
        return rfc3339(moment)
    except (ValueError, OverflowError):
        raise refuse("invalid_field", f"must be an RFC 3339 time with a time zone, got {shown(value)}") from None


class TokenCreateBody(Body):
    """A new API token; a ``player`` token is bound to one game and player."""

    model_config = example({"name": "Jane (L2)", "role": "judge"})
    name: Annotated[str, PlainValidator(_name), WithJsonSchema({"type": "string", "minLength": 1, "maxLength": 200})]
    role: Annotated[
        Literal["spectator", "player", "scorekeeper", "judge", "head_judge", "admin"],
        PlainValidator(_role),
        WithJsonSchema({"type": "string", "enum": list(ROLES)}),
    ]
    game_id: Text | None = Field(None, description="player tokens only")
    player_id: Text | None = Field(None, description="player tokens only")
    expires_at: Annotated[
        str | None,
        PlainValidator(expiry_time),
        WithJsonSchema({"type": "string", "format": "date-time"}),
    ] = Field(None, description="RFC 3339 time with a zone, in the future; absent: never expires")

    @model_validator(mode="after")
    def _binding(self) -> Self:
        if self.role == "player" and (self.game_id is None or self.player_id is None):
            raise refuse("missing_field", "a player token needs 'game_id' and 'player_id'")
        if self.role != "player" and (self.game_id is not None or self.player_id is not None):
            raise refuse("invalid_field", "only player tokens are bound to a game and player")
        return self


def parse_undo(body: Any) -> UndoBody:
    try:
        return UndoBody.model_validate(body)
    except ValidationError as err:
        raise refusal(err, what="undo", missing_by_field={"reason": "reason_required"}) from None


def parse_token_create(body: Any) -> TokenCreateBody:
    if not isinstance(body, dict):
        raise InvalidCommand(f"the token must be a JSON object, got {body!r}", Code.INVALID_BODY)
    try:
        return TokenCreateBody.model_validate(body)
    except ValidationError as err:
        raise refusal(err, what="token", missing="invalid_field", missing_by_field={"role": "invalid_role"}) from None
