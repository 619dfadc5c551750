"""Acquired Mutation {2}{R}, Enchantment — Aura.

Oracle text (catalog.json):

- "Enchant creature" — automated: cast it with ``targets: [{"permanent": id}]`` naming a
  creature (checked, CR 303.4a, 601.2c); it enters attached to it (608.3c), or goes to the
  graveyard if the creature is gone by then (608.3b). When the creature leaves, the Aura goes to
  its owner's graveyard as a state-based action (704.5m).
- "Enchanted creature gets +2/+2 and is goaded. (...)" — the +2/+2 is applied where the server
  reads toughness (state-based actions 704.5f/g; ``domain.rules.characteristics``); goad is not
  tracked (combat is reported by the table).
- "Whenever enchanted creature attacks, defending player gets two rad counters." Automated:
  triggers on an ``attack`` action naming the enchanted creature; the defending player is the
  player it attacks, or the controller of the planeswalker it attacks (CR 506.2).
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import players_get
from domain.cards.watchers import enchanted_creature_attacks, trigger
from domain.commands import Choices
from domain.rules.effects import effect
from domain.state import StackObject

NAME = "Acquired Mutation"


@effect("acquired_mutation.rad")
def _rad(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    players_get(b, [obj.params["defending_player"]], "rad", 2, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        spell_targets=tg.checker("creature"),
        enchanted_bonus=(2, 2),
        watchers=(
            trigger(
                enchanted_creature_attacks,
                "acquired_mutation.rad",
                "enchanted creature attacks: defending player gets two rad counters",
            ),
        ),
    )
)
