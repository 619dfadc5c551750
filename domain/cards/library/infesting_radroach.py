"""Infesting Radroach {2}{B}, Creature — Insect Mutant 2/2.

Oracle text (catalog.json):

- "Flying", "This creature can't block." — not tracked (combat is run by the table).
- "Whenever this creature deals combat damage to a player, they get that many rad counters."
  Automated: triggers on ``damage`` with ``"source": <its id>``, ``"combat": true`` and a player
  target; that player gets rad counters equal to the damage dealt.
- "Whenever an opponent mills a nonland card, if this creature is in your graveyard, you may
  return it to your hand." Automated from the graveyard: once per nonland card an opponent of
  its owner mills, while the card is in its owner's graveyard. It is an intervening-if (CR
  603.4): checked when it triggers and again on resolution (a second trigger does nothing once
  the first returned it). ``choices.may`` on resolution; the return is a ``CardsMoved``.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain import events as ev
from domain.builder import Builder
from domain.cards.behaviour import Behaviour, TriggerSpec, register
from domain.cards.helpers import move_cards, players_get, take_from_graveyard
from domain.cards.model import Card
from domain.cards.watchers import are_opponents, self_deals_combat_damage_to_player, trigger
from domain.commands import Choices
from domain.rules.effects import effect
from domain.state import GameState, StackObject

NAME = "Infesting Radroach"


def _opponent_mills(
    card: Card, owner: str, before: GameState, event: ev.Event, after: GameState
) -> Iterator[TriggerSpec]:
    e = event.payload
    if not isinstance(e, ev.CardsMilled) or not are_opponents(after, owner, e.player):
        return
    for _ in range(e.nonland_count):
        yield TriggerSpec(
            controller=owner,
            source=None,
            description=f"{NAME} (in {owner}'s graveyard): an opponent milled a nonland card; "
            "if it is still in your graveyard, you may return it to your hand",
            effect="radroach.return",
            params={"owner": owner, "needs": ["may"]},
            source_name=NAME,
        )


@effect("radroach.rad")
def _rad(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    players_get(b, [obj.params["player"]], "rad", int(obj.params["amount"]), NAME)
    return None


def _still_in_graveyard(state: GameState, obj: StackObject) -> str | None:
    """The intervening "if this creature is in your graveyard", read again on resolution."""
    owner = state.players.get(obj.params["owner"])
    if owner is None or all(card.name != NAME for card in owner.graveyard):
        return "it is no longer in the graveyard"
    return None


@effect("radroach.return", intervening_if=_still_in_graveyard)
def _return(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    owner = obj.params["owner"]
    cards = take_from_graveyard(b, owner, [NAME])
    if not choices.may:
        return "chose not to return it"
    move_cards(b, owner, cards, "graveyard", "hand", NAME)
    return None


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                self_deals_combat_damage_to_player,
                "radroach.rad",
                "combat damage to a player: they get that many rad counters",
            ),
        ),
        graveyard_watchers=(_opponent_mills,),
    )
)
