"""From a JSON body to a command: the one path every caller takes (HTTP, CLI, import, tests).

``parse_command`` picks the action's body model by ``type``, validates the body with it and
builds the domain command (``to_command``); ``parse_create_body`` does the same for a create
body. Bad input is a ``GameError`` with a stable code (``domain.commands.refusals``), raised
before anything is decided, so a refused body stores nothing.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from domain.commands.bodies.create import GameCreateBody
from domain.commands.bodies.effects import (
    AddCountersBody,
    DamageBody,
    DesignateBody,
    DrawBody,
    EnterBody,
    GainLifeBody,
    LoseLifeBody,
    MillBody,
    MoveBody,
    PayLifeBody,
    ProliferateBody,
    RemoveCountersBody,
    SacrificeBody,
    TapBody,
    UntapBody,
)
from domain.commands.bodies.flow import (
    AdvanceBody,
    ConcedeBody,
    CounterBody,
    NoteBody,
    OrderTriggersBody,
    ResolveBody,
)
from domain.commands.bodies.opening import ChooseFirstPlayerBody, KeepHandBody, MulliganBody
from domain.commands.bodies.played import ActivateBody, AttackBody, CastBody, PlayLandBody
from domain.commands.refusals import refusal
from domain.commands.vocabulary import CardResolver, Command
from domain.errors import Code, InvalidCommand

AnyActionBody = (
    AdvanceBody
    | ResolveBody
    | OrderTriggersBody
    | AddCountersBody
    | RemoveCountersBody
    | LoseLifeBody
    | GainLifeBody
    | PayLifeBody
    | DamageBody
    | MillBody
    | DrawBody
    | ProliferateBody
    | MoveBody
    | SacrificeBody
    | TapBody
    | UntapBody
    | EnterBody
    | ConcedeBody
    | NoteBody
    | CounterBody
    | CastBody
    | PlayLandBody
    | ActivateBody
    | AttackBody
    | DesignateBody
    | ChooseFirstPlayerBody
    | MulliganBody
    | KeepHandBody
)
"""Every action body; the OpenAPI ``Action`` schema is this union, discriminated by ``type``."""

ACTION_BODIES: dict[str, type[AnyActionBody]] = {
    typing.get_args(model.model_fields["type"].annotation)[0]: model for model in typing.get_args(AnyActionBody)
}
"""The body model of each action type."""
ACTION_TYPES: tuple[str, ...] = tuple(ACTION_BODIES)

ACTION_ADAPTER: TypeAdapter[AnyActionBody] = TypeAdapter(Annotated[AnyActionBody, Field(discriminator="type")])
"""The action union as one schema (``/openapi.json``'s ``Action``)."""

_MISSING_IN_ACTIONS = {
    "target": "invalid_target",
    "attacks": "invalid_target",
    "resolve_first": "invalid_field",
    "attackers": "invalid_field",
}
"""Codes older than the models for some missing fields (docs/api.md: error codes are stable)."""
_MISSING_IN_CREATE = {"variant": "invalid_variant", "card": "missing_field"}


def fields_of(model: type[BaseModel]) -> list[str]:
    """A body's field names as the JSON writes them (``from``, not ``from_``)."""
    return [info.alias or name for name, info in model.model_fields.items()]


def parse_action_body(body: Any) -> AnyActionBody:
    """Validate one action body (``{"type": ..., ...}``) with its type's model."""
    if not isinstance(body, Mapping):
        raise InvalidCommand(f"an action must be a JSON object, got {body!r}", Code.INVALID_BODY)
    kind = body.get("type")
    model = ACTION_BODIES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise InvalidCommand(
            f"unknown action type {kind!r}; expected one of {sorted(ACTION_BODIES)}", Code.UNKNOWN_ACTION
        )
    try:
        return model.model_validate(body)
    except ValidationError as err:
        raise refusal(err, what=str(kind), missing_by_field=_MISSING_IN_ACTIONS, fields=fields_of(model)) from None


def parse_command(body: Any, resolve: CardResolver) -> Command:
    """Parse one action body into a command; cards are resolved through ``resolve``."""
    return parse_action_body(body).to_command(resolve)


def parse_create_body(body: Any) -> GameCreateBody:
    """Validate a create body (``POST /v1/games``); ``domain.setup`` applies the game rules."""
    if isinstance(body, GameCreateBody):
        return body
    if not isinstance(body, Mapping):
        raise InvalidCommand(f"the game must be a JSON object, got {body!r}", Code.INVALID_BODY)
    try:
        return GameCreateBody.model_validate(body)
    except ValidationError as err:
        fields = fields_of(GameCreateBody)
        raise refusal(
            err, what="game", missing="invalid_field", missing_by_field=_MISSING_IN_CREATE, fields=fields
        ) from None
