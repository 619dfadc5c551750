"""Audit checks of the turn structure and the stack (CR 500, 601, 602, 603, 608)."""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.audit.common import (
    CHECKS,
    is_one_of,
    list_of,
    no_permanent,
    not_in_game,
    on_stack,
    priority_free,
    stack_object_of,
    waiting_group,
)
from domain.rules.turns import next_turn_owner
from domain.state import STEPS, GameState


@CHECKS.on(ev.TurnBegan)
def _turn_began(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    busy = priority_free(state, "a new turn began")
    if busy:
        return busy
    if state.turn.step != "cleanup":
        return f"a new turn began from the {state.turn.step} step: a turn ends after its cleanup step (CR 500.1)"
    if data.get("number") != state.turn.number + 1:
        return f"turn {data.get('number')!r} follows turn {state.turn.number} (CR 500.1)"
    player, team = next_turn_owner(state)
    if (data.get("active_player"), data.get("active_team")) != (player, team):
        return (
            f"the next turn is {player}'s{f' (team {team!r})' if team else ''}, "
            f"not {data.get('active_player')}'s: the turn passes to the next player in turn order "
            "still in the game (CR 800.4a; a team's turn, CR 805.4)"
        )
    return None


@CHECKS.on(ev.StepBegan)
def _step_began(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    busy = priority_free(state, f"the {data.get('step')!r} step began")
    if busy:
        return busy
    if data.get("turn") != state.turn.number:
        return f"a step of turn {data.get('turn')!r} began in turn {state.turn.number}"
    if state.in_opening and any(p.mulligans and not p.hand_kept for p in state.in_game()):
        return "the first turn went on while a player who took a mulligan had not kept a hand (CR 103.5)"
    current = state.turn.step
    following = STEPS[STEPS.index(current) + 1] if current != STEPS[-1] else None
    if data.get("step") == following or (data.get("step") == "untap" and current == "untap"):
        return None
    return f"the {data.get('step')!r} step can't follow the {current} step: steps go in order (CR 500.1)"


# -- the stack --------------------------------------------------------------------------------
@CHECKS.on(ev.TriggersPending)
def _triggers_pending(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    side = data.get("controller")
    if not is_one_of(side, state.players) and not is_one_of(side, state.teams):
        return f"{side!r} is neither a player nor a team of this game"
    triggers = [stack_object_of(t) for t in list_of(data["triggers"], "'triggers'")]
    if not triggers:
        return "no triggers to order (CR 603.3b)"
    for trigger in triggers:
        if on_stack(state, trigger.id) is not None or waiting_group(state, trigger.id) is not None:
            return f"trigger {trigger.id!r} is already on the stack or waiting"
    return None


@CHECKS.on(ev.TriggerPutOnStack)
def _trigger_put_on_stack(state: GameState, event: ev.Event) -> str | None:
    obj = stack_object_of(event.data["object"])
    if obj.kind != "trigger":
        return f"{obj.id!r} is a {obj.kind}, not a triggered ability"
    if on_stack(state, obj.id) is not None:
        return f"{obj.id!r} is already on the stack"
    gone = not_in_game(state, obj.controller)
    if gone:
        return f"the trigger's controller: {gone}; their abilities aren't put on the stack (CR 800.4d)"
    group = waiting_group(state, obj.id)
    if group is None:
        return None  # a trigger put on the stack as it triggered (CR 603.3)
    if group != 0:
        asked = state.pending[0].controller
        return f"{obj.id!r} waits behind {asked}'s triggers, which are ordered first (CR 603.3b)"
    waiting = next(t for t in state.pending[0].triggers if t.id == obj.id)
    if waiting != obj:
        return f"{obj.id!r} is not the trigger that was waiting: it must go on the stack as it triggered (CR 603.3b)"
    return None


@CHECKS.on(ev.SpellCast)
def _spell_cast(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    gone = not_in_game(state, player_id)
    if gone:
        return gone
    obj = stack_object_of(data["object"])
    if obj.kind != "spell" or obj.card is None or obj.controller != player_id:
        return f"the object {obj.id!r} must be a spell with its card, controlled by {player_id!r} (CR 601.2)"
    if on_stack(state, obj.id) is not None:
        return f"{obj.id!r} is already on the stack"
    player = state.players[player_id]
    name, zone = obj.card.name, data.get("from", "hand")
    if zone == "hand" and name not in {c.name for c in player.hand} and player.hand_unknown == 0:
        return f"{name!r} is not in {player_id}'s hand (CR 601.2a)"
    if zone in ("graveyard", "exile"):
        cards = player.graveyard if zone == "graveyard" else player.exile
        if name not in {c.name for c in cards}:
            return f"{name!r} is not in {player_id}'s {zone} (CR 601.2a)"
    if zone == "library" and (player.library_size == 0 or (player.library and player.library[0].name != name)):
        return f"{name!r} is not the top card of {player_id}'s library (CR 601.2a)"
    if zone == "command":
        if name not in {c.name for c in player.command}:
            return f"{name!r} is not in {player_id}'s command zone (CR 903.8)"
        if data.get("commander_tax") != player.commander_tax(name):
            return (
                f"commander_tax is {data.get('commander_tax')!r}, but {name!r} was cast from the command zone "
                f"{player.commander_casts.get(name, 0)} time(s) before: {player.commander_tax(name)} (CR 903.8)"
            )
    elif data.get("commander_tax") is not None:
        return f"a spell cast from the {zone} pays no commander tax (CR 903.8)"
    return None


@CHECKS.on(ev.AbilityActivated)
def _ability_activated(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    gone = not_in_game(state, data.get("player")) or no_permanent(state, data.get("permanent"))
    if gone:
        return f"{gone} (CR 602.2)"
    raw = data.get("object")
    if raw is None:
        return None  # a mana ability doesn't use the stack (CR 605.3b)
    obj = stack_object_of(raw)
    if obj.kind != "ability" or on_stack(state, obj.id) is not None:
        return f"the object {obj.id!r} must be a new activated ability (CR 602.2)"
    return None


@CHECKS.on(ev.StackObjectResolved)
def _resolved(state: GameState, event: ev.Event) -> str | None:
    object_id = event.data.get("id")
    if not state.stack:
        return f"{object_id!r} resolved from an empty stack (CR 608.1)"
    top = state.stack[-1]
    if top.id != object_id:
        return f"{object_id!r} resolved, but the object on top of the stack is {top.id!r} (CR 608.1)"
    return None


@CHECKS.on(ev.StackObjectCountered)
def _countered(state: GameState, event: ev.Event) -> str | None:
    object_id = event.data.get("id")
    if on_stack(state, object_id) is None:
        return f"there is no object {object_id!r} on the stack to counter or remove (CR 701.6a)"
    return None
