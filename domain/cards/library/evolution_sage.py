"""Evolution Sage {2}{G}, Creature — Elf Druid 3/2.

Oracle text (catalog.json): "Landfall — Whenever a land you control enters, proliferate. (...)"

Automated: triggers for each land entering under its controller's control (a land played, put
onto the battlefield with ``enter``, or a Dryad Arbor); ``choices.proliferate`` on resolution.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.watchers import land_you_control_enters, trigger
from domain.commands import Choices
from domain.rules.effects import effect
from domain.rules.proliferate import proliferate
from domain.state import StackObject

NAME = "Evolution Sage"


@effect("evolution_sage")
def _proliferate(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    proliferate(b, obj.controller, choices.proliferate or (), NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(land_you_control_enters, "evolution_sage", "landfall — proliferate", needs=("proliferate",)),
        ),
    )
)
