"""Small helpers over the kernel's immutable values: a fast ``replace``, counter arithmetic, and
the "once each turn" memories kept about one object (``GameState.turn_memory`` keys)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

#: Kinds of "once each turn" memories kept about one object: a loyalty ability was activated
#: (CR 606.3), an ability that "triggers only once each turn" triggered, an ability's "do this
#: only once each turn" was done (CR 603.2h).
OBJECT_MEMORY_KINDS = ("loyalty", "once", "done")


def object_memory(kind: str, object_id: str, ability: str | None = None) -> str:
    """The ``turn_memory`` key of a "once each turn" fact about one object (and one ability)."""
    return f"{kind}:{object_id}" if ability is None else f"{kind}:{object_id}:{ability}"


def forget_object(memory: frozenset[str], object_id: str) -> frozenset[str]:
    """``memory`` less every fact about ``object_id``: an object that leaves the battlefield and
    comes back is a new object with no memory of its previous existence (CR 400.7), even when
    the report gives it the same id."""
    mine = tuple(prefix for kind in OBJECT_MEMORY_KINDS for prefix in (f"{kind}:{object_id}",))
    return frozenset(k for k in memory if not any(k == p or k.startswith(p + ":") for p in mine))


Counts = Mapping[str, int]
_T = TypeVar("_T")
_Copier = Callable[[Any, Mapping[str, Any]], Any]
_COPIERS: dict[type, _Copier] = {}


def replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace`` for the kernel's frozen, slotted dataclasses (none has
    ``__post_init__`` or a field left out of ``__init__``): the same new value, without
    ``__init__``'s per-call bookkeeping. The fold (``domain.evolve``) makes one or two per event
    (of ``GameState``'s 20 fields, mostly), so this is most of what a fold costs."""
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    try:
        new: _T = copier(obj, changes)
    except KeyError as missing:
        raise TypeError(f"{cls.__qualname__} has no field {missing.args[0]!r}") from None
    return new


def _copier(cls: type) -> _Copier:
    """A function copying every field of a ``cls`` value, then setting ``changes``: one
    straight-line statement per field, written like ``dataclasses`` writes ``__init__`` (a loop
    over the field names cost twice as much per copy: ``getattr`` by name and the ``in`` test
    for every field). The slots' own setters are used, as frozen dataclasses refuse
    ``setattr``."""
    names = [f.name for f in fields(cls)]
    if not all(name.isidentifier() for name in names):  # pragma: no cover - dataclass fields are
        raise TypeError(f"{cls.__qualname__}: unexpected field names")
    setters = {name: getattr(cls, name).__set__ for name in names}
    lines = [
        "def copy(obj, changes):",
        "    out = new(cls)",
        *(f"    set_{name}(out, obj.{name})" for name in names),
        "    for name, value in changes.items():",
        "        setters[name](out, value)",
        "    return out",
    ]
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "setters": setters}
    scope.update({f"set_{name}": setter for name, setter in setters.items()})
    # The source is built from the class's own field names only (identifiers, checked above).
    exec("\n".join(lines), scope)
    copy: _Copier = scope["copy"]
    return copy


def with_count(counts: Counts, kind: str, delta: int) -> dict[str, int]:
    """A copy of ``counts`` with ``kind`` changed by ``delta``; kinds at zero are dropped."""
    out = dict(counts)
    value = out.get(kind, 0) + delta
    if value > 0:
        out[kind] = value
    else:
        out.pop(kind, None)
    return out
