"""Trigger conditions for card behaviours, and ``trigger`` to build a watcher from one.

A condition (``When``) looks at one event with the watching permanent and gives one params
mapping per time the ability triggers (none: it doesn't trigger). ``trigger`` turns a condition
into a ``TriggerWatcher`` that creates the ``TriggerSpec`` objects.

Conditions here, with the events they read:

- ``self_enters`` — ``PermanentEntered`` of this permanent ("When ~ enters").
- ``self_dies`` — ``PermanentLeft`` of this creature to a graveyard ("When ~ dies", 700.4); the
  watcher gets the permanent as it last existed (``last_known``), counters included.
- ``another_creature_you_control_dies`` — ``PermanentLeft`` of another creature you controlled.
- ``land_you_control_enters`` — landfall (``PermanentEntered`` of a land you control).
- ``self_attacks`` / ``enchanted_creature_attacks`` — ``AttackersDeclared`` (508.3a).
- ``self_deals_combat_damage_to_player`` — ``DamageDealt`` with ``source`` = this permanent's id,
  ``combat: true`` and a player target (510.3a).
- ``self_dealt_damage`` — ``DamageDealt`` to this permanent ("Enrage — Whenever ~ is dealt damage").
- ``nonland_cards_milled`` — "Whenever one or more nonland cards are milled": once per
  ``CardsMilled`` event with ``nonland_count`` >= 1 (X = that count).
- ``player_mills_nonland_card`` — "Whenever a player mills a nonland card": once per nonland card.
- ``you_proliferate`` — ``Proliferated`` by you (even with nothing chosen, 701.34a).
- ``your_end_step`` — ``StepBegan`` ``end`` on your turn ("At the beginning of your end step").
- ``you_cast_noncreature_spell`` — ``SpellCast`` by you of a noncreature card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from domain import events as ev
from domain.cards.behaviour import TriggerSpec, TriggerWatcher
from domain.cards.model import Card
from domain.state import GameState, Permanent, object_memory

#: permanent, state before, event, state after -> one params mapping per trigger.
When = Callable[[Permanent, GameState, ev.Event, GameState], Iterable[Mapping[str, Any]]]


def done_key(permanent_id: str, effect: str) -> str:
    """The ``turn_memory`` key recording that an ability's "do this only once each turn" action was
    done this turn (CR 603.2h)."""
    return object_memory("done", permanent_id, effect)


def trigger(
    when: When,
    effect: str,
    text: str,
    *,
    needs: tuple[str, ...] = (),
    once_each_turn: bool = False,
    do_once_each_turn: bool = False,
    leaves: bool = False,
) -> TriggerWatcher:
    """A watcher: ``text`` describes the ability on the stack (prefixed with the card's name),
    ``effect`` names its resolution routine, ``needs`` the choices ``resolve`` must carry.
    ``once_each_turn``: "This ability triggers only once each turn". ``do_once_each_turn``:
    "Do this only once each turn": once its controller has done it this turn, the ability no
    longer triggers that turn (CR 603.2h); the routine records the doing (``done_key``).
    ``leaves``: a leaves-the-battlefield ability, which triggers from a permanent no longer there
    (603.10a); every other ability triggers only while its permanent is on the battlefield."""

    def watch(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> Iterator[TriggerSpec]:
        if not leaves and perm.id not in after.battlefield:
            return
        if do_once_each_turn and done_key(perm.id, effect) in after.turn_memory:
            return
        for found in when(perm, before, event, after):
            params = dict(found)
            if needs:
                params["needs"] = list(needs)
            if once_each_turn:
                params["once_per_turn"] = object_memory("once", perm.id, effect)
            yield TriggerSpec(
                controller=perm.controller,
                source=perm.id,
                description=f"{perm.card.name}: {text}",
                effect=effect,
                params=params,
                source_name=perm.card.name,
            )

    return watch


# -- conditions ---------------------------------------------------------------------------------
def self_enters(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> list[dict[str, Any]]:
    e = event.payload
    if isinstance(e, ev.PermanentEntered) and e.permanent["id"] == perm.id:
        return [{}]
    return []


def _died(event: ev.Event) -> Permanent | None:
    """The creature that just died (put into a graveyard from the battlefield, 700.4), as it
    last existed; ``None`` for any other event."""
    e = event.payload
    if not isinstance(e, ev.PermanentLeft) or e.to != "graveyard":
        return None
    last = Permanent.from_json(e.last_known)
    return last if last.card.is_creature else None


def self_dies(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> list[dict[str, Any]]:
    dead = _died(event)
    if dead is not None and dead.id == perm.id:
        return [{"last_known_power": dead.power(), "last_known_counters": dict(dead.counters)}]
    return []


def another_creature_you_control_dies(
    perm: Permanent, before: GameState, event: ev.Event, after: GameState
) -> list[dict[str, Any]]:
    dead = _died(event)
    if dead is not None and dead.id != perm.id and dead.controller == perm.controller:
        return [{}]
    return []


def land_you_control_enters(
    perm: Permanent, before: GameState, event: ev.Event, after: GameState
) -> list[dict[str, Any]]:
    e = event.payload
    if not isinstance(e, ev.PermanentEntered):
        return []
    raw = e.permanent
    if raw["controller"] == perm.controller and Card.from_json(raw["card"]).is_land:
        return [{"land": raw["id"]}]
    return []


def _attackers(event: ev.Event) -> list[Mapping[str, Any]]:
    e = event.payload
    return list(e.attackers) if isinstance(e, ev.AttackersDeclared) else []


def self_attacks(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> list[dict[str, Any]]:
    return [{"defending_player": a["defending_player"]} for a in _attackers(event) if a["permanent"] == perm.id]


def enchanted_creature_attacks(
    perm: Permanent, before: GameState, event: ev.Event, after: GameState
) -> list[dict[str, Any]]:
    if perm.attached_to is None:
        return []
    return [
        {"attacker": a["permanent"], "defending_player": a["defending_player"]}
        for a in _attackers(event)
        if a["permanent"] == perm.attached_to
    ]


def self_deals_combat_damage_to_player(
    perm: Permanent, before: GameState, event: ev.Event, after: GameState
) -> list[dict[str, Any]]:
    e = event.payload
    if isinstance(e, ev.DamageDealt) and e.combat and e.source == perm.id and "player" in e.target:
        return [{"player": e.target["player"], "amount": e.amount}]
    return []


def self_dealt_damage(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> list[dict[str, Any]]:
    e = event.payload
    if isinstance(e, ev.DamageDealt) and e.target.get("permanent") == perm.id and e.amount > 0:
        return [{"amount": e.amount}]
    return []


def nonland_cards_milled(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> list[dict[str, Any]]:
    e = event.payload
    if isinstance(e, ev.CardsMilled) and e.nonland_count > 0:
        return [{"x": e.nonland_count, "milled_by": e.player}]
    return []


def player_mills_nonland_card(
    perm: Permanent, before: GameState, event: ev.Event, after: GameState
) -> list[dict[str, Any]]:
    e = event.payload
    if isinstance(e, ev.CardsMilled):
        return [{"milled_by": e.player}] * e.nonland_count
    return []


def you_proliferate(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> list[dict[str, Any]]:
    e = event.payload
    if isinstance(e, ev.Proliferated) and e.player == perm.controller:
        return [{}]
    return []


def your_end_step(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> list[dict[str, Any]]:
    e = event.payload
    if isinstance(e, ev.StepBegan) and e.step == "end" and perm.controller in after.active_players():
        return [{}]
    return []


def you_cast_noncreature_spell(
    perm: Permanent, before: GameState, event: ev.Event, after: GameState
) -> list[dict[str, Any]]:
    e = event.payload
    if not isinstance(e, ev.SpellCast) or e.player != perm.controller:
        return []
    card = e.object.get("card")
    if card is not None and not Card.from_json(card).is_creature:
        return [{"spell": e.object["id"]}]
    return []


def are_opponents(state: GameState, a: str, b: str) -> bool:
    """Opponents: different players, and not teammates in a team variant (CR 102.2, 102.3)."""
    if a == b:
        return False
    team_a, team_b = state.players[a].team, state.players[b].team
    return not (state.shared_turns and team_a is not None and team_a == team_b)
