"""Field types of the request bodies: each carries its own check, error code and JSON schema.

The API's error codes are older than these models (``invalid_amount``, ``invalid_target``,
``invalid_step``, ...). A check that raises its code itself (``refuse``) keeps them stable
without a table keyed on field names; ``domain.commands.refusals`` passes such codes through and
maps pydantic's own errors (wrong type, missing field, unknown field) to the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from domain.commands.bodies.text import line_break_or_tab
from domain.counter_kinds import canonical_kind
from domain.state import STEPS, VARIANTS

MAX_TEXT = 200
"""Longest id, name or source string accepted in a body (a note's text may be longer)."""
MAX_NOTE = 10_000
"""Longest note text."""
MAX_ID = 100
"""Longest player or permanent id chosen at game creation."""
MAX_KIND = 64
"""Longest counter kind name accepted (the longest printed ones are about 20 characters)."""
MAX_AMOUNT = 1_000_000
"""Largest amount, count or X accepted: far beyond any real game, well inside JSON's safe integers."""

ZONES_TO = ("graveyard", "exile", "hand", "library_top", "library_bottom", "command")
"""Where ``move`` may put a permanent (``command``: a commander, CR 903.9)."""
MOVE_FROM = ("graveyard", "exile")
"""Where ``move`` may take a card from (a commander to the command zone, CR 903.9a)."""
CAST_FROM = ("hand", "command", "exile", "graveyard", "library")
"""Zones a spell may be cast from."""


def example(body: dict[str, Any]) -> ConfigDict:
    """A model's example, shown in ``/openapi.json`` (the tests check that each one parses)."""
    return ConfigDict(json_schema_extra={"examples": [body]})


class Body(BaseModel):
    """Base of every body model: unknown fields are refused (``unknown_field``) and types are
    strict, so ``"2"`` is not 2 and ``true`` is not 1. A field given as ``null`` counts as not
    given (its default, or ``missing_field``), as it always has for v1 clients."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _null_is_absent(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        own = {info.alias or name for name, info in cls.model_fields.items()}
        return {key: value for key, value in data.items() if value is not None or key not in own}


def refuse(code: str, message: str) -> PydanticCustomError:
    """A validation error carrying the API's ``code`` (``message`` is shown as it is)."""
    return PydanticCustomError(code, "{message}", {"message": message, API_CODE: code})


API_CODE = "api_code"
"""The key of a ``refuse`` error's context that holds the API code it stands for."""


def shown(value: Any) -> str:
    """``repr`` of an offending value, cut short so a huge body doesn't flood the message."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def within(low: int, high: int, code: str) -> Callable[[int], int]:
    def check(value: int) -> int:
        if value < low:
            raise refuse(code, f"must be at least {low}, got {value!r}")
        if value > high:
            raise refuse(code, f"must be at most {high}, got {value!r}")
        return value

    return check


def int_schema(low: int, high: int) -> WithJsonSchema:
    return WithJsonSchema({"type": "integer", "minimum": low, "maximum": high})


def _one_of(choices: Collection[str], code: str, not_text: str = "invalid_field") -> Callable[[Any], str]:
    """A check that the value is one of ``choices`` (``code`` if not); a value that isn't a
    non-empty string is ``not_text``."""

    def check(value: Any) -> str:
        if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
            raise refuse(not_text, f"must be one of {list(choices)}, got {shown(value)}")
        if value not in choices:
            raise refuse(code, f"must be one of {list(choices)}, got {shown(value)}")
        return value

    return check


def _enum_schema(choices: Collection[str]) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "enum": list(choices)})


Text = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT)]
"""A non-empty id, name or source."""


def _plain_id(value: str) -> str:
    bad = line_break_or_tab(value)
    if bad is not None:
        raise refuse("invalid_character", f"an id holds control character {bad}, got {shown(value)}")
    return value


SetupId = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID), AfterValidator(_plain_id)]
"""A player or permanent id chosen at game creation: no tab or line break (and, as every body's
text, no other control character: ``domain.commands.bodies.text``)."""
EventName = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TEXT), AfterValidator(_plain_id)]
"""An event's name (a game's ``tournament.event``): no tab or line break, like an id."""
Kind = Annotated[str, StringConstraints(min_length=1, max_length=MAX_KIND)]
"""A counter kind as the request writes it (``canonical_kind`` checks it against the known ones)."""

Positive = Annotated[int, AfterValidator(within(1, MAX_AMOUNT, "invalid_amount")), int_schema(1, MAX_AMOUNT)]
"""An amount or count of at least 1 (``invalid_amount`` otherwise)."""
NonNegative = Annotated[int, AfterValidator(within(0, MAX_AMOUNT, "invalid_amount")), int_schema(0, MAX_AMOUNT)]
"""An amount, X or ability index of at least 0 (``invalid_amount`` otherwise)."""
Size = Annotated[int, AfterValidator(within(0, MAX_AMOUNT, "invalid_field")), int_schema(0, MAX_AMOUNT)]
"""A count in the create body (library size, round, ...): ``invalid_field`` when out of range."""
TurnNumber = Annotated[int, AfterValidator(within(1, MAX_AMOUNT, "invalid_field")), int_schema(1, MAX_AMOUNT)]
Life = Annotated[
    int, AfterValidator(within(-MAX_AMOUNT, MAX_AMOUNT, "invalid_field")), int_schema(-MAX_AMOUNT, MAX_AMOUNT)
]

Step = Annotated[str, PlainValidator(_one_of(STEPS, "invalid_step", "invalid_step")), _enum_schema(STEPS)]
AdvanceTo = Annotated[
    str, PlainValidator(_one_of((*STEPS, "next_turn"), "invalid_step")), _enum_schema((*STEPS, "next_turn"))
]
ZoneTo = Annotated[str, PlainValidator(_one_of(ZONES_TO, "invalid_zone")), _enum_schema(ZONES_TO)]
MoveFrom = Annotated[str, PlainValidator(_one_of(MOVE_FROM, "invalid_zone")), _enum_schema(MOVE_FROM)]
CastFrom = Annotated[str, PlainValidator(_one_of(CAST_FROM, "invalid_zone")), _enum_schema(CAST_FROM)]
Variant = Annotated[
    str, PlainValidator(_one_of(VARIANTS, "invalid_variant", "invalid_variant")), _enum_schema(VARIANTS)
]


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT


def _target(value: Any) -> dict[str, str]:
    """``{"player": id}`` or ``{"permanent": id}``: exactly one key."""
    if not isinstance(value, Mapping):
        raise refuse("invalid_target", f'must be {{"player": id}} or {{"permanent": id}}, got {shown(value)}')
    unknown = sorted(str(k) for k in value if k not in ("player", "permanent", "team"))
    if unknown:
        raise refuse("unknown_field", f"unknown field {unknown[0]!r}: a target names one 'player' or 'permanent'")
    present = [k for k in ("player", "permanent") if k in value]
    if "team" in value or len(present) != 1 or not _is_text(value[present[0]]):
        raise refuse("invalid_target", f"must name exactly one player or permanent, got {shown(value)}")
    return {present[0]: value[present[0]]}


_ONE_KEY = [
    {"type": "object", "properties": {key: {"type": "string", "minLength": 1}}, "required": [key]}
    for key in ("player", "permanent")
]
Target = Annotated[
    dict[str, str],
    PlainValidator(_target),
    WithJsonSchema({"oneOf": [{**s, "additionalProperties": False} for s in _ONE_KEY]}),
]
"""What a counter, damage or attack is aimed at."""


def check_choice(value: Any) -> dict[str, str]:
    """A proliferate choice: one player, permanent or (before 2019-05-03 in 2HG) team, and in a
    game of that edition the ``kind`` chosen for it (CR 701.34)."""
    if not isinstance(value, Mapping):
        raise refuse(
            "invalid_target", f'each choice must be {{"player": id}} or {{"permanent": id}}, got {shown(value)}'
        )
    unknown = sorted(str(k) for k in value if k not in ("player", "permanent", "team", "kind"))
    if unknown:
        raise refuse("unknown_field", f"unknown field {unknown[0]!r} in a proliferate choice")
    present = [k for k in ("player", "permanent", "team") if k in value]
    if len(present) != 1 or not _is_text(value[present[0]]):
        raise refuse("invalid_target", f"each choice must name exactly one player or permanent, got {shown(value)}")
    choice = {present[0]: value[present[0]]}
    if "kind" in value:
        kind = value["kind"]
        if not isinstance(kind, str) or not 0 < len(kind) <= MAX_KIND:
            raise refuse("invalid_field", f"'kind' must be a counter name, got {shown(kind)}")
        choice["kind"] = kind
    return choice


CHOICE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "one of player, permanent (or team, before 2019-05-03); kind only in games "
    "pinned to an edition before 2019-05-03",
    "properties": {key: {"type": "string"} for key in ("player", "permanent", "team", "kind")},
    "additionalProperties": False,
}
Choice = Annotated[dict[str, str], PlainValidator(check_choice), WithJsonSchema(CHOICE_SCHEMA)]

CARD_SCHEMA: dict[str, Any] = {
    "description": 'a catalog name, or an object {"name", "type_line", "power"?, "toughness"?, '
    '"loyalty"?, "mana_cost"?, "oracle_text"?}',
    "anyOf": [
        {"type": "string"},
        {
            "type": "object",
            "required": ["name"],
            "properties": {
                key: {"type": "string"}
                for key in ("name", "type_line", "power", "toughness", "loyalty", "mana_cost", "oracle_text")
            },
        },
    ],
}
CardRef = Annotated[Any, WithJsonSchema(CARD_SCHEMA)]
"""A card reference; the ``CardResolver`` checks it (``unknown_card``, ``invalid_card``)."""

Count = Annotated[int, AfterValidator(within(0, MAX_AMOUNT, "invalid_field")), int_schema(0, MAX_AMOUNT)]
CounterMap = dict[Kind, Count]
"""Counter kinds to counts (0 allowed, and dropped)."""
ReplacementOrder = Annotated[
    list[Text] | None,
    Field(description="permanent ids of replacement effects, first applied first (CR 616.1)"),
]
CustomKind = Annotated[
    bool,
    Field(
        description="record counter kinds that are neither in CR 122 nor printed on a card as written, "
        "instead of refusing them (unknown_counter_kind)"
    ),
]


def counters_of(counters: Mapping[str, int] | None, *, custom: bool, where: str) -> dict[str, int]:
    """A counter map with canonical kinds (spellings of one kind merged) and no zero counts."""
    out: dict[str, int] = {}
    for kind, count in (counters or {}).items():
        if count > 0:
            canonical = canonical_kind(kind, custom=custom, where=where)
            out[canonical] = out.get(canonical, 0) + count
    return out
