"""Soul Stair Expedition {B}, Enchantment.

Oracle text (catalog.json):

- "Landfall — Whenever a land you control enters, you may put a quest counter on this
  enchantment." Automated: the trigger goes on the stack for each land its controller's
  battlefield gains (Dryad Arbor included); on resolution ``choices.may`` says whether the
  counter is put (Doubling Season doubles it).
- "Remove three quest counters from this enchantment and sacrifice it: Return up to two target
  creature cards from your graveyard to your hand." Automated: the costs are checked and paid
  (CR 118.3, 701.21); ``targets`` name zero to two creature cards in the activating player's
  graveyard (``{"card": name}``), checked on activation; on resolution the ones still there
  return to hand (608.2b), recorded as ``CardsMoved``.
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import ActivatedAbility, Behaviour, register
from domain.cards.helpers import move_cards, source_permanent, take_from_graveyard
from domain.cards.watchers import land_you_control_enters, trigger
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import Resolution, effect, illegal_targets
from domain.state import StackObject

NAME = "Soul Stair Expedition"


@effect("soul_stair.quest")
def _quest(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    if not choices.may:
        return "chose not to put a quest counter"
    perm = source_permanent(b, obj)
    if perm is None:
        return "does nothing: the enchantment has left the battlefield"
    add_counters(b, {"permanent": perm.id}, "quest", 1, NAME)
    return None


@effect("soul_stair.return", targets="creature_card_in_your_graveyard")
def _return(b: Builder, obj: StackObject, choices: Choices) -> str | Resolution | None:
    named = obj.params.get("targets") or []
    if not named:
        return "no targets chosen"
    legal = tg.still_legal(b.state, obj.controller, named, "creature_card_in_your_graveyard")
    cards = take_from_graveyard(b, obj.controller, [t["card"] for t in legal])
    if not cards:
        return illegal_targets()
    move_cards(b, obj.controller, cards, "graveyard", "hand", NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                land_you_control_enters,
                "soul_stair.quest",
                "landfall — you may put a quest counter on this enchantment",
                needs=("may",),
            ),
        ),
        abilities=(
            ActivatedAbility(
                text="Remove three quest counters from this enchantment and sacrifice it: Return up to two "
                "target creature cards from your graveyard to your hand.",
                remove_counters={"quest": 3},
                sacrifice_self=True,
                targets=tg.checker("creature_card_in_your_graveyard", 0, 2),
                effect="soul_stair.return",
            ),
        ),
    )
)
