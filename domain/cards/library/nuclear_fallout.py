"""Nuclear Fallout {X}{B}{B}, Sorcery.

Oracle text (catalog.json): "Each creature gets twice -X/-X until end of turn. Each player gets
X rad counters."

Automated, with the X given on ``cast``: each creature on the battlefield as it resolves gets
-2X/-2X until end of turn (a ``PowerToughnessModified`` event each; creatures that enter later
are not affected, CR 611.2c); the change ends in the cleanup step (514.2). Creatures whose
toughness is now 0 or less are put into their owners' graveyards by the state-based action
check right after (704.5f), those with lethal damage marked too (704.5g). Then each player
gets X rad counters.
"""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import each_player, players_get
from domain.commands import Choices
from domain.rules.effects import effect
from domain.state import StackObject

NAME = "Nuclear Fallout"


@effect("nuclear_fallout")
def _fallout(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    x = int(obj.params.get("x", 0))
    if x > 0:
        for perm in list(b.state.battlefield.values()):
            if perm.card.is_creature:
                b.emit(
                    ev.PowerToughnessModified(
                        permanent=perm.id, power=-2 * x, toughness=-2 * x, until="end_of_turn", cause=NAME
                    ),
                    "CR 611.2",
                )
    players_get(b, each_player(b), "rad", x, NAME)
    return f"X = {x}"


register(Behaviour(name=NAME, spell_effect="nuclear_fallout"))
