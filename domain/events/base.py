"""The typed event vocabulary's machinery: one frozen dataclass per event type, one registry.

Each event type is a ``DomainEvent`` subclass decorated with ``@event_type("Name")``. Its fields
are the JSON fields of the stored ``data``, each documented with ``doc(...)`` (required) or
``optional(...)`` (left out of the JSON while it holds its default, so the stored shape of an
event never grows keys it did not have). ``to_json``/``from_json`` convert to and from that
shape; ``from_json`` refuses unknown and missing fields, so a record the live server could never
have written is named, not guessed at.

The envelope ``Event`` pairs a payload with the rule that made it happen (``CR 728.1``): the
rule is not part of the payload because several payloads carry a ``rule`` field of their own
(``PlayerLost.rule`` is the loss condition). Everything that reacts to an event (the fold, the
import audit, the timeline sentence, the redaction by role, the OpenAPI schema, the catalogue
in docs/events.md) is looked up by the payload's class in an ``EventHandlers`` table, whose
``missing()`` a test checks for every registered type.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

_DOC = "doc"
_JSON = "json"
_OMIT = "omit_default"


def doc(text: str, *, json: str | None = None) -> Any:
    """A required field documented by ``text``; ``json`` names its JSON key where the Python name
    can't be the same (``from`` is a keyword)."""
    return dataclasses.field(metadata={_DOC: text, _JSON: json})


def optional(text: str, default: Any = None, *, json: str | None = None) -> Any:
    """A field left out of the stored JSON while it holds ``default`` (older events and most
    emitters never wrote it)."""
    return dataclasses.field(default=default, metadata={_DOC: text, _JSON: json, _OMIT: True})


class EventFormatError(ValueError):
    """A stored event's ``type`` or ``data`` does not match the vocabulary."""


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One JSON field of an event type, as the docs and the schema describe it."""

    name: str
    """The JSON key."""
    attribute: str
    """The Python attribute."""
    doc: str
    annotation: str
    """The field's type as written in the class (``str``, ``int | None``, ``list[Json]``)."""
    required: bool
    """Present in every stored event of the type."""
    default: Any


@dataclass(frozen=True, slots=True, kw_only=True)
class DomainEvent:
    """Base of every event payload: a past-tense fact recording a resolved outcome."""

    TYPE: ClassVar[str]
    """The stored type name (``"LifeLost"``); never renamed once stored (hashes cover it)."""
    FIELDS: ClassVar[tuple[FieldSpec, ...]]

    def to_json(self) -> dict[str, Any]:
        """The stored ``data`` mapping."""
        out: dict[str, Any] = {}
        for spec in self.FIELDS:
            value = getattr(self, spec.attribute)
            if spec.required or value != spec.default:
                out[spec.name] = value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DomainEvent:
        """The payload of a stored ``data`` mapping; ``EventFormatError`` naming an unknown or
        missing field."""
        if not isinstance(data, Mapping):
            raise EventFormatError(f"{cls.TYPE}: data must be an object, got {type(data).__name__}")
        attributes = _ATTRIBUTES[cls]
        try:
            kwargs = {attributes[key]: value for key, value in data.items()}
        except KeyError as err:
            raise EventFormatError(f"{cls.TYPE}: unknown field {err.args[0]!r}") from None
        try:
            return cls(**kwargs)
        except TypeError:
            missing = [s.name for s in cls.FIELDS if s.required and s.name not in data]
            raise EventFormatError(f"{cls.TYPE}: missing field(s) {missing}") from None


E = TypeVar("E", bound=DomainEvent)
_REGISTRY: dict[str, type[DomainEvent]] = {}
_ATTRIBUTES: dict[type[DomainEvent], dict[str, str]] = {}


def event_type(name: str) -> Callable[[type[E]], type[E]]:
    """Register an event class under its stored type name (once)."""

    def register(cls: type[E]) -> type[E]:
        if name in _REGISTRY:
            raise ValueError(f"event type {name!r} registered twice")
        _REGISTRY[name] = describe_fields(cls, name)
        return cls

    return register


def describe_fields(cls: type[E], name: str) -> type[E]:
    """Give an event class its ``TYPE`` and ``FIELDS`` from its documented fields, so that
    ``to_json``/``from_json`` work for it. The game registry (``event_type``) and the
    tournament's (``domain.tournament.events``) both describe their classes with it."""
    cls.TYPE = name
    specs = []
    for f in dataclasses.fields(cls):
        if f.metadata.get(_DOC) is None:
            raise TypeError(f"{name}.{f.name} has no doc(...)")
        specs.append(
            FieldSpec(
                name=f.metadata.get(_JSON) or f.name,
                attribute=f.name,
                doc=f.metadata[_DOC],
                annotation=str(f.type),
                required=not f.metadata.get(_OMIT, False),
                default=None if f.default is dataclasses.MISSING else f.default,
            )
        )
    cls.FIELDS = tuple(specs)
    _ATTRIBUTES[cls] = {s.name: s.attribute for s in specs}
    return cls


def event_classes() -> tuple[type[DomainEvent], ...]:
    """Every registered event type, in registration (catalogue) order."""
    return tuple(_REGISTRY.values())


def event_class(name: str) -> type[DomainEvent]:
    """The class stored under ``name``; ``EventFormatError`` for an unknown type."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise EventFormatError(f"unknown event type {name!r}") from None


def find_event_class(name: object) -> type[DomainEvent] | None:
    """The class stored under ``name``, or ``None`` for a name the vocabulary doesn't have (a
    damaged record's): for readers that pass over what they can't read rather than fail."""
    return _REGISTRY.get(name) if isinstance(name, str) else None


@dataclass(frozen=True, slots=True)
class Event:
    """One domain fact: a typed payload and the rule that made it happen."""

    payload: DomainEvent
    rule: str | None = None
    """The rule that made it happen, e.g. ``CR 704.5a``; ``None`` for reported facts."""

    @property
    def type(self) -> str:
        return self.payload.TYPE

    @property
    def data(self) -> dict[str, Any]:
        """The payload's JSON ``data`` (computed: readers in the domain use ``payload``)."""
        return self.payload.to_json()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "data": self.payload.to_json()}
        if self.rule is not None:
            out["rule"] = self.rule
        return out

    @staticmethod
    def parse(type_: str, data: Mapping[str, Any], rule: str | None = None) -> Event:
        """The event of a stored ``(type, data, rule)``; ``EventFormatError`` if it doesn't fit."""
        return Event(event_class(type_).from_json(data), rule)

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Event:
        return Event.parse(raw["type"], raw.get("data") or {}, raw.get("rule"))


H = TypeVar("H")


class EventHandlers(Generic[H]):
    """A table of one handler per event class (``@table.on(LifeLost)``), for one concern.

    The concern's name appears in ``missing()``'s report, which the registry test checks, so a
    new event type without a fold, an audit check, a sentence, a redaction rule or a schema
    fails a test instead of drifting."""

    def __init__(self, concern: str) -> None:
        self.concern = concern
        self._by_class: dict[type[DomainEvent], H] = {}

    def on(self, *classes: type[DomainEvent]) -> Callable[[H], H]:
        def register(handler: H) -> H:
            for cls in classes:
                self.put(cls, handler)
            return handler

        return register

    def put(self, cls: type[DomainEvent], handler: H) -> None:
        if cls in self._by_class:
            raise ValueError(f"{self.concern}: {cls.TYPE} has two handlers")
        self._by_class[cls] = handler

    def __getitem__(self, cls: type[DomainEvent]) -> H:
        return self._by_class[cls]

    def get(self, cls: type[DomainEvent]) -> H | None:
        """The handler of ``cls``, or ``None`` when it has none."""
        return self._by_class.get(cls)

    def missing(self) -> list[str]:
        """Registered event types that have no handler here."""
        return [cls.TYPE for cls in event_classes() if cls not in self._by_class]

    def __iter__(self) -> Iterator[type[DomainEvent]]:
        return iter(self._by_class)
