"""Switcheroo: exchange control of two target creatures."""

from domain import events as ev
from tests.cards.support import BEAR, Game, of_type, permanent

SWITCH = "Switcheroo"
GIANT = {"name": "Hill Giant", "type_line": "Creature — Giant", "power": "3", "toughness": "3"}


def _game() -> Game:
    return Game(
        players=[{"id": "P1", "hand": [SWITCH]}, {"id": "P2"}],
        battlefield=[permanent("bear", BEAR), permanent("giant", GIANT, "P2"), permanent("bear2", BEAR)],
    )


def test_exchange_control() -> None:
    """ "Exchange control of two target creatures." Each controller gains control of the other's
    creature (CR 701.12b); the new controller hasn't controlled it since their turn began, so it
    is summoning sick (302.6)."""
    game = _game()
    game.cast("P1", SWITCH, targets=[{"permanent": "bear"}, {"permanent": "giant"}])
    events = game.resolve()
    assert len(of_type(events, ev.ControlChanged.TYPE)) == 2
    assert game.perm("bear")["controller"] == "P2"
    assert game.perm("giant")["controller"] == "P1"
    assert game.perm("giant")["summoning_sick"] is True


def test_two_distinct_creature_targets() -> None:
    """ "two target creatures": two different creatures (CR 115.3), checked when cast."""
    game = _game()
    game.refused(
        {"type": "cast", "player": "P1", "card": SWITCH, "targets": [{"permanent": "bear"}, {"permanent": "bear"}]},
        "illegal_target",
    )
    game.refused({"type": "cast", "player": "P1", "card": SWITCH, "targets": [{"permanent": "bear"}]}, "illegal_target")


def test_illegal_target_no_exchange() -> None:
    """If one target is gone the exchange can't be completed, so none of it happens (701.12a)."""
    game = _game()
    game.cast("P1", SWITCH, targets=[{"permanent": "bear"}, {"permanent": "giant"}])
    game.act({"type": "sacrifice", "permanent": "giant"})
    events = game.resolve()
    assert of_type(events, ev.ControlChanged.TYPE) == []
    assert game.perm("bear")["controller"] == "P1"


def test_same_controller_does_nothing() -> None:
    """Two creatures with the same controller: the exchange does nothing (701.12b)."""
    game = _game()
    game.cast("P1", SWITCH, targets=[{"permanent": "bear"}, {"permanent": "bear2"}])
    events = game.resolve()
    assert of_type(events, ev.ControlChanged.TYPE) == []
