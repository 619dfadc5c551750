"""Nuclear Fallout: -2X/-2X until end of turn to each creature, X rad counters to each player."""

from domain import events as ev
from tests.cards.support import BEAR, Game, of_type, permanent

FALLOUT = "Nuclear Fallout"
GIANT = {"name": "Hill Giant", "type_line": "Creature — Giant", "power": "3", "toughness": "3"}
BIG = {"name": "Big", "type_line": "Creature — Beast", "power": "6", "toughness": "6"}


def _game() -> Game:
    return Game(
        players=[{"id": "P1", "hand": [FALLOUT]}, {"id": "P2"}],
        battlefield=[permanent("bear", BEAR), permanent("giant", GIANT, "P2"), permanent("big", BIG, "P2")],
    )


def test_each_creature_gets_twice_minus_x() -> None:
    """ "Each creature gets twice -X/-X until end of turn." With X = 1: -2/-2. The 2/2 dies as a
    state-based action (CR 704.5f); the 3/3 is a 1/1 and the 6/6 a 4/4 until end of turn."""
    game = _game()
    game.cast("P1", FALLOUT, x=1)
    events = game.resolve()
    assert len(of_type(events, ev.PowerToughnessModified.TYPE)) == 3
    assert game.on_battlefield("Grizzly Bears") == []
    assert game.state.battlefield["giant"].toughness() == 1
    assert game.state.battlefield["big"].power() == 4
    assert [c["name"] for c in game.player("P1")["graveyard"]] == [FALLOUT, "Grizzly Bears"]


def test_until_end_of_turn_with_damage_and_cleanup() -> None:
    """ "...until end of turn": damage marked that is now lethal destroys the creature (704.5g);
    the change ends in the cleanup step (CR 514.2)."""
    game = _game()
    game.damage({"permanent": "big"}, 2)
    game.cast("P1", FALLOUT, x=2)  # -4/-4: Big is 2/2 with 2 damage
    game.resolve()
    assert game.on_battlefield("Big") == []
    assert game.on_battlefield("Hill Giant") == []
    game2 = _game()
    game2.cast("P1", FALLOUT, x=1)
    game2.resolve()
    game2.advance("cleanup")
    assert game2.state.battlefield["big"].toughness() == 6


def test_each_player_gets_x_rad_counters() -> None:
    """ "Each player gets X rad counters." (CR 122.6; rad on players, 728)"""
    game = _game()
    game.cast("P1", FALLOUT, x=3)
    game.resolve()
    assert (game.rad("P1"), game.rad("P2")) == (3, 3)


def test_x_zero_changes_nothing() -> None:
    """X = 0: -0/-0 and no rad counters (no zero-amount events)."""
    game = _game()
    game.cast("P1", FALLOUT)
    events = game.resolve()
    assert of_type(events, ev.PowerToughnessModified.TYPE) == [] and of_type(events, ev.CountersAdded.TYPE) == []
