"""Ezuri, Stalker of Spheres.

- "Whenever you proliferate, draw a card." (triggers even when nothing was chosen, 701.34a)
- "When Ezuri enters, you may pay {3}. If you do, proliferate twice." (``may`` on resolution;
  the two proliferates take ``choices.proliferate`` and ``choices.proliferate_again``... the API
  has one list, so both use it)
"""

from __future__ import annotations

from collections.abc import Iterable

from domain import events as ev
from domain.builder import Builder
from domain.cards.behaviour import Behaviour, TriggerSpec, register
from domain.commands import Choices
from domain.rules.effects import effect
from domain.rules.proliferate import proliferate
from domain.rules.zones import draw
from domain.state import GameState, Permanent, StackObject

NAME = "Ezuri, Stalker of Spheres"


def _on_proliferate(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> Iterable[TriggerSpec]:
    if event.type == ev.PROLIFERATED and event.data["player"] == perm.controller and perm.id in after.battlefield:
        yield TriggerSpec(
            controller=perm.controller,
            source=perm.id,
            description=f"{NAME}: whenever you proliferate, draw a card",
            effect="ezuri.draw",
        )


def _on_enter(perm: Permanent, before: GameState, event: ev.Event, after: GameState) -> Iterable[TriggerSpec]:
    if event.type == ev.PERMANENT_ENTERED and event.data["permanent"]["id"] == perm.id:
        yield TriggerSpec(
            controller=perm.controller,
            source=perm.id,
            description=f"{NAME}: when Ezuri enters, you may pay {{3}}; if you do, proliferate twice",
            effect="ezuri.enter",
            params={"needs": ["may"]},
        )


@effect("ezuri.draw")
def _draw(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    draw(b, obj.controller, 1, NAME)
    return None


@effect("ezuri.enter")
def _enter(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    if not choices.may:
        return "the {3} was not paid"
    proliferate(b, obj.controller, choices.proliferate or (), NAME)
    proliferate(b, obj.controller, choices.proliferate or (), NAME)
    return None


register(Behaviour(name=NAME, watchers=(_on_proliferate, _on_enter)))
