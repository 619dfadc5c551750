"""Strong, the Brutish Thespian {4}{G}{G}, Legendary Creature — Mutant Berserker 7/7.

Oracle text (catalog.json):

- "Ward {2}" — not automated: the table counters a spell or ability an opponent controls that
  targets Strong unless its controller pays {2} (CR 702.21a), and reports the result.
- "Enrage — Whenever Strong is dealt damage, you get three rad counters and put three +1/+1
  counters on Strong." Automated: triggers on every ``DamageDealt`` to it (any source, combat or
  not, amount above 0); the +1/+1 counters go on only if Strong is still on the battlefield
  (Hardened Scales and Doubling Season apply).
- "You gain life rather than lose life from radiation." Automated (CR 728.1a): while its
  controller controls Strong, the rad trigger's life loss for that player becomes a gain of
  the same amount; the rad counters are still removed.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import players_get, source_permanent
from domain.cards.watchers import self_dealt_damage, trigger
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.state import StackObject

NAME = "Strong, the Brutish Thespian"


@effect("strong.enrage")
def _enrage(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    players_get(b, [obj.controller], "rad", 3, NAME)
    perm = source_permanent(b, obj)
    if perm is None:
        return "no +1/+1 counters: Strong has left the battlefield"
    add_counters(b, {"permanent": perm.id}, "+1/+1", 3, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                self_dealt_damage,
                "strong.enrage",
                "enrage — you get three rad counters and put three +1/+1 counters on Strong",
            ),
        ),
        radiation_gain_instead=True,
    )
)
