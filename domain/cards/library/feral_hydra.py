"""Feral Hydra.

- "This creature enters with X +1/+1 counters on it." (CR 614.1c; X from the spell, 107.3m)
- "{3}: Put a +1/+1 counter on this creature. Any player may activate this ability."
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import ActivatedAbility, Behaviour, register
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.state import StackObject


@effect("feral_hydra.counter")
def _counter(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    if obj.source is None or obj.source not in b.state.battlefield:
        return "does nothing: Feral Hydra has left the battlefield"
    add_counters(b, {"permanent": obj.source}, "+1/+1", 1, "Feral Hydra")
    return None


register(
    Behaviour(
        name="Feral Hydra",
        enters_with_x_counters="+1/+1",
        abilities=(
            ActivatedAbility(
                text="{3}: Put a +1/+1 counter on this creature. Any player may activate this ability.",
                effect="feral_hydra.counter",
                any_player=True,
            ),
        ),
    )
)
