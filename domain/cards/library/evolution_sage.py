"""Evolution Sage {2}{G}, Creature — Elf Druid 3/2.

Oracle text (catalog.json): "Landfall — Whenever a land you control enters, proliferate. (...)"

Automated: triggers for each land entering under its controller's control (a land played, put
onto the battlefield with ``enter``, or a Dryad Arbor); ``choices.proliferate`` on resolution.
"""

from __future__ import annotations

from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import proliferate_effect
from domain.cards.watchers import land_you_control_enters, trigger

NAME = "Evolution Sage"


proliferate_effect("evolution_sage", NAME)


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(land_you_control_enters, "evolution_sage", "landfall — proliferate", needs=("proliferate",)),
        ),
    )
)
