"""Resolution routines of stack objects, registered by key (``StackObject.effect``).

A routine emits the events of the object's effect (CR 608.2) and may return a short note for
the ``StackObjectResolved`` event (for example that an intervening-if failed). Card modules
register their own routines here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domain.builder import Builder
    from domain.commands import Choices
    from domain.state import StackObject

Effect = Callable[["Builder", "StackObject", "Choices"], "str | None"]

_EFFECTS: dict[str, Effect] = {}


def effect(key: str) -> Callable[[Effect], Effect]:
    """Register a resolution routine under ``key``."""

    def register(fn: Effect) -> Effect:
        if key in _EFFECTS:
            raise ValueError(f"effect {key!r} registered twice")
        _EFFECTS[key] = fn
        return fn

    return register


def effect_for(key: str) -> Effect:
    from domain.cards import library  # noqa: F401  (card modules register their effects)

    return _EFFECTS[key]


@effect("described")
def _described(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    """An object the server doesn't automate: it resolves; the operator reports its effects."""
    return "effects reported by hand"


@effect("radiation")
def _radiation(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    from domain.rules.radiation import resolve_radiation

    return resolve_radiation(b, obj, choices)


@effect("proliferate")
def _proliferate(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    from domain.rules.proliferate import proliferate

    proliferate(b, obj.controller, choices.proliferate or (), "proliferate")
    return None


@effect("permanent_spell")
def _permanent_spell(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    """A permanent spell becomes a permanent under its controller (CR 608.3)."""
    from domain.rules.zones import enter_battlefield, enters_with_counters, slug
    from domain.state import Permanent

    assert obj.card is not None
    x = int(obj.params.get("x", 0))
    seq = b.next_seq()
    perm = Permanent(
        id=f"{slug(obj.card.name)}-{seq}",
        card=obj.card,
        owner=obj.controller,
        controller=obj.controller,
        counters=enters_with_counters(b, obj.card, obj.controller, {}, x),
        controlled_since_turn_began=False,
    )
    enter_battlefield(b, perm, origin="stack", seq=seq, rule="CR 608.3")
    return None
