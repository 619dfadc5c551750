"""Damage (CR 120): life loss, or poison and -1/-1 counters with infect; toxic adds poison."""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.rules import lookup
from domain.rules.counters import add_counters, remove_counters
from domain.rules.life import lose_life


def deal_damage(
    b: Builder,
    target: dict[str, str],
    amount: int,
    source: str,
    *,
    infect: bool = False,
    toxic: int = 0,
    combat: bool = False,
    commander: str | None = None,
) -> None:
    """Deal damage and record its results (CR 120.3); ``combat`` marks combat damage (510.2),
    ``commander`` the ``OWNER:Name`` of a commander dealing combat damage to a player (903.10a)."""
    lookup.target_exists(b.state, target)
    dealt = ev.DamageDealt(
        source=source,
        target=dict(target),
        amount=amount,
        infect=infect,
        toxic=toxic,
        combat=combat,
        commander=commander,
    )
    b.emit(dealt, "CR 120.3")
    if "player" in target:
        pid = target["player"]
        if infect:
            add_counters(b, target, "poison", amount, source, "CR 120.3b")
        else:
            lose_life(b, pid, amount, source, "CR 120.3a")
        if toxic:
            add_counters(b, target, "poison", toxic, source, "CR 702.164c")
        return
    perm = lookup.permanent(b.state, target["permanent"])
    if "Planeswalker" in perm.card.types:
        remove_counters(b, target, "loyalty", amount, source, up_to=True, rule="CR 120.3c")
    elif infect and perm.card.is_creature:
        add_counters(b, target, "-1/-1", amount, source, "CR 120.3d")
