"""Designations (all variants): the monarch (CR 725), the initiative (CR 726), day and night
(CR 731) and the city's blessing (CR 702.131).

- ``designate`` reports that a player becomes the monarch, takes the initiative or gets the
  city's blessing, or that it becomes day or night (an effect the server doesn't automate).
- The monarch's and the initiative's inherent triggered abilities have no source and are
  controlled by the player who had the designation when they triggered (725.2, 726.2): the
  monarch draws at the beginning of their end step; combat damage a creature deals to the
  monarch makes its controller the monarch; the holder of the initiative ventures into Undercity
  at the beginning of their upkeep and whenever a player takes the initiative; combat damage by
  creatures to the holder gives it to their controller.
- Day and night change as the second part of the untap step, by the number of spells the
  previous turn's active player cast (731.2, 502.2).
- When the monarch or the holder of the initiative leaves the game, the active player gets it at
  once, or the next player in turn order if the active player is the one leaving (725.4, 726.4).
"""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder, TriggerContext
from domain.cards.behaviour import TriggerSpec
from domain.commands import Choices, Designate
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.dungeons import venture_trigger
from domain.rules.zones import draw
from domain.state import GameState, StackObject

#: Who holds each player designation in ``GameState`` (one at a time, CR 725.3, 726.3).
HELD = {"monarch": "monarch", "initiative": "initiative"}


def _changed(
    b: Builder, designation: str, cause: str, rule: str, *, player: str | None = None, value: str | None = None
) -> None:
    b.emit(ev.DesignationChanged(designation=designation, player=player, value=value, cause=cause), rule)


def designate(b: Builder, cmd: Designate) -> None:
    """A reported designation; one that is already so is ``already_designated`` (nothing would
    change), except taking the initiative again, which still ventures (726.5)."""
    state = b.state
    kind = cmd.designation
    if kind in ("day", "night"):
        if state.day_night == kind:
            raise IllegalAction(f"it is already {kind} (CR 731.1)", Code.ALREADY_DESIGNATED)
        _changed(b, "day_night", "manual", "CR 731.1", value=kind)
        return
    assert cmd.player is not None  # the body requires a player for the player designations
    lookup.player_in_game(state, cmd.player)
    if kind == "monarch":
        if state.monarch == cmd.player:
            raise IllegalAction(f"{cmd.player!r} is already the monarch (CR 725.3)", Code.ALREADY_DESIGNATED)
        _changed(b, "monarch", "manual", "CR 725.3", player=cmd.player)
    elif kind == "initiative":
        _changed(b, "initiative", "manual", "CR 726.3", player=cmd.player)  # 726.5: again is allowed
    else:
        if state.players[cmd.player].city_blessing:
            raise IllegalAction(
                f"{cmd.player!r} already has the city's blessing, for the rest of the game (CR 702.131)",
                Code.ALREADY_DESIGNATED,
            )
        _changed(b, "city_blessing", "manual", "CR 702.131a", player=cmd.player)


# -- the inherent triggered abilities (725.2, 726.2) ----------------------------------------------
def _combat_damage_to(before: GameState, event: ev.Event, holder: str | None) -> str | None:
    """The controller of the creature that dealt this combat damage to ``holder``, if it did."""
    e = event.payload
    if holder is None or not isinstance(e, ev.DamageDealt) or not e.combat or e.target.get("player") != holder:
        return None
    source = before.battlefield.get(e.source)
    if source is None or not source.card.is_creature or source.controller == holder:
        return None
    return source.controller


def _waiting(state: GameState, context: TriggerContext | None, effect: str, player: str) -> bool:
    fired = list(context.fired) if context is not None else []
    waiting = [*state.stack, *fired, *(t for g in state.pending for t in g.triggers)]
    return any(o.effect == effect and o.params.get("player") == player for o in waiting)


def designation_triggers(
    before: GameState, event: ev.Event, after: GameState, context: TriggerContext | None
) -> list[TriggerSpec]:
    """The monarch's and the initiative's inherent triggers that ``event`` triggers."""
    e = event.payload
    found: list[TriggerSpec] = []
    active = after.active_players()
    if isinstance(e, ev.StepBegan) and e.step == "end" and after.monarch in active:
        monarch = after.monarch
        found.append(
            TriggerSpec(
                monarch, None, f"Monarch (CR 725.2): {monarch} draws a card", "monarch_draw", {"player": monarch}
            )
        )
    if isinstance(e, ev.StepBegan) and e.step == "upkeep" and after.initiative in active:
        found.append(venture_trigger(after.initiative, "upkeep"))
    if isinstance(e, ev.DesignationChanged) and e.designation == "initiative" and e.player is not None:
        found.append(venture_trigger(e.player, "took the initiative"))
    new_monarch = _combat_damage_to(before, event, before.monarch)
    if new_monarch is not None and before.monarch is not None:
        found.append(
            TriggerSpec(
                before.monarch,
                None,
                f"Monarch (CR 725.2): combat damage to {before.monarch}: {new_monarch} becomes the monarch",
                "become_monarch",
                {"player": new_monarch},
            )
        )
    taker = _combat_damage_to(before, event, before.initiative)
    # "Whenever one or more creatures a player controls deal combat damage": once for that player.
    if taker is not None and before.initiative is not None and not _waiting(after, context, "take_initiative", taker):
        found.append(
            TriggerSpec(
                before.initiative,
                None,
                f"Initiative (CR 726.2): combat damage to {before.initiative}: {taker} takes the initiative",
                "take_initiative",
                {"player": taker},
            )
        )
    return found


def resolve_monarch_draw(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    pid = obj.params["player"]
    if b.state.players[pid].lost:
        return "does nothing: the player left the game (CR 800.4a)"
    draw(b, pid, 1, "monarch", choices.cards, rule="CR 725.2")
    return None


def resolve_become_monarch(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    pid = obj.params["player"]
    if b.state.players[pid].lost:
        return "does nothing: the player left the game (CR 800.4a)"
    if b.state.monarch == pid:
        return f"{pid} is already the monarch"
    _changed(b, "monarch", "combat damage", "CR 725.2", player=pid)
    return None


def resolve_take_initiative(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    pid = obj.params["player"]
    if b.state.players[pid].lost:
        return "does nothing: the player left the game (CR 800.4a)"
    _changed(b, "initiative", "combat damage", "CR 726.2", player=pid)
    return None


# -- leaving the game, and the untap step ---------------------------------------------------------
def successor(state: GameState, leaving: str) -> str | None:
    """Who gets the monarch or the initiative when ``leaving`` leaves: the active player, or the
    next player in turn order still in the game (725.4, 726.4)."""
    active = state.turn.active_player
    if active != leaving and active in state.players and not state.players[active].lost:
        return active
    order = list(state.players)
    start = order.index(active) if active in order else 0
    for offset in range(1, len(order) + 1):
        pid = order[(start + offset) % len(order)]
        if pid != leaving and not state.players[pid].lost:
            return pid
    return None


def hand_off(b: Builder, leaving: str) -> None:
    """The designations of a player who leaves the game pass on at once (725.4, 726.4)."""
    for designation, rule in (("monarch", "CR 725.4"), ("initiative", "CR 726.4")):
        if getattr(b.state, HELD[designation]) == leaving:
            heir = successor(b.state, leaving)
            if heir is not None:
                _changed(b, designation, f"{leaving} left the game", rule, player=heir)


def day_night_change(state: GameState) -> tuple[str, str] | None:
    """What the untap step's check makes of day or night, as ``(value, rule)``, or ``None`` when
    it stays (731.2): day becomes night if the previous turn's active player (any player of the
    active team) cast no spells; night becomes day if they (any one of them) cast two or more."""
    counts = state.spells_last_turn
    if state.day_night == "day" and not any(counts.values()):
        return "night", "CR 731.2a"
    if state.day_night == "night" and any(n >= 2 for n in counts.values()):
        return "day", "CR 731.2b"
    return None


def check_day_night(b: Builder) -> None:
    change = day_night_change(b.state)
    if change is not None:
        value, rule = change
        _changed(b, "day_night", "untap step", rule, value=value)
