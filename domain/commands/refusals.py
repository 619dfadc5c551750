"""What a body model refuses, as the kernel's errors with the API's stable codes.

pydantic reports every problem of a body; the first is reported, so a client fixes one thing at a
time as it did with the hand-written parsers these models replaced. Codes:

- a field type's own check (``domain.commands.bodies.fields.refuse``) brings its code:
  ``invalid_amount``, ``invalid_target``, ``invalid_step``, ``invalid_zone``, ``invalid_variant``,
  ``unknown_field`` (inside a target), ...;
- a field the model doesn't have is ``422 unknown_field``, naming it;
- a missing field is ``missing_field`` (or the caller's code for that field, for codes older
  than the models);
- anything else (a wrong type, an empty string, an empty list) is ``invalid_field``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from domain.commands.bodies.fields import API_CODE, shown
from domain.errors import Code, GameError, InvalidCommand, UnknownName

_SAY = {
    "int_type": "must be an integer",
    "bool_type": "must be true or false",
    "string_type": "must be a string",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "string_too_short": "must be a non-empty string",
    "too_short": "must not be empty",
}


def path_of(loc: Sequence[int | str]) -> str:
    """``players[0].counters`` from pydantic's ``('players', 0, 'counters')``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part != "[key]":
            out += f".{part}" if out else str(part)
    return out


def _refusal(
    error: ErrorDetails, what: str, missing: str, missing_by_field: Mapping[str, str], fields: Sequence[str]
) -> GameError:
    loc = error["loc"]
    path = path_of(loc)
    context: dict[str, Any] = dict(error.get("ctx") or {})
    if API_CODE in context:
        code = str(context[API_CODE])
        message = f"{what}: '{path}' {error['msg']}" if path else f"{what}: {error['msg']}"
        return UnknownName(message, code) if code == "unknown_field" else InvalidCommand(message, code)
    kind = error["type"]
    if kind == "extra_forbidden":
        known = f"; the fields are {', '.join(fields)}" if fields and len(loc) == 1 else ""
        return UnknownName(f"{what}: unknown field '{path}'{known}", Code.UNKNOWN_FIELD)
    if kind == "missing":
        named = str(loc[-1]) if loc else ""
        return InvalidCommand(f"{what}: missing required field '{path}'", missing_by_field.get(named, missing))
    say = _SAY.get(kind)
    if kind == "string_too_long":
        say = f"must be at most {context.get('max_length')} characters"
    detail = say or str(error["msg"]).lower()
    return InvalidCommand(f"{what}: '{path}' {detail}, got {shown(error.get('input'))}", Code.INVALID_FIELD)


def refusal(
    error: ValidationError,
    *,
    what: str,
    missing: str = "missing_field",
    missing_by_field: Mapping[str, str] | None = None,
    fields: Sequence[str] = (),
) -> GameError:
    """The first problem ``error`` reports, as a ``GameError``; ``what`` names the body and
    ``fields`` are the body's own (named when one it doesn't have is given)."""
    return _refusal(error.errors()[0], what, missing, missing_by_field or {}, fields)
