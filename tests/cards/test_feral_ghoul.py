"""Feral Ghoul: "another creature you control dies" (look back in time) and "when this dies"
with its power as it last existed."""

from tests.cards.support import BEAR, Game, permanent

GHOUL = "Feral Ghoul"


def test_another_creature_you_control_dies() -> None:
    """ "Whenever another creature you control dies, put a +1/+1 counter on this creature." (dies:
    put into a graveyard from the battlefield, CR 700.4); an opponent's creature dying doesn't
    count."""
    game = Game(battlefield=[permanent("ghoul", GHOUL), permanent("bear", BEAR), permanent("obear", BEAR, "P2")])
    game.act({"type": "sacrifice", "permanent": "obear"})
    assert game.stack() == []
    game.act({"type": "sacrifice", "permanent": "bear"})
    game.resolve()
    assert game.counters("ghoul") == {"+1/+1": 1}


def test_dies_opponents_get_rad_equal_to_power() -> None:
    """ "When this creature dies, each opponent gets a number of rad counters equal to its power."
    Its power as it last existed: 2 + one +1/+1 counter = 3 (last-known information, 603.10a)."""
    game = Game(battlefield=[permanent("ghoul", GHOUL, counters={"+1/+1": 1})])
    game.act({"type": "move", "permanent": "ghoul", "to": "graveyard"})
    game.resolve()
    assert (game.rad("P1"), game.rad("P2")) == (0, 3)


def test_dying_together_looks_back_in_time() -> None:
    """Leaves-the-battlefield abilities look back in time (CR 603.10a): the Ghoul and a Bears die
    in the same state-based action check; the Ghoul's first ability still triggers for the Bears
    (the counter has nowhere to go), and its own dies trigger sees its power."""
    game = Game(
        players=[{"id": "P1", "hand": ["Nuclear Fallout"]}, {"id": "P2"}],
        battlefield=[permanent("ghoul", GHOUL), permanent("bear", BEAR)],
    )
    game.cast("P1", "Nuclear Fallout", x=1)
    game.resolve()  # -2/-2: both 2/2s die at once (704.5f); each player gets 1 rad
    assert game.on_battlefield(GHOUL) == [] and game.on_battlefield("Grizzly Bears") == []
    pending = game.view()["pending_order"]  # two different triggers of P1: P1 orders them (603.3b)
    descriptions = [t["description"] for t in pending["triggers"]]
    assert any("another creature" in d for d in descriptions)
    assert any("equal to its power" in d for d in descriptions)
    game.act({"type": "order_triggers", "resolve_first": [t["id"] for t in pending["triggers"]]})
    game.resolve_all()
    # Its power as it last existed: 2 - 2 (Nuclear Fallout) = 0, so no rad from its own trigger.
    assert (game.rad("P1"), game.rad("P2")) == (1, 1)
