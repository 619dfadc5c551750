"""Screeching Scorchbeast {4}{B}{B}, Creature — Bat Mutant 5/5.

Oracle text (catalog.json):

- "Flying, menace" — not tracked (combat is run by the table).
- "Whenever this creature attacks, each player gets two rad counters." Automated: triggers on an
  ``attack`` action naming it.
- "Whenever one or more nonland cards are milled, you may create that many 2/2 black Zombie
  Mutant creature tokens. Do this only once each turn." Automated: triggers once per mill event
  with a nonland card (ruling 2024-03-08: several players milling at once trigger it once);
  ``choices.may`` on resolution. "Do this only once each turn" (CR 603.2h): once tokens were
  created this turn, the ability no longer triggers that turn (and a second trigger already on
  the stack does nothing); declining leaves the option open. The use is recorded on the
  resolution (``remember``, ``turn_memory``).
  Doubling Season doubles the tokens.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import each_player, players_get
from domain.cards.tokens import ZOMBIE_MUTANT
from domain.cards.watchers import done_key, nonland_cards_milled, self_attacks, trigger
from domain.commands import Choices
from domain.rules.effects import Resolution, effect
from domain.rules.zones import create_tokens
from domain.state import StackObject

NAME = "Screeching Scorchbeast"


@effect("scorchbeast.rad")
def _rad(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    players_get(b, each_player(b), "rad", 2, NAME)
    return None


@effect("scorchbeast.tokens")
def _tokens(b: Builder, obj: StackObject, choices: Choices) -> Resolution | str | None:
    key = done_key(str(obj.source), "scorchbeast.tokens")
    if key in b.state.turn_memory:
        # Two triggers on the stack at once: the first to create tokens used the turn's once.
        return "does nothing: the tokens were already created this turn (do this only once each turn, CR 603.2h)"
    if not choices.may:
        return "chose not to create tokens"
    x = int(obj.params["x"])
    create_tokens(b, obj.controller, ZOMBIE_MUTANT, x, NAME)
    return Resolution(note=f"X = {x}", remember=key)


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                self_attacks, "scorchbeast.rad", "whenever this creature attacks, each player gets two rad counters"
            ),
            trigger(
                nonland_cards_milled,
                "scorchbeast.tokens",
                "you may create that many 2/2 black Zombie Mutant tokens (only once each turn)",
                needs=("may",),
                do_once_each_turn=True,
            ),
        ),
    )
)
