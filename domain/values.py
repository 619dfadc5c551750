"""Small helpers over the kernel's immutable values: a fast ``replace``, counter arithmetic, and
the "once each turn" memories kept about one object (``GameState.turn_memory`` keys)."""

from __future__ import annotations

from collections.abc import Mapping
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
_FIELD_NAMES: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace`` for the kernel's frozen dataclasses (none has ``__post_init__``
    or a field left out of ``__init__``): the same new value, built field by field without
    ``__init__``'s per-call bookkeeping. The fold (``domain.evolve``) makes two or three per
    event, and this makes ``domain.fold`` about 40% faster (docs/performance.md)."""
    cls = type(obj)
    known = _FIELD_NAMES.get(cls)
    if known is None:
        names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
        known = _FIELD_NAMES[cls] = (names, frozenset(names))
    names, allowed = known
    if not allowed.issuperset(changes):
        raise TypeError(f"{cls.__qualname__} has no field(s) {sorted(set(changes) - allowed)}")
    new = object.__new__(cls)
    for name in names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


def with_count(counts: Counts, kind: str, delta: int) -> dict[str, int]:
    """A copy of ``counts`` with ``kind`` changed by ``delta``; kinds at zero are dropped."""
    out = dict(counts)
    value = out.get(kind, 0) + delta
    if value > 0:
        out[kind] = value
    else:
        out.pop(kind, None)
    return out
