"""Activating abilities (CR 602): cost checks ({T} 107.5, {Q} 107.6, summoning sickness 302.6,
sacrifice, counters, life), mana abilities resolving at once (605.3b), the rest on the stack."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import events as ev
from domain.builder import Builder
from domain.cards.behaviour import ActivatedAbility, behaviour_of, tap_for_mana
from domain.commands import Activate
from domain.errors import IllegalAction
from domain.rules import lookup
from domain.rules.counters import count_on, remove_counters
from domain.rules.life import pay_life
from domain.rules.stack import settle
from domain.rules.zones import leave_battlefield
from domain.state import GameState, Permanent, StackObject

#: Intrinsic mana abilities of the basic land types (CR 305.6).
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def abilities_of(perm: Permanent) -> tuple[ActivatedAbility, ...]:
    """The activated abilities the server knows for a permanent: the intrinsic ones of its
    basic land types (305.6) first, then those of its automated card."""
    intrinsic = tuple(tap_for_mana(BASIC_LAND_MANA[t]) for t in sorted(perm.card.subtypes) if t in BASIC_LAND_MANA)
    behaviour = behaviour_of(perm.card.name)
    return intrinsic + (behaviour.abilities if behaviour else ())


def could_produce(perm: Permanent, state: GameState, seen: frozenset[str] = frozenset()) -> frozenset[str]:
    """Types of mana the permanent's mana abilities could produce now (CR 106.7); ``seen``
    breaks loops such as two Exotic Orchards facing each other (each then produces none)."""
    if perm.id in seen:
        return frozenset()
    out: set[str] = set()
    for ability in abilities_of(perm):
        if ability.could_produce is not None:
            out |= ability.could_produce(perm, state, seen | {perm.id})
    return frozenset(out)


def _check_tap_symbols(perm: Permanent, tap: bool, untap: bool) -> None:
    if (tap or untap) and perm.summoning_sick:
        raise IllegalAction(
            f"{perm.card.name!r} ({perm.id}) is a creature that hasn't been under its controller's "
            "control since their most recent turn began: it can't pay {T} or {Q} (CR 302.6)",
            "summoning_sick",
        )
    if tap and perm.tapped:
        raise IllegalAction(
            f"{perm.card.name!r} ({perm.id}) is already tapped: it can't pay {{T}} (CR 107.5)", "already_tapped"
        )
    if untap and not perm.tapped:
        raise IllegalAction(
            f"{perm.card.name!r} ({perm.id}) is untapped: it can't pay {{Q}} (CR 107.6)", "already_untapped"
        )


def _check_sacrifice(state: GameState, player_id: str, ids: tuple[str, ...], artifacts: int) -> None:
    if len(set(ids)) != len(ids):
        raise IllegalAction(f"costs.sacrifice names a permanent twice: {list(ids)}", "illegal_choice")
    for pid in ids:
        perm = lookup.permanent(state, pid)
        if perm.controller != player_id:
            raise IllegalAction(
                f"{player_id!r} can't sacrifice {pid!r}: it is controlled by {perm.controller!r} (CR 701.21a)",
                "illegal_choice",
            )
        if artifacts and not perm.card.is_artifact:
            raise IllegalAction(
                f"the cost sacrifices an artifact; {pid!r} ({perm.card.name}) is not one", "illegal_choice"
            )
    if artifacts and len(ids) != artifacts:
        raise IllegalAction(
            f"the cost sacrifices {artifacts} artifact(s): name exactly {artifacts} "
            f"in costs.sacrifice, got {list(ids)}",
            "illegal_choice",
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
                "unknown_ability",
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
            "not_controller",
        )
    _check_tap_symbols(perm, tap, untap)
    _check_sacrifice(state, cmd.player, sacrifice, ability.sacrifice_artifact)
    for kind, n in remove.items():
        have = count_on(state, {"permanent": perm.id}, kind)
        if have < n:
            raise IllegalAction(
                f"the cost removes {n} {kind!r} counter(s) from {perm.id!r}, which has {have} (CR 118.3)",
                "not_enough_counters",
            )

    if ability.mana is not None:
        produced = {k: n for k, n in ability.mana(perm, state, cmd.mana).items() if n > 0}
        b.emit(
            ev.ABILITY_ACTIVATED,
            {
                "player": cmd.player,
                "permanent": perm.id,
                "ability": cmd.ability,
                "text": text,
                "object": None,
                "mana_ability": True,
            },
            "CR 605.3b",
        )
        _pay(b, cmd.player, perm, tap, untap, sacrifice, remove, life)
        if produced:
            b.emit(ev.MANA_ADDED, {"player": cmd.player, "mana": produced, "source": perm.id}, "CR 106.3")
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
    b.emit(
        ev.ABILITY_ACTIVATED,
        {
            "player": cmd.player,
            "permanent": perm.id,
            "ability": cmd.ability,
            "text": text,
            "object": obj.to_json(),
            "seq": seq,
        },
        "CR 602.2",
    )
    _pay(b, cmd.player, perm, tap, untap, sacrifice, remove, life)
    settle(b)


def _pay(
    b: Builder,
    player_id: str,
    perm: Permanent,
    tap: bool,
    untap: bool,
    sacrifice: tuple[str, ...],
    remove: Mapping[str, int],
    life: int,
) -> None:
    """Pay the costs in the order given (CR 601.2h via 602.2b)."""
    if tap:
        b.emit(ev.PERMANENT_TAPPED, {"permanent": perm.id, "cause": "cost"}, "CR 107.5")
    if untap:
        b.emit(ev.PERMANENT_UNTAPPED, {"permanent": perm.id, "cause": "cost"}, "CR 107.6")
    for kind, n in remove.items():
        remove_counters(b, {"permanent": perm.id}, kind, n, "cost", up_to=False, rule="CR 118.3")
    if life:
        pay_life(b, player_id, life, "cost")
    for sacrificed in sacrifice:
        leave_battlefield(b, sacrificed, "graveyard", "sacrifice", "CR 701.21a")
