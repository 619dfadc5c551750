"""Folds of the stack: triggers waiting, spells and abilities put on it and leaving it."""

from __future__ import annotations

from domain import events as ev
from domain.fold.shared import remember, seq_after, set_player, without_one
from domain.fold.table import FOLDS
from domain.state import GameState, PendingGroup, StackObject, replace


@FOLDS.on(ev.TriggersPending)
def _triggers_pending(state: GameState, e: ev.TriggersPending) -> GameState:
    group = PendingGroup(controller=e.controller, triggers=tuple(StackObject.from_json(t) for t in e.triggers))
    for trigger in group.triggers:
        state = remember(state, trigger.params.get("once_per_turn"))
    return replace(state, pending=(*state.pending, group), next_seq=seq_after(state, e.seq))


@FOLDS.on(ev.TriggerPutOnStack)
def _trigger_put_on_stack(state: GameState, e: ev.TriggerPutOnStack) -> GameState:
    obj = StackObject.from_json(e.object)
    pending = []
    for group in state.pending:
        rest = tuple(t for t in group.triggers if t.id != obj.id)
        if rest:
            pending.append(replace(group, triggers=rest))
    state = remember(state, obj.params.get("once_per_turn"))
    return replace(state, stack=(*state.stack, obj), pending=tuple(pending), next_seq=seq_after(state, e.seq))


@FOLDS.on(ev.StackObjectResolved, ev.StackObjectCountered)
def _stack_object_left(state: GameState, e: ev.StackObjectResolved | ev.StackObjectCountered) -> GameState:
    obj = next(o for o in state.stack if o.id == e.id)
    if isinstance(e, ev.StackObjectResolved):
        state = remember(state, e.remember)
    state = replace(state, stack=tuple(o for o in state.stack if o.id != obj.id))
    if e.to == "graveyard" and obj.card is not None:
        owner = state.players[obj.controller]
        state = set_player(state, replace(owner, graveyard=(*owner.graveyard, obj.card)))
    return state


@FOLDS.on(ev.SpellCast)
def _spell_cast(state: GameState, e: ev.SpellCast) -> GameState:
    obj = StackObject.from_json(e.object)
    player = state.players[e.player]
    if e.from_zone == "hand":
        hand = list(player.hand)
        names = [c.name for c in hand]
        if obj.card is not None and obj.card.name in names:
            del hand[names.index(obj.card.name)]
            player = replace(player, hand=tuple(hand))
        elif player.hand_unknown > 0:
            player = replace(player, hand_unknown=player.hand_unknown - 1)
    elif obj.card is not None and e.from_zone == "graveyard":
        # 601.2a: the card moves from that zone to the stack.
        player = replace(player, graveyard=without_one(player.graveyard, obj.card.name))
    elif obj.card is not None and e.from_zone == "exile":
        player = replace(player, exile=without_one(player.exile, obj.card.name))
    elif obj.card is not None and e.from_zone == "command":
        # 903.8: each cast from the command zone adds {2} to the next one's cost.
        name = obj.card.name
        casts = {**player.commander_casts, name: player.commander_casts.get(name, 0) + 1}
        player = replace(player, command=without_one(player.command, name), commander_casts=casts)
    elif e.from_zone == "library":
        if player.library:
            player = replace(player, library=player.library[1:])
        elif player.library_unknown > 0:
            player = replace(player, library_unknown=player.library_unknown - 1)
    player = replace(player, spells_cast=player.spells_cast + 1)  # read by 731.2
    state = set_player(state, player)
    return replace(state, stack=(*state.stack, obj), next_seq=seq_after(state, e.seq))


@FOLDS.on(ev.AbilityActivated)
def _ability_activated(state: GameState, e: ev.AbilityActivated) -> GameState:
    state = remember(state, e.remember)
    if e.object is None:
        return state
    obj = StackObject.from_json(e.object)
    return replace(state, stack=(*state.stack, obj), next_seq=seq_after(state, e.seq))
