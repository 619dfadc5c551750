"""The stack and priority: putting triggers on it (CR 603.3), ordering them (APNAP, 603.3b;
shared team turns, 805.7), resolving the top object (CR 608), and the checks made each time a
player would receive priority (SBAs first, 704.3; then triggers, 117.5)."""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.commands import Choices
from domain.errors import Code, IllegalAction, NotFound
from domain.rules.dungeons import next_rooms
from domain.rules.effects import before_choices, extra_needs, run_effect
from domain.rules.radiation import radiation_mills, radiation_needs_cards
from domain.rules.sba import check_game_over, check_state_based_actions
from domain.state import GameState, StackObject


def needs_of(state: GameState, obj: StackObject) -> list[str]:
    """The choices ``resolve`` must carry for this object, as of now."""
    needs = list(obj.params.get("needs", ()))
    needs.extend(n for n in extra_needs(state, obj) if n not in needs)
    if obj.effect == "radiation" and radiation_needs_cards(state, obj.params["player"]):
        needs.append("cards")
    return needs


def card_count(state: GameState, obj: StackObject) -> int | None:
    """How many cards ``choices.cards`` must name for this object, where the server knows it: the
    rad trigger mills as many as the player has rad counters, at most the library (CR 728.1)."""
    if obj.effect == "radiation" and radiation_needs_cards(state, obj.params["player"]):
        return radiation_mills(state, obj.params["player"])
    return None


def alternatives_of(state: GameState, obj: StackObject) -> dict[str, list[str]]:
    """Choices that may stand in for a need: the rad trigger's milled cards, left unnamed, are
    counted by ``nonland_count`` (CR 728.1 reads only how many were nonland)."""
    if card_count(state, obj) is not None:
        return {"cards": ["nonland_count"]}
    return {}


def _missing(state: GameState, obj: StackObject, need: str, choices: Choices) -> str | None:
    """How to give ``need`` when ``choices`` lacks it (and every choice standing in for it), else ``None``."""
    alternatives = alternatives_of(state, obj).get(need, [])
    if getattr(choices, need, None) is not None or any(getattr(choices, a, None) is not None for a in alternatives):
        return None
    if need == "room":  # a venture names the rooms the arrows lead to (701.49b)
        return f"{need!r}: one of {list(next_rooms(state, obj.params['player']))}"
    n = card_count(state, obj)
    if need == "cards" and n is not None:
        return f"'cards' (the {n} milled cards, top first) or 'nonland_count' (how many of the {n} were nonland)"
    return repr(need)


def _put_on_stack(b: Builder, obj: StackObject) -> None:
    b.emit(ev.TriggerPutOnStack(object=obj.to_json(), seq=obj.params.get("seq")), "CR 603.3")


def put_waiting_triggers(b: Builder) -> None:
    """Put the triggered abilities that are waiting on the stack, APNAP (603.3b).

    A side with one trigger puts it at once; a side with several is asked for their order
    (``TriggersPending``), and the sides after it wait their turn.
    """
    fired, b.fired = b.fired, []
    state = b.state
    live = [t for t in fired if t.controller in state.players and not state.players[t.controller].lost]
    asked = False
    for side in state.apnap_sides():
        group = tuple(t for t in live if state.side_of(t.controller) == side)
        if not group:
            continue
        if (len(group) == 1 or _interchangeable(group)) and not asked:
            for trigger in group:  # identical triggers: every order gives the same result
                _put_on_stack(b, trigger)
            continue
        asked = True
        b.emit(
            ev.TriggersPending(
                controller=side,
                triggers=[t.to_json() for t in group],
                seq=max(int(t.params.get("seq", 0)) for t in group),
            ),
            "CR 603.3b",
        )


def _interchangeable(group: tuple[StackObject, ...]) -> bool:
    """Triggers that differ only in their ids (Glowing One once per nonland card milled)."""

    def shape(t: StackObject) -> tuple[object, ...]:
        params = {k: v for k, v in t.params.items() if k != "seq"}
        return (t.controller, t.source, t.description, t.effect, repr(sorted(params.items())))

    return len({shape(t) for t in group}) == 1


def settle(b: Builder) -> None:
    """What happens each time a player would receive priority (117.5): SBAs until none apply,
    then waiting triggers go on the stack; repeated until nothing changes."""
    while True:
        if check_state_based_actions(b):
            continue
        check_game_over(b)
        if b.state.status == "finished":
            b.fired = []
            return
        if b.fired:
            put_waiting_triggers(b)
            continue
        return


def order_triggers(b: Builder, resolve_first: tuple[str, ...]) -> None:
    """The asked side gives the order of its triggers, first to resolve first (603.3b)."""
    if not b.state.pending:
        raise IllegalAction("no triggers are waiting to be ordered", Code.NOTHING_TO_ORDER)
    group = b.state.pending[0]
    ids = [t.id for t in group.triggers]
    if sorted(resolve_first) != sorted(ids):
        raise IllegalAction(
            f"order_triggers: 'resolve_first' must list each of {ids} once, got {list(resolve_first)}",
            Code.ILLEGAL_CHOICE,
        )
    by_id = {t.id: t for t in group.triggers}
    # The first to resolve goes on the stack last (it ends up on top).
    for trigger_id in reversed(resolve_first):
        _put_on_stack(b, by_id[trigger_id])
    # Later sides: a single trigger (or identical ones) goes on at once; several wait for an order.
    while b.state.pending and (len(b.state.pending[0].triggers) == 1 or _interchangeable(b.state.pending[0].triggers)):
        for trigger in b.state.pending[0].triggers:
            _put_on_stack(b, trigger)
    settle(b)


def resolve_top(b: Builder, choices: Choices) -> None:
    """All players passed in succession: the top object resolves (CR 608)."""
    if not b.state.stack:
        raise IllegalAction("the stack is empty: nothing to resolve", Code.STACK_EMPTY)
    obj = b.state.stack[-1]
    outcome = before_choices(b.state, obj)
    if outcome is None:
        for need in needs_of(b.state, obj):
            missing = _missing(b.state, obj, need, choices)
            if missing is not None:
                raise IllegalAction(
                    f"resolving {obj.id} ({obj.description}) needs the choice {missing}", Code.CHOICE_REQUIRED
                )
        outcome = run_effect(b, obj, choices)
    to = None
    if obj.kind == "spell" and obj.card is not None and (outcome.countered or not obj.card.is_permanent_card):
        to = "graveyard"  # 608.2n (and 608.2b): the card goes to its owner's graveyard
    if outcome.countered:
        removed = ev.StackObjectCountered(
            id=obj.id, description=obj.description, to=to, note=outcome.note, reason="every target is illegal"
        )
        b.emit(removed, "CR 608.2b")
    else:
        resolved = ev.StackObjectResolved(
            id=obj.id, description=obj.description, to=to, note=outcome.note, remember=outcome.remember
        )
        b.emit(resolved, "CR 608.2")
    settle(b)


def counter(b: Builder, object_id: str, source: str) -> None:
    """A spell or ability is countered (CR 701.6a): it leaves the stack without resolving; a
    countered spell goes to its owner's graveyard. Reported by hand (e.g. Counterspell, or a
    Stifle on a triggered ability)."""
    obj = find_stack_object(b.state, object_id)
    countered = ev.StackObjectCountered(
        id=obj.id,
        description=obj.description,
        reason=f"countered by {source}",
        to="graveyard" if obj.kind == "spell" and obj.card is not None else None,
    )
    b.emit(countered, "CR 701.6a")
    settle(b)


def find_stack_object(state: GameState, object_id: str) -> StackObject:
    for obj in state.stack:
        if obj.id == object_id:
            return obj
    raise NotFound(f"no stack object {object_id!r}", Code.UNKNOWN_STACK_OBJECT)
