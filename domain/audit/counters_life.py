"""Audit checks of counters, life and damage (CR 119, 120, 122)."""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.audit.common import (
    CHECKS,
    Check,
    bad_amount,
    no_player,
    no_target,
)
from domain.rules.counters import count_on
from domain.state import GameState


# -- counters, life, damage -------------------------------------------------------------------
@CHECKS.on(ev.CountersAdded)
def _counters_added(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    kind = data.get("kind")
    if not isinstance(kind, str) or not kind:
        return f"'kind' must name a kind of counter, got {kind!r}"
    return no_target(state, data.get("target")) or bad_amount(data)


@CHECKS.on(ev.CountersRemoved)
def _counters_removed(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    problem = _counters_added(state, event)
    if problem:
        return problem
    have = count_on(state, dict(data["target"]), data["kind"])
    if data["amount"] > have:
        return (
            f"{data['amount']} {data['kind']!r} counter(s) removed from {data['target']}, which has {have}: "
            "only counters that are there can be removed (CR 118.3, 609.3)"
        )
    return None


def _life(sign: int) -> Check:
    def check(state: GameState, event: ev.Event) -> str | None:
        data = event.data
        player_id: Any = data.get("player")
        problem = no_player(state, player_id) or bad_amount(data)
        if problem:
            return problem
        before = state.life_of(player_id)
        after = before + sign * data["amount"]
        if data.get("life_after") != after:
            return (
                f"life_after is {data.get('life_after')!r}, but {player_id}'s life goes from {before} "
                f"to {after} (CR 119.3)"
            )
        return None

    return check


@CHECKS.on(ev.DamageDealt)
def _damage_dealt(state: GameState, event: ev.Event) -> str | None:
    missing = no_target(state, event.data.get("target"))
    if missing:
        return missing
    zero = bad_amount(event.data)
    if zero:
        return f"{zero}: a source that would deal 0 damage deals no damage (CR 120.8)"
    commander = event.data.get("commander")
    if commander is not None:
        source = state.battlefield.get(event.data.get("source", ""))
        key = state.commander_key(source) if source is not None else None
        if key != commander or not event.data.get("combat") or "player" not in event.data["target"]:
            return (
                f"commander {commander!r}: only a commander's combat damage to a player is commander damage "
                "(CR 903.10a)"
            )
    return None


CHECKS.put(ev.LifeLost, _life(-1))
CHECKS.put(ev.LifeGained, _life(+1))
