"""Mirelurk Queen {4}{U}, Creature — Crab Mutant 4/4.

Oracle text (catalog.json):

- "Vigilance" — automated for ``attack``: it doesn't tap to attack (CR 702.20b).
- "When this creature enters, target player gets two rad counters." Automated: ``resolve``
  names the player in ``choices.targets`` (``[{"player": "P2"}]``).
- "Whenever one or more nonland cards are milled, draw a card, then put a +1/+1 counter on this
  creature. This ability triggers only once each turn." Automated: once per mill event with a
  nonland card, and at most once a turn (a second mill that turn doesn't trigger it); the
  counter goes on only if the Queen is still on the battlefield.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import players_get, source_permanent
from domain.cards.watchers import nonland_cards_milled, self_enters, trigger
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.rules.zones import draw
from domain.state import StackObject

NAME = "Mirelurk Queen"


@effect("mirelurk_queen.etb")
def _etb(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    target = tg.check(b.state, obj.controller, choices.targets, "player", 1, 1)[0]
    players_get(b, [target["player"]], "rad", 2, NAME)
    return None


@effect("mirelurk_queen.milled")
def _milled(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    draw(b, obj.controller, 1, NAME, choices.cards)
    perm = source_permanent(b, obj)
    if perm is None:
        return "drew; no counter: the Queen has left the battlefield"
    add_counters(b, {"permanent": perm.id}, "+1/+1", 1, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(self_enters, "mirelurk_queen.etb", "target player gets two rad counters", needs=("targets",)),
            trigger(
                nonland_cards_milled,
                "mirelurk_queen.milled",
                "draw a card, then put a +1/+1 counter on this creature (triggers only once each turn)",
                once_each_turn=True,
            ),
        ),
    )
)
