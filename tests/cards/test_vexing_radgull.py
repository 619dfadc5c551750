"""Vexing Radgull: two rad counters if the player has none, otherwise proliferate."""

from tests.cards.support import Game, permanent


def test_two_rad_counters_if_they_have_none() -> None:
    """ "Whenever this creature deals combat damage to a player, that player gets two rad counters
    if they don't have any rad counters.\""""
    game = Game(battlefield=[permanent("gull", "Vexing Radgull")])
    game.damage({"player": "P2"}, 1, source="gull", combat=True)
    assert game.top()["needs"] == []
    game.resolve()
    assert game.rad("P2") == 2


def test_otherwise_proliferate() -> None:
    """ "Otherwise, proliferate." Checked on resolution: P2 has rad counters, so its controller
    proliferates, and resolve needs the proliferate choices (CR 701.34a)."""
    game = Game(
        players=[{"id": "P1"}, {"id": "P2", "counters": {"rad": 1, "poison": 1}}],
        battlefield=[permanent("gull", "Vexing Radgull")],
    )
    game.damage({"player": "P2"}, 1, source="gull", combat=True)
    assert game.top()["needs"] == ["proliferate"]
    game.refused({"type": "resolve"}, "choice_required")
    game.resolve(proliferate=[{"player": "P2"}])
    assert game.player("P2")["counters"] == {"rad": 2, "poison": 2}


def test_condition_read_on_resolution() -> None:
    """The condition is read as the ability resolves: a rad counter given in response makes it
    proliferate instead."""
    game = Game(battlefield=[permanent("gull", "Vexing Radgull")])
    game.damage({"player": "P2"}, 1, source="gull", combat=True)
    game.act({"type": "add_counters", "target": {"player": "P2"}, "kind": "rad", "amount": 1})
    assert game.top()["needs"] == ["proliferate"]
    game.resolve(proliferate=[])
    assert game.rad("P2") == 1
