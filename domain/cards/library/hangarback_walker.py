"""Hangarback Walker {X}{X}, Artifact Creature — Construct 0/0.

Oracle text (catalog.json):

- "This creature enters with X +1/+1 counters on it." Automated with the X given on ``cast``
  (CR 107.3m, 614.1c); Hardened Scales and Doubling Season apply. With X = 0 it is a 0/0 and
  dies at once (704.5f), making no Thopters.
- "When this creature dies, create a 1/1 colorless Thopter artifact creature token with flying
  for each +1/+1 counter on this creature." Automated: counts the +1/+1 counters it had as it
  last existed on the battlefield (603.10a); Doubling Season doubles the tokens.
- "{1}, {T}: Put a +1/+1 counter on this creature." Automated: {T} and summoning sickness are
  checked (107.5, 302.6); the {1} is mana, which the server doesn't track.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import ActivatedAbility, Behaviour, register
from domain.cards.helpers import source_permanent
from domain.cards.tokens import THOPTER
from domain.cards.watchers import self_dies, trigger
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.rules.zones import create_tokens
from domain.state import StackObject

NAME = "Hangarback Walker"


@effect("hangarback.thopters")
def _thopters(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    n = int(dict(obj.params.get("last_known_counters") or {}).get("+1/+1", 0))
    create_tokens(b, obj.controller, THOPTER, n, NAME)
    return f"{n} +1/+1 counter(s) as it last existed"


@effect("hangarback.grow")
def _grow(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    perm = source_permanent(b, obj)
    if perm is None:
        return "does nothing: it has left the battlefield"
    add_counters(b, {"permanent": perm.id}, "+1/+1", 1, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        enters_with_x_counters="+1/+1",
        watchers=(
            trigger(
                self_dies,
                "hangarback.thopters",
                "it died: create a 1/1 Thopter token with flying for each +1/+1 counter on it",
                leaves=True,
            ),
        ),
        abilities=(
            ActivatedAbility(
                text="{1}, {T}: Put a +1/+1 counter on this creature.", tap=True, effect="hangarback.grow"
            ),
        ),
    )
)
