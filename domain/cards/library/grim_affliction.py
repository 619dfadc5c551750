"""Grim Affliction {2}{B}, Instant.

Oracle text (catalog.json): "Put a -1/-1 counter on target creature, then proliferate. (...)"

Automated: cast with ``targets: [{"permanent": id}]`` naming a creature (checked, CR 601.2c).
On resolution (``choices.proliferate`` needed) the creature gets the -1/-1 counter, then its
controller proliferates (the creature may be chosen again and get a second one). If the target
is no longer a legal creature, the spell doesn't resolve at all and nothing is proliferated
(CR 608.2b); it still goes to the graveyard.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import Behaviour, register
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import Resolution, effect, illegal_targets
from domain.rules.proliferate import proliferate
from domain.state import StackObject

NAME = "Grim Affliction"


@effect("grim_affliction", targets="creature")
def _grim(b: Builder, obj: StackObject, choices: Choices) -> str | Resolution | None:
    legal = tg.still_legal(b.state, obj.controller, obj.params.get("targets"), "creature")
    if not legal:
        return illegal_targets()
    add_counters(b, legal[0], "-1/-1", 1, NAME)
    proliferate(b, obj.controller, choices.proliferate or (), NAME)
    return None


register(
    Behaviour(
        name=NAME,
        spell_effect="grim_affliction",
        spell_needs=("proliferate",),
        spell_targets=tg.checker("creature"),
    )
)
