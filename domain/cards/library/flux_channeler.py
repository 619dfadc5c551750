"""Flux Channeler {2}{U}, Creature — Human Wizard 2/2.

Oracle text (catalog.json): "Whenever you cast a noncreature spell, proliferate. (...)"

Automated: triggers on each ``cast`` by its controller of a card that isn't a creature card
(instants, sorceries, artifacts, enchantments, planeswalkers...); it resolves before the spell,
with ``choices.proliferate``.
"""

from __future__ import annotations

from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import proliferate_effect
from domain.cards.watchers import trigger, you_cast_noncreature_spell

NAME = "Flux Channeler"


proliferate_effect("flux_channeler", NAME)


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                you_cast_noncreature_spell,
                "flux_channeler",
                "you cast a noncreature spell: proliferate",
                needs=("proliferate",),
            ),
        ),
    )
)
