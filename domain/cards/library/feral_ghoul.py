"""Feral Ghoul {2}{B}, Creature — Zombie Mutant 2/2.

Oracle text (catalog.json):

- "Menace" — not tracked (combat is run by the table).
- "Whenever another creature you control dies, put a +1/+1 counter on this creature."
  Automated: triggers when another creature its controller controlled goes from the
  battlefield to a graveyard (tokens too). It looks back in time (CR 603.10a): it triggers
  even when the Ghoul dies at the same time, but then the counter has nowhere to go.
- "When this creature dies, each opponent gets a number of rad counters equal to its power."
  Automated: its power as it last existed on the battlefield (+1/+1 and -1/-1 counters and
  until-end-of-turn changes included; ruling-style last-known information, 608.2h).
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import players_get, source_permanent
from domain.cards.watchers import another_creature_you_control_dies, are_opponents, self_dies, trigger
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.state import StackObject

NAME = "Feral Ghoul"


@effect("feral_ghoul.grow")
def _grow(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    perm = source_permanent(b, obj)
    if perm is None:
        return "does nothing: the Ghoul has left the battlefield"
    add_counters(b, {"permanent": perm.id}, "+1/+1", 1, NAME)
    return None


@effect("feral_ghoul.dies")
def _dies(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    power = obj.params.get("last_known_power") or 0
    opponents = [p.id for p in b.state.in_game() if are_opponents(b.state, obj.controller, p.id)]
    players_get(b, opponents, "rad", int(power), NAME)
    return f"power as it last existed: {power}"


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                another_creature_you_control_dies,
                "feral_ghoul.grow",
                "another creature you control died: put a +1/+1 counter on this creature",
                leaves=True,
            ),
            trigger(
                self_dies,
                "feral_ghoul.dies",
                "it died: each opponent gets rad counters equal to its power",
                leaves=True,
            ),
        ),
    )
)
