"""Vault 12: The Necropolis (Saga; lore counters CR 714.3c, sacrificed after III by 704.5s).

- "I — Each player gets three rad counters."
- "II — Create X 2/2 black Zombie Mutant creature tokens, where X is the total number of rad
  counters among players." (X counted on resolution, among players still in the game: ruling
  2024-03-08)
- "III — Put two +1/+1 counters on each creature you control that's a Zombie or Mutant."
  (two counters once, whether it is one type or both)
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, Chapter, register
from domain.cards.tokens import ZOMBIE_MUTANT
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.rules.zones import create_tokens
from domain.state import StackObject

NAME = "Vault 12: The Necropolis"


@effect("vault12.chapter1")
def _chapter_one(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    for player in b.state.in_game():
        add_counters(b, {"player": player.id}, "rad", 3, NAME)
    return None


@effect("vault12.chapter2")
def _chapter_two(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    x = sum(p.counters.get("rad", 0) for p in b.state.in_game())
    create_tokens(b, obj.controller, ZOMBIE_MUTANT, x, NAME)
    return f"X = {x}"


@effect("vault12.chapter3")
def _chapter_three(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    for perm in list(b.state.battlefield.values()):
        if perm.controller == obj.controller and perm.card.is_creature and perm.card.subtypes & {"Zombie", "Mutant"}:
            add_counters(b, {"permanent": perm.id}, "+1/+1", 2, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        chapters={
            1: Chapter(f"{NAME}, chapter I: each player gets three rad counters", "vault12.chapter1"),
            2: Chapter(
                f"{NAME}, chapter II: create X 2/2 black Zombie Mutant tokens (X counted on resolution)",
                "vault12.chapter2",
            ),
            3: Chapter(
                f"{NAME}, chapter III: two +1/+1 counters on each Zombie or Mutant creature you control",
                "vault12.chapter3",
            ),
        },
    )
)
