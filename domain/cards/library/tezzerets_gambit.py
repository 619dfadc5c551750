"""Tezzeret's Gambit {3}{U/P}, Sorcery.

Oracle text (catalog.json): "({U/P} can be paid with either {U} or 2 life.) Draw two cards, then
proliferate. (...)"

Automated: on resolution its controller draws two cards (from an unknown library they count as
unknown cards in hand; ``choices.cards`` may name them), then proliferates
(``choices.proliferate``). Paying {U/P} with 2 life is a cost the table reports (``pay_life``);
the server doesn't track mana.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.commands import Choices
from domain.rules.effects import effect
from domain.rules.proliferate import proliferate
from domain.rules.zones import draw
from domain.state import StackObject

NAME = "Tezzeret's Gambit"


@effect("tezzerets_gambit")
def _gambit(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    draw(b, obj.controller, 2, NAME, choices.cards)
    proliferate(b, obj.controller, choices.proliferate or (), NAME)
    return None


register(Behaviour(name=NAME, spell_effect="tezzerets_gambit", spell_needs=("proliferate",)))
