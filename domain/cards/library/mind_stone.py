"""Mind Stone {2}, Artifact.

Oracle text (catalog.json):

- "{T}: Add {C}." Automated mana ability (ability 0; CR 605.3b). Not a land: Mana Flare
  doesn't see it.
- "{1}, {T}, Sacrifice this artifact: Draw a card." Automated (ability 1): {T} and the sacrifice
  are paid on activation (the {1} is mana, not tracked); its controller draws on resolution.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import ActivatedAbility, Behaviour, register, tap_for_mana
from domain.commands import Choices
from domain.rules.effects import effect
from domain.rules.zones import draw
from domain.state import StackObject

NAME = "Mind Stone"


@effect("mind_stone.draw")
def _draw(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    draw(b, obj.controller, 1, NAME, choices.cards)
    return None


register(
    Behaviour(
        name=NAME,
        abilities=(
            tap_for_mana("C"),
            ActivatedAbility(
                text="{1}, {T}, Sacrifice this artifact: Draw a card.",
                tap=True,
                sacrifice_self=True,
                effect="mind_stone.draw",
            ),
        ),
    )
)
