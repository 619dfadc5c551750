"""Activating abilities (CR 602): cost checks ({T} 107.5, {Q} 107.6, summoning sickness 302.6,
sacrifice, counters, life, loyalty 606), mana abilities resolving at once (605.3b) with the
triggered mana abilities they trigger (605.4a), the rest on the stack."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import events as ev
from domain.builder import Builder
from domain.cards.behaviour import ActivatedAbility, behaviour_of, tap_for_mana
from domain.commands import Activate
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.counters import count_on, remove_counters
from domain.rules.life import pay_life
from domain.rules.replacements import counters_to_place
from domain.rules.stack import settle
from domain.rules.zones import leave_battlefield
from domain.state import GameState, Permanent, StackObject, object_memory

#: Intrinsic mana abilities of the basic land types (CR 305.6).
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
MAIN_PHASES = ("precombat_main", "postcombat_main")


def abilities_of(perm: Permanent) -> tuple[ActivatedAbility, ...]:
    """The activated abilities the server knows for a permanent: the intrinsic ones of its
    basic land types (305.6) first, then those of its automated card."""
    intrinsic = tuple(tap_for_mana(BASIC_LAND_MANA[t]) for t in sorted(perm.card.subtypes) if t in BASIC_LAND_MANA)
    behaviour = behaviour_of(perm.card.name)
    return intrinsic + (behaviour.abilities if behaviour else ())


def could_produce(perm: Permanent, state: GameState, seen: frozenset[str] = frozenset()) -> frozenset[str]:
    """Types of mana the permanent's mana abilities could produce now (CR 106.7); ``seen``
    breaks loops such as two Exotic Orchards facing each other (each then produces none).
    Triggered mana abilities (Mana Flare) don't count: only the permanent's own abilities."""
    if perm.id in seen:
        return frozenset()
    out: set[str] = set()
    for ability in abilities_of(perm):
        if ability.could_produce is not None:
            out |= ability.could_produce(perm, state, seen | {perm.id})
    return frozenset(out)


def has_haste(state: GameState, perm: Permanent) -> bool:
    """Haste printed on the card, or given to all creatures (Concordant Crossroads)."""
    if perm.card.has_keyword("haste"):
        return True
    for other in state.battlefield.values():
        behaviour = behaviour_of(other.card.name)
        if behaviour is not None and behaviour.creatures_have_haste and perm.card.is_creature:
            return True
    return False


def is_summoning_sick(state: GameState, perm: Permanent) -> bool:
    """A creature (a land creature too) that can't pay {T}/{Q} or attack yet (CR 302.6)."""
    return perm.card.is_creature and not perm.controlled_since_turn_began and not has_haste(state, perm)


def _check_tap_symbols(state: GameState, perm: Permanent, tap: bool, untap: bool) -> None:
    if (tap or untap) and is_summoning_sick(state, perm):
        raise IllegalAction(
            f"{perm.card.name!r} ({perm.id}) is a creature that hasn't been under its controller's "
            "control since their most recent turn began: it can't pay {T} or {Q} (CR 302.6)",
            Code.SUMMONING_SICK,
        )
    if tap and perm.tapped:
        raise IllegalAction(
            f"{perm.card.name!r} ({perm.id}) is already tapped: it can't pay {{T}} (CR 107.5)", Code.ALREADY_TAPPED
        )
    if untap and not perm.tapped:
        raise IllegalAction(
            f"{perm.card.name!r} ({perm.id}) is untapped: it can't pay {{Q}} (CR 107.6)", Code.ALREADY_UNTAPPED
        )


def _check_sacrifice(state: GameState, player_id: str, ids: tuple[str, ...], artifacts: int) -> None:
    if len(set(ids)) != len(ids):
        raise IllegalAction(f"costs.sacrifice names a permanent twice: {list(ids)}", Code.ILLEGAL_CHOICE)
    for pid in ids:
        perm = lookup.permanent(state, pid)
        if perm.controller != player_id:
            raise IllegalAction(
                f"{player_id!r} can't sacrifice {pid!r}: it is controlled by {perm.controller!r} (CR 701.21a)",
                Code.ILLEGAL_CHOICE,
            )
        if artifacts and not perm.card.is_artifact:
            raise IllegalAction(
                f"the cost sacrifices an artifact; {pid!r} ({perm.card.name}) is not one", Code.ILLEGAL_CHOICE
            )
    if artifacts and len(ids) != artifacts:
        raise IllegalAction(
            f"the cost sacrifices {artifacts} artifact(s): name exactly {artifacts} "
            f"in costs.sacrifice, got {list(ids)}",
            Code.ILLEGAL_CHOICE,
        )


def loyalty_key(perm: Permanent) -> str:
    """``turn_memory`` key: a loyalty ability of this permanent was activated this turn (606.3)."""
    return object_memory("loyalty", perm.id)


def _check_loyalty(state: GameState, player_id: str, perm: Permanent, cost: int) -> None:
    """Sorcery timing, once per turn per permanent (606.3); −N needs N counters (606.6)."""
    if player_id not in state.active_players() or state.turn.step not in MAIN_PHASES or state.stack:
        raise IllegalAction(
            f"a loyalty ability of {perm.card.name!r} ({perm.id}) can be activated only in a main phase of "
            f"its controller's turn with an empty stack (CR 606.3); now: {state.turn.active_player!r}'s "
            f"{state.turn.step}, {len(state.stack)} object(s) on the stack",
            Code.WRONG_TIMING,
        )
    if loyalty_key(perm) in state.turn_memory:
        raise IllegalAction(
            f"a loyalty ability of {perm.card.name!r} ({perm.id}) was already activated this turn (CR 606.3)",
            Code.ALREADY_ACTIVATED,
        )
    have = perm.counters.get("loyalty", 0)
    if cost < 0 and have < -cost:
        raise IllegalAction(
            f"{perm.card.name!r} ({perm.id}) has {have} loyalty: it can't pay {cost} (CR 606.6)",
            Code.NOT_ENOUGH_COUNTERS,
        )


def activate(b: Builder, cmd: Activate) -> None:
    state = b.state
    lookup.player_in_game(state, cmd.player)
    perm = lookup.permanent(state, cmd.permanent)
    known = abilities_of(perm)
    if known:
        if cmd.ability >= len(known):
            raise IllegalAction(
                f"{perm.card.name!r} has {len(known)} activated abilit{'y' if len(known) == 1 else 'ies'}; "
                f"there is no ability {cmd.ability}",
                Code.UNKNOWN_ABILITY,
            )
        ability = known[cmd.ability]
        tap, untap = ability.tap, ability.untap
        remove: Mapping[str, int] = ability.remove_counters
        life = cmd.costs.pay_life
        sacrifice = cmd.costs.sacrifice
        if ability.sacrifice_self:
            sacrifice = (perm.id,)
        text = ability.text
    else:
        ability = ActivatedAbility(text=f"ability {cmd.ability} (reported by hand)")
        tap, untap = cmd.costs.tap, cmd.costs.untap
        remove, life, sacrifice = cmd.costs.remove_counters, cmd.costs.pay_life, cmd.costs.sacrifice
        text = ability.text
    if perm.controller != cmd.player and not ability.any_player:
        raise IllegalAction(
            f"{cmd.player!r} doesn't control {perm.id!r} ({perm.card.name}); {perm.controller!r} does (CR 602.2)",
            Code.NOT_CONTROLLER,
        )
    if ability.loyalty is not None:
        _check_loyalty(state, cmd.player, perm, ability.loyalty)
    _check_tap_symbols(state, perm, tap, untap)
    _check_sacrifice(state, cmd.player, sacrifice, ability.sacrifice_artifact)
    for kind, n in remove.items():
        have = count_on(state, {"permanent": perm.id}, kind)
        if have < n:
            raise IllegalAction(
                f"the cost removes {n} {kind!r} counter(s) from {perm.id!r}, which has {have} (CR 118.3)",
                Code.NOT_ENOUGH_COUNTERS,
            )
    if ability.targets is not None:
        ability.targets(state, cmd.player, cmd.targets)

    if ability.mana is not None:
        produced = {k: n for k, n in ability.mana(perm, state, cmd.mana).items() if n > 0}
        b.emit(
            ev.AbilityActivated(
                player=cmd.player, permanent=perm.id, ability=cmd.ability, text=text, object=None, mana_ability=True
            ),
            "CR 605.3b",
        )
        _pay(b, cmd.player, perm, tap, untap, sacrifice, remove, life, None)
        if produced:
            b.emit(ev.ManaAdded(player=cmd.player, mana=produced, source=perm.id), "CR 106.3")
            if tap and perm.card.is_land:
                _tapped_for_mana(b, cmd.player, perm, produced, cmd.mana)
        settle(b)
        return

    seq = b.next_seq()
    params: dict[str, Any] = {"seq": seq}
    if ability.needs:
        params["needs"] = list(ability.needs)
    if cmd.x:
        params["x"] = cmd.x
    if cmd.targets:
        params["targets"] = list(cmd.targets)
    obj = StackObject(
        id=f"s{seq}",
        kind="ability",
        controller=cmd.player,
        source=perm.id,
        description=f"{perm.card.name}: {text}",
        effect=ability.effect,
        params=params,
        card=perm.card,
    )
    activated = ev.AbilityActivated(
        player=cmd.player,
        permanent=perm.id,
        ability=cmd.ability,
        text=text,
        object=obj.to_json(),
        seq=seq,
        remember=loyalty_key(perm) if ability.loyalty is not None else None,
    )
    b.emit(activated, "CR 602.2")
    _pay(b, cmd.player, perm, tap, untap, sacrifice, remove, life, ability.loyalty)
    settle(b)


def _tapped_for_mana(
    b: Builder, player_id: str, land: Permanent, produced: Mapping[str, int], choice: str | None
) -> None:
    """A land was tapped for mana and produced some (106.12a): triggered mana abilities such as
    Mana Flare resolve right away, without the stack (605.4a)."""
    for source in list(b.state.battlefield.values()):
        behaviour = behaviour_of(source.card.name)
        for trigger in behaviour.mana_triggers if behaviour else ():
            extra = {k: n for k, n in trigger(source, land, b.state, produced, choice).items() if n > 0}
            if extra:
                b.emit(
                    ev.ManaAdded(player=player_id, mana=extra, source=source.id, cause=source.card.name),
                    "CR 605.4a",
                )


def _pay(
    b: Builder,
    player_id: str,
    perm: Permanent,
    tap: bool,
    untap: bool,
    sacrifice: tuple[str, ...],
    remove: Mapping[str, int],
    life: int,
    loyalty: int | None,
) -> None:
    """Pay the costs in the order given (CR 601.2h via 602.2b)."""
    if tap:
        b.emit(ev.PermanentTapped(permanent=perm.id, cause="cost"), "CR 107.5")
    if untap:
        b.emit(ev.PermanentUntapped(permanent=perm.id, cause="cost"), "CR 107.6")
    if loyalty is not None and loyalty > 0:
        # A cost, not an effect: Doubling Season doesn't double it (ruling 2020-08-07).
        target = {"permanent": perm.id}
        n = counters_to_place(b.state, target, "loyalty", loyalty, order=b.replacement_order, by_effect=False)
        if n > 0:
            b.emit(ev.CountersAdded(target=target, kind="loyalty", amount=n, cause="cost"), "CR 606.4")
    elif loyalty is not None and loyalty < 0:
        remove_counters(b, {"permanent": perm.id}, "loyalty", -loyalty, "cost", up_to=False, rule="CR 606.4")
    for kind, n in remove.items():
        remove_counters(b, {"permanent": perm.id}, kind, n, "cost", up_to=False, rule="CR 118.3")
    if life:
        pay_life(b, player_id, life, "cost")
    for sacrificed in sacrifice:
        leave_battlefield(b, sacrificed, "graveyard", "sacrifice", "CR 701.21a")
