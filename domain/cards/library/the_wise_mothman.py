"""The Wise Mothman {1}{B}{G}{U}, Legendary Creature — Insect Mutant 3/3.

Oracle text (catalog.json):

- "Flying" — not tracked (combat is run by the table).
- "Whenever The Wise Mothman enters or attacks, each player gets a rad counter." Automated: it
  triggers on entering and on an ``attack`` action naming it (``AttackersDeclared``); each
  player still in the game gets one rad counter on resolution.
- "Whenever one or more nonland cards are milled, put a +1/+1 counter on each of up to X target
  creatures, where X is the number of nonland cards milled this way." Automated: once per mill
  event with at least one nonland card (any player's mill; Fallout ruling 2024-03-08: cards
  milled at once trigger it once), X = that event's ``nonland_count``. ``resolve`` names the
  creatures (zero to X, distinct) in ``choices.targets``.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import each_player, players_get
from domain.cards.watchers import nonland_cards_milled, self_attacks, self_enters, trigger
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.state import StackObject

NAME = "The Wise Mothman"


@effect("mothman.rad")
def _rad(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    players_get(b, each_player(b), "rad", 1, NAME)
    return None


@effect("mothman.counters")
def _counters(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    x = int(obj.params["x"])
    chosen = tg.check(b.state, obj.controller, choices.targets or (), "creature", 0, x)
    for target in chosen:
        add_counters(b, target, "+1/+1", 1, NAME)
    return f"X = {x}; {len(chosen)} creature(s) chosen"


_RAD_TEXT = "whenever The Wise Mothman enters or attacks, each player gets a rad counter"

register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(self_enters, "mothman.rad", _RAD_TEXT),
            trigger(self_attacks, "mothman.rad", _RAD_TEXT),
            trigger(
                nonland_cards_milled,
                "mothman.counters",
                "put a +1/+1 counter on each of up to X target creatures (X = nonland cards milled)",
            ),
        ),
    )
)
