"""Infesting Radroach: combat damage gives "that many" rad counters, and a trigger from the
graveyard with an intervening "if"."""

from domain import events as ev
from tests.cards.support import BOLT, FOREST, Game, of_type, permanent

ROACH = "Infesting Radroach"


def test_combat_damage_that_many_rad() -> None:
    """ "Whenever this creature deals combat damage to a player, they get that many rad counters.\""""
    game = Game(battlefield=[permanent("roach", ROACH)])
    game.damage({"player": "P2"}, 2, source="roach", combat=True)
    game.resolve()
    assert game.rad("P2") == 2


def test_returns_from_graveyard_when_an_opponent_mills_a_nonland_card() -> None:
    """ "Whenever an opponent mills a nonland card, if this creature is in your graveyard, you may
    return it to your hand." It works from the graveyard (CR 113.6k), once per nonland card."""
    game = Game(players=[{"id": "P1", "graveyard": [ROACH], "library": []}, {"id": "P2", "library": [BOLT, FOREST]}])
    game.mill("P2", 2)
    assert len(game.stack()) == 1
    assert game.top()["needs"] == ["may"]
    game.resolve(may=True)
    p1 = game.player("P1")
    assert p1["graveyard"] == [] and p1["hand_size"] == 1
    assert of_type(game.events, ev.CardsMoved.TYPE)[-1].data["to"] == "hand"


def test_intervening_if_checked_again_on_resolution() -> None:
    """ "...if this creature is in your graveyard..." — an intervening-if (CR 603.4): two nonland
    cards milled trigger it twice; once the first returned it, the second does nothing."""
    game = Game(players=[{"id": "P1", "graveyard": [ROACH], "library": []}, {"id": "P2", "library": [BOLT, BOLT]}])
    game.mill("P2", 2)
    assert len(game.stack()) == 2
    game.resolve(may=True)
    events = game.resolve(may=True)
    assert "no longer in the graveyard" in events[-1].data["note"]
    assert game.player("P1")["hand_size"] == 1


def test_not_for_its_owners_own_mill_nor_from_the_battlefield() -> None:
    """ "Whenever an opponent mills..." — its owner's own mill doesn't trigger it; and on the
    battlefield it isn't in a graveyard."""
    game = Game(
        players=[{"id": "P1", "graveyard": [ROACH], "library": [BOLT]}, {"id": "P2", "library": [BOLT]}],
        battlefield=[permanent("roach", ROACH, "P2")],
    )
    game.mill("P1", 1)
    assert game.stack() == []
    game.mill("P2", 1)
    assert len(game.stack()) == 1  # only P1's graveyard copy, for P2's mill


def test_a_false_intervening_if_needs_no_may_answer() -> None:
    """The second trigger's "if this creature is in your graveyard" is false on resolution, so it
    does nothing (CR 603.4), and a "may" it will never ask is not required to resolve it."""
    game = Game(players=[{"id": "P1", "graveyard": [ROACH], "library": []}, {"id": "P2", "library": [BOLT, BOLT]}])
    game.mill("P2", 2)
    game.resolve(may=True)
    events = game.resolve()
    resolved = of_type(events, ev.StackObjectResolved.TYPE)
    assert resolved and "does nothing" in resolved[0].data["note"] and "CR 603.4" in resolved[0].data["note"]
    assert game.stack() == [] and game.player("P1")["hand_size"] == 1
