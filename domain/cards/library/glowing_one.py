"""Glowing One {2}{G}, Creature — Zombie Mutant 2/2.

Oracle text (catalog.json):

- "Deathtouch" — automated for damage reported with ``"source": <its id>``: a creature dealt
  damage by it is destroyed (CR 702.2b, 704.5h).
- "Whenever this creature deals combat damage to a player, they get four rad counters."
  Automated: triggers on ``damage`` with ``"source": <its id>``, ``"combat": true`` and a player
  target (510.3a).
- "Whenever a player mills a nonland card, you gain 1 life." Automated: once per nonland card
  milled, by any player (ruling 2024-03-08: a player milling four nonland cards at once
  triggers it four times). Identical triggers go on the stack without asking for an order.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import players_get
from domain.cards.watchers import player_mills_nonland_card, self_deals_combat_damage_to_player, trigger
from domain.commands import Choices
from domain.rules.effects import effect
from domain.rules.life import gain_life
from domain.state import StackObject

NAME = "Glowing One"


@effect("glowing_one.rad")
def _rad(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    players_get(b, [obj.params["player"]], "rad", 4, NAME)
    return None


@effect("glowing_one.life")
def _life(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    gain_life(b, obj.controller, 1, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                self_deals_combat_damage_to_player,
                "glowing_one.rad",
                "combat damage to a player: they get four rad counters",
            ),
            trigger(player_mills_nonland_card, "glowing_one.life", "a player milled a nonland card: you gain 1 life"),
        ),
    )
)
