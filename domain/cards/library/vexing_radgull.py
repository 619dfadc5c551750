"""Vexing Radgull {1}{U}, Creature — Bird Mutant 1/2.

Oracle text (catalog.json):

- "Flying" — not tracked (combat is run by the table).
- "Whenever this creature deals combat damage to a player, that player gets two rad counters if
  they don't have any rad counters. Otherwise, proliferate. (...)" Automated: triggers on
  ``damage`` with ``"source": <its id>``, ``"combat": true`` and a player target. Whether the
  player has rad counters is checked on resolution: with none they get two; otherwise the
  Radgull's controller proliferates, and ``resolve`` then needs ``choices.proliferate``.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import players_get
from domain.cards.watchers import self_deals_combat_damage_to_player, trigger
from domain.commands import Choices
from domain.rules.effects import effect, needs
from domain.rules.proliferate import proliferate
from domain.state import GameState, StackObject

NAME = "Vexing Radgull"


def _has_rad(state: GameState, player_id: str) -> bool:
    return state.players[player_id].counters.get("rad", 0) > 0


@needs("radgull.damage")
def _needs(state: GameState, obj: StackObject) -> list[str]:
    return ["proliferate"] if _has_rad(state, obj.params["player"]) else []


@effect("radgull.damage")
def _damage(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    player = obj.params["player"]
    if not _has_rad(b.state, player):
        players_get(b, [player], "rad", 2, NAME)
        return f"{player} had no rad counters: two rad counters"
    proliferate(b, obj.controller, choices.proliferate or (), NAME)
    return f"{player} had rad counters: proliferate"


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                self_deals_combat_damage_to_player,
                "radgull.damage",
                "combat damage to a player: two rad counters if they have none; otherwise, proliferate",
            ),
        ),
    )
)
