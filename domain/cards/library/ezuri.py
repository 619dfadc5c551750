"""Ezuri, Stalker of Spheres {2}{G}{U}, Legendary Creature — Phyrexian Elf Warrior 3/3.

Oracle text (catalog.json):

- "When Ezuri enters, you may pay {3}. If you do, proliferate twice." Automated: on resolution
  ``choices.may`` says whether {3} was paid (the server doesn't track mana); if so its
  controller proliferates twice, with one list of choices per proliferate
  (``"proliferate": [[...first...], [...second...]]``; a single list is used both times).
  The second proliferate sees the counters the first one added.
- "Whenever you proliferate, draw a card." Automated: triggers on each proliferate by its
  controller, from any source (a spell, an ability, a direct ``proliferate`` action), even when
  nothing was chosen (CR 701.34a); proliferating twice draws two cards (two triggers, put on the
  stack without asking for an order since they are identical).
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import proliferate_round
from domain.cards.watchers import self_enters, trigger, you_proliferate
from domain.commands import Choices
from domain.rules.effects import effect
from domain.rules.proliferate import proliferate
from domain.rules.zones import draw
from domain.state import StackObject

NAME = "Ezuri, Stalker of Spheres"


@effect("ezuri.draw")
def _draw(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    draw(b, obj.controller, 1, NAME, choices.cards)
    return None


@effect("ezuri.enter")
def _enter(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    if not choices.may:
        return "the {3} was not paid"
    first, second = proliferate_round(choices, 0), proliferate_round(choices, 1)
    proliferate(b, obj.controller, first, NAME)
    proliferate(b, obj.controller, second, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(you_proliferate, "ezuri.draw", "whenever you proliferate, draw a card"),
            trigger(
                self_enters,
                "ezuri.enter",
                "when Ezuri enters, you may pay {3}; if you do, proliferate twice",
                needs=("may",),
            ),
        ),
    )
)
