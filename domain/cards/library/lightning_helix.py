"""Lightning Helix {R}{W}, Instant.

Oracle text (catalog.json): "Lightning Helix deals 3 damage to any target and you gain 3 life."

Automated: cast with ``targets: [{"player": id}]`` or ``[{"permanent": id}]`` (a creature,
planeswalker or battle: "any target", CR 115.4), checked on casting. On resolution it deals 3
damage (source "Lightning Helix"; to a planeswalker it removes loyalty, 120.3c) and its
controller gains 3 life. If the target is illegal by then, the spell doesn't resolve: no damage
and no life gain (CR 608.2b).
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import Behaviour, register
from domain.commands import Choices
from domain.rules.damage import deal_damage
from domain.rules.effects import Resolution, effect, illegal_targets
from domain.rules.life import gain_life
from domain.state import StackObject

NAME = "Lightning Helix"


@effect("lightning_helix", targets="any")
def _helix(b: Builder, obj: StackObject, choices: Choices) -> str | Resolution | None:
    legal = tg.still_legal(b.state, obj.controller, obj.params.get("targets"), "any")
    if not legal:
        return illegal_targets()
    deal_damage(b, legal[0], 3, NAME)
    gain_life(b, obj.controller, 3, NAME)
    return None


register(Behaviour(name=NAME, spell_effect="lightning_helix", spell_targets=tg.checker("any")))
