"""Flame Rift — "Flame Rift deals 4 damage to each player." (CR 810.9 example in 2HG)."""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.commands import Choices
from domain.rules.damage import deal_damage
from domain.rules.effects import effect
from domain.state import StackObject


@effect("flame_rift")
def _flame_rift(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    for player in b.state.in_game():
        deal_damage(b, {"player": player.id}, 4, "Flame Rift")
    return None


register(Behaviour(name="Flame Rift", spell_effect="flame_rift"))
