"""Atraxa, Grand Unifier {3}{G}{W}{U}{B}, Legendary Creature — Phyrexian Angel 7/7.

Oracle text (catalog.json):

- "Flying, vigilance, deathtouch, lifelink" — vigilance automated for ``attack``; deathtouch
  and lifelink for damage reported with ``"source": <its id>``; flying not tracked.
- "When Atraxa enters, reveal the top ten cards of your library. For each card type, you may put
  a card of that type from among the revealed cards into your hand. Put the rest on the bottom
  of your library in a random order. (Artifact, battle, creature, enchantment, instant, kindred,
  land, planeswalker, and sorcery are card types.)" Automated: on resolution the top ten (as
  many as there are) are revealed: the known library cards, and for an unknown library
  ``choices.cards`` names the revealed cards, top first (all of them). ``choices.targets`` names
  the cards put into hand (card names, or ``{"card": name}``; not targets in the CR sense): each
  must be among the revealed cards, and the chosen cards must be matched to distinct card types
  (a card with two types counts for one of them). They are recorded as ``CardsMoved`` to hand;
  the rest go to the bottom in a random order, so the server no longer knows them (they join
  the unknown part of the library).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import move_cards
from domain.cards.model import Card
from domain.cards.watchers import self_enters, trigger
from domain.commands import Choices
from domain.errors import Code, IllegalAction
from domain.rules.effects import effect, needs
from domain.state import GameState, StackObject

NAME = "Atraxa, Grand Unifier"
#: Card types (CR 300.1; "tribal" became "kindred" in 2024).
CARD_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker", "Sorcery")


def _card_types(card: Card) -> set[str]:
    types = set(card.types) & set(CARD_TYPES)
    if "Tribal" in card.types:
        types.add("Kindred")
    return types


def matching(cards: Sequence[Card]) -> dict[int, str] | None:
    """Assign each card a distinct card type it has (a bipartite matching), or ``None``."""
    assignment: dict[str, int] = {}

    def place(i: int, tried: set[str]) -> bool:
        for kind in sorted(_card_types(cards[i])):
            if kind in tried:
                continue
            tried.add(kind)
            if kind not in assignment or place(assignment[kind], tried):
                assignment[kind] = i
                return True
        return False

    for i in range(len(cards)):
        if not place(i, set()):
            return None
    return {i: kind for kind, i in assignment.items()}


def _revealed(state: GameState, obj: StackObject, choices: Choices) -> list[Card]:
    player = state.players[obj.controller]
    n = min(10, player.library_size)
    known = list(player.library[:n])
    if n <= len(known):
        return known
    given = list(choices.cards or ())
    if len(given) != n:
        raise IllegalAction(
            f"{NAME}: {obj.controller!r}'s library is not fully known: choices.cards must name the {n} revealed "
            f"cards, top first; got {len(given)}",
            "choice_required" if not given else "wrong_card_count",
        )
    for i, card in enumerate(known):
        if given[i].name != card.name:
            raise IllegalAction(
                f"{NAME}: card {i + 1} from the top is not {given[i].name!r}",
                Code.ILLEGAL_CHOICE,
                hidden=f"it is {card.name!r}",
            )
    return given


@needs("atraxa_gu.reveal")
def _needs(state: GameState, obj: StackObject) -> list[str]:
    player = state.players[obj.controller]
    return ["cards"] if min(10, player.library_size) > len(player.library) else []


@effect("atraxa_gu.reveal")
def _reveal(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    revealed = _revealed(b.state, obj, choices)
    names = [t["card"] for t in tg.parse_all(choices.targets, "choices.targets") if "card" in t]
    if len(names) != len(choices.targets or ()):
        raise IllegalAction(
            f"{NAME}: choices.targets must name revealed cards, got {choices.targets!r}", Code.ILLEGAL_CHOICE
        )
    rest = list(revealed)
    chosen: list[Card] = []
    for name in names:
        found = next((c for c in rest if c.name == name), None)
        if found is None:
            raise IllegalAction(
                f"{NAME}: {name!r} is not among the revealed cards (or not that many copies)",
                Code.ILLEGAL_CHOICE,
                hidden=f"revealed: {[c.name for c in revealed]}",
            )
        rest.remove(found)
        chosen.append(found)
    if matching(chosen) is None:
        raise IllegalAction(
            f"{NAME}: {names} can't each be the card of a different card type (one card per type)", Code.ILLEGAL_CHOICE
        )
    move_cards(b, obj.controller, chosen, "library", "hand", NAME)
    move_cards(b, obj.controller, rest, "library", "library_bottom", NAME, random_order=True)
    return f"revealed {len(revealed)}; {len(chosen)} to hand, {len(rest)} to the bottom in a random order"


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                self_enters,
                "atraxa_gu.reveal",
                "reveal the top ten cards; one card of each card type to your hand, the rest on the bottom",
            ),
        ),
    )
)
