"""The JSON Schema of each event type's ``data``, generated from its class (the OpenAPI
components ``<Type>Data`` and the field reference in docs/events.md come from here)."""

from __future__ import annotations

from typing import Any

from domain.events.base import DomainEvent, FieldSpec

#: JSON Schema of each annotation the event classes use; a new one fails ``data_schema`` loudly.
_TYPES: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "Json": {"type": "object"},
    "list[Json]": {"type": "array", "items": {"type": "object"}},
    "list[str]": {"type": "array", "items": {"type": "string"}},
    "list[int]": {"type": "array", "items": {"type": "integer"}},
    "dict[str, int]": {"type": "object", "additionalProperties": {"type": "integer"}},
}


def field_schema(spec: FieldSpec) -> dict[str, Any]:
    """The schema of one field, with its doc as the description."""
    annotation = spec.annotation
    nullable = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    if base not in _TYPES:
        raise TypeError(f"no JSON Schema for the annotation {annotation!r} of field {spec.name!r}")
    schema = dict(_TYPES[base])
    if nullable:
        schema = {"anyOf": [schema, {"type": "null"}]}
    return {**schema, "description": spec.doc}


def data_schema(cls: type[DomainEvent]) -> dict[str, Any]:
    """The schema of ``cls``'s stored ``data``: its fields, which are required, no others."""
    return {
        "title": f"{cls.TYPE}Data",
        "description": (cls.__doc__ or "").strip(),
        "type": "object",
        "properties": {spec.name: field_schema(spec) for spec in cls.FIELDS},
        "required": [spec.name for spec in cls.FIELDS if spec.required],
        "additionalProperties": False,
    }
