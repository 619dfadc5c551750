"""Resolution routines of stack objects, registered by key (``StackObject.effect``).

A routine emits the events of the object's effect (CR 608.2) and returns either nothing, a short
note for the ``StackObjectResolved`` event (for example that an intervening-if failed), or a
``Resolution`` that also records a "do this only once each turn" use (``remember``, folded into
``GameState.turn_memory``). Card modules register their own routines here, and may register a
``needs`` hook: the choices ``resolve`` must carry that depend on the state at resolution
(Vexing Radgull proliferates only if the player already has rad counters).

Whether an object does anything at all is decided before its choices are asked for
(``before_choices``): a routine registered with the kind of its ``targets`` is removed from the
stack without resolving when every target it named is illegal (CR 608.2b), and one registered
with an ``intervening_if`` does nothing when that condition is false on resolution (CR 603.4).
Neither then needs a choice: asking for a "may" or a proliferate that can't happen is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain import events as ev
from domain.builder import Builder
from domain.cards import targets as tg
from domain.commands import Choices
from domain.rules.designations import resolve_become_monarch, resolve_monarch_draw, resolve_take_initiative
from domain.rules.dungeons import venture, venture_needs
from domain.rules.proliferate import proliferate
from domain.rules.radiation import resolve_radiation
from domain.rules.zones import enter_battlefield, enters_with_counters, slug
from domain.state import GameState, Permanent, StackObject


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a routine reports besides its events."""

    note: str | None = None
    remember: str | None = None
    """A ``turn_memory`` key to record with the resolution ("do this only once each turn")."""
    countered: bool = False
    """Every target is illegal now: it doesn't resolve and is removed from the stack (608.2b)."""


def illegal_targets() -> Resolution:
    """The result of a routine whose every target became illegal (CR 608.2b)."""
    return Resolution(note="doesn't resolve: every target is illegal (CR 608.2b)", countered=True)


Effect = Callable[["Builder", "StackObject", "Choices"], "str | Resolution | None"]
NeedsHook = Callable[["GameState", "StackObject"], list[str]]
#: An intervening "if" read on resolution: ``None`` when it holds, else why it doesn't (a note).
Condition = Callable[["GameState", "StackObject"], "str | None"]

_EFFECTS: dict[str, Effect] = {}
_NEEDS: dict[str, NeedsHook] = {}
_TARGETS: dict[str, tg.Kind] = {}
_CONDITIONS: dict[str, Condition] = {}


def effect(
    key: str, *, targets: tg.Kind | None = None, intervening_if: Condition | None = None
) -> Callable[[Effect], Effect]:
    """Register a resolution routine under ``key``; ``targets``: the kind its named targets must
    still be on resolution (608.2b); ``intervening_if``: its condition (603.4)."""

    def register(fn: Effect) -> Effect:
        if key in _EFFECTS:
            raise ValueError(f"effect {key!r} registered twice")
        _EFFECTS[key] = fn
        if targets is not None:
            _TARGETS[key] = targets
        if intervening_if is not None:
            _CONDITIONS[key] = intervening_if
        return fn

    return register


def before_choices(state: GameState, obj: StackObject) -> Resolution | None:
    """What resolving ``obj`` comes to when the rules say it does nothing, before any choice is
    asked for; ``None`` when it resolves normally."""
    kind = _TARGETS.get(obj.effect)
    named = obj.params.get("targets")
    if kind is not None and named and not tg.still_legal(state, obj.controller, named, kind):
        return illegal_targets()  # 608.2b: it doesn't resolve
    condition = _CONDITIONS.get(obj.effect)
    failed = condition(state, obj) if condition is not None else None
    return Resolution(note=f"does nothing: {failed} (CR 603.4)") if failed else None


def needs(key: str) -> Callable[[NeedsHook], NeedsHook]:
    """Register the state-dependent choices the routine ``key`` needs on resolution."""

    def register(fn: NeedsHook) -> NeedsHook:
        _NEEDS[key] = fn
        return fn

    return register


def effect_for(key: str) -> Effect:
    return _EFFECTS[key]


def extra_needs(state: GameState, obj: StackObject) -> list[str]:
    """Choices the object needs now beyond its static ``needs`` (see ``needs``)."""
    hook = _NEEDS.get(obj.effect)
    return hook(state, obj) if hook is not None else []


def run_effect(b: Builder, obj: StackObject, choices: Choices) -> Resolution:
    """Run the object's routine; what it reports goes into its ``StackObjectResolved`` event."""
    result = effect_for(obj.effect)(b, obj, choices)
    if isinstance(result, Resolution):
        return Resolution(note=result.note or None, remember=result.remember or None, countered=result.countered)
    return Resolution(note=result or None)


@effect("described")
def _described(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    """An object the server doesn't automate: it resolves; the operator reports its effects."""
    return "effects reported by hand"


@effect("radiation")
def _radiation(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    return resolve_radiation(b, obj, choices)


@effect("proliferate")
def _proliferate(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    proliferate(b, obj.controller, choices.proliferate or (), "proliferate")
    return None


@effect("permanent_spell")
def _permanent_spell(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    """A permanent spell becomes a permanent under its controller (CR 608.3). An Aura spell
    enters attached to its target (608.3c); if that target is illegal now, the spell doesn't
    resolve and goes to its owner's graveyard (608.3b)."""
    assert obj.card is not None
    attached_to: str | None = None
    if "Aura" in obj.card.subtypes:
        targets = obj.params.get("targets") or []
        wanted = targets[0].get("permanent") if targets and isinstance(targets[0], dict) else None
        if wanted is None or wanted not in b.state.battlefield:
            b.emit(
                ev.CardsMoved(
                    player=obj.controller,
                    cards=[obj.card.to_json()],
                    from_zone="stack",
                    to="graveyard",
                    cause="CR 608.3b",
                ),
                "CR 608.3b",
            )
            return f"doesn't resolve: the Aura's target {wanted!r} is gone (CR 608.3b)"
        attached_to = wanted
    x = int(obj.params.get("x", 0))
    seq = b.next_seq()
    perm = Permanent(
        id=f"{slug(obj.card.name)}-{seq}",
        card=obj.card,
        owner=obj.controller,
        controller=obj.controller,
        counters=enters_with_counters(b, obj.card, obj.controller, {}, x),
        controlled_since_turn_began=False,
        attached_to=attached_to,
    )
    enter_battlefield(b, perm, origin="stack", seq=seq, rule="CR 608.3")
    return None


# -- the designations' inherent triggers (CR 725.2, 726.2) and venturing (CR 701.49) -------------
effect("monarch_draw")(resolve_monarch_draw)
effect("become_monarch")(resolve_become_monarch)
effect("take_initiative")(resolve_take_initiative)
effect("venture_undercity")(venture)
needs("venture_undercity")(venture_needs)
