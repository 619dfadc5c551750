"""Contagion Clasp {2}, Artifact.

Oracle text (catalog.json):

- "When this artifact enters, put a -1/-1 counter on target creature." Automated: the trigger
  goes on the stack; ``resolve`` names the creature in ``choices.targets`` (with no creature on
  the battlefield it is removed from the stack, CR 603.3d).
- "{4}, {T}: Proliferate. (...)" Automated: {T} is checked (107.5; not a creature, so no
  summoning sickness); proliferate choices are made on resolution (``choices.proliferate``).
  The {4} is mana, which the server doesn't track.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import ActivatedAbility, Behaviour, register
from domain.cards.helpers import chosen_target
from domain.cards.watchers import self_enters, trigger
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect, needs
from domain.state import GameState, StackObject

NAME = "Contagion Clasp"


@needs("contagion_clasp.etb")
def _needs(state: GameState, obj: StackObject) -> list[str]:
    return ["targets"] if any(p.card.is_creature for p in state.battlefield.values()) else []


@effect("contagion_clasp.etb")
def _etb(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    target = chosen_target(b, obj, choices, "creature")
    if target is None:
        return "removed from the stack: no creature to target (CR 603.3d)"
    add_counters(b, target, "-1/-1", 1, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(trigger(self_enters, "contagion_clasp.etb", "put a -1/-1 counter on target creature"),),
        abilities=(
            ActivatedAbility(
                text="{4}, {T}: Proliferate.",
                tap=True,
                effect="proliferate",
                needs=("proliferate",),
            ),
        ),
    )
)
