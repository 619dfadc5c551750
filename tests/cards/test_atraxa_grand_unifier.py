"""Atraxa, Grand Unifier: reveal ten, one card of each card type to hand, the rest to the bottom."""

from domain import events as ev
from tests.cards.support import BEAR, BOLT, FOREST, Game, of_type

ATRAXA = "Atraxa, Grand Unifier"
ORNITHOPTER = {"name": "Ornithopter", "type_line": "Artifact Creature — Thopter", "power": "0", "toughness": "2"}
SORCERY = {"name": "Flame Rift", "type_line": "Sorcery"}
LIBRARY = [BEAR, BOLT, FOREST, ORNITHOPTER, SORCERY, BEAR, FOREST, BOLT, FOREST, FOREST, "Island", "Swamp"]


def test_one_card_of_each_type_to_hand_rest_to_bottom() -> None:
    """ "When Atraxa enters, reveal the top ten cards of your library. For each card type, you may
    put a card of that type from among the revealed cards into your hand. Put the rest on the
    bottom of your library in a random order." Ornithopter counts as the artifact, Bears as the
    creature; the other eight go to the bottom, their order unknown."""
    game = Game(players=[{"id": "P1", "library": LIBRARY}, {"id": "P2"}])
    game.enter(ATRAXA)
    events = game.resolve(targets=["Grizzly Bears", "Lightning Bolt", "Forest", "Ornithopter", {"card": "Flame Rift"}])
    p1 = game.player("P1")
    assert p1["hand_size"] == 5
    assert p1["library_size"] == 12 - 5
    assert [c["name"] for c in p1["library"]] == ["Island", "Swamp"]  # the ten-card rest is unknown now
    moved = of_type(events, ev.CardsMoved.TYPE)
    assert [m.data["to"] for m in moved] == ["hand", "library_bottom"]
    assert moved[1].data["random_order"] is True


def test_one_card_per_card_type() -> None:
    """ "For each card type, you may put a card of that type" — two creature cards can't both go
    (unless one counts as another type it has); a card not revealed can't be chosen."""
    game = Game(players=[{"id": "P1", "library": LIBRARY}, {"id": "P2"}])
    game.enter(ATRAXA)
    game.refused({"type": "resolve", "choices": {"targets": ["Grizzly Bears", "Grizzly Bears"]}}, "illegal_choice")
    game.refused({"type": "resolve", "choices": {"targets": ["Island"]}}, "illegal_choice")
    # Ornithopter is an artifact and a creature: with the Bears it fills both types.
    game.resolve(targets=["Ornithopter", "Grizzly Bears"])
    assert game.player("P1")["hand_size"] == 2


def test_unknown_library_needs_the_revealed_cards() -> None:
    """Paper play: with an unknown library the ten revealed cards are named in choices.cards."""
    game = Game(players=[{"id": "P1", "library": [BEAR], "library_size": 20}, {"id": "P2"}])
    game.enter(ATRAXA)
    assert game.top()["needs"] == ["cards"]
    revealed = [BEAR, *([FOREST] * 8), BOLT]
    game.refused({"type": "resolve", "choices": {"cards": [BOLT, *([FOREST] * 9)]}}, "illegal_choice")
    game.resolve(cards=revealed, targets=["Lightning Bolt"])
    p1 = game.player("P1")
    assert p1["hand_size"] == 1 and p1["library_size"] == 19


def test_fewer_than_ten_cards() -> None:
    """With fewer than ten cards in the library, all of them are revealed."""
    game = Game(players=[{"id": "P1", "library": [BEAR, FOREST]}, {"id": "P2"}])
    game.enter(ATRAXA)
    game.resolve(targets=[])
    assert game.player("P1")["library_size"] == 2
