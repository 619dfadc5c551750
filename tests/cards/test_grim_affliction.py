"""Grim Affliction: a -1/-1 counter on target creature, then proliferate."""

from domain import events as ev
from tests.cards.support import Game, of_type, permanent

GRIM = "Grim Affliction"
GIANT = {"name": "Hill Giant", "type_line": "Creature — Giant", "power": "3", "toughness": "3"}


def test_counter_then_proliferate() -> None:
    """ "Put a -1/-1 counter on target creature, then proliferate." The proliferate may choose the
    same creature: it gets a second -1/-1 counter (CR 701.34a)."""
    game = Game(
        players=[{"id": "P1", "hand": [GRIM]}, {"id": "P2", "counters": {"poison": 1}}],
        battlefield=[permanent("giant", GIANT, "P2")],
    )
    game.cast("P1", GRIM, targets=[{"permanent": "giant"}])
    assert game.top()["needs"] == ["proliferate"]
    game.resolve(proliferate=[{"permanent": "giant"}, {"player": "P2"}])
    assert game.counters("giant") == {"-1/-1": 2}
    assert game.player("P2")["counters"] == {"poison": 2}
    assert GRIM in [c["name"] for c in game.player("P1")["graveyard"]]


def test_target_must_be_a_creature() -> None:
    """ "target creature" — checked when cast (CR 601.2c)."""
    game = Game(players=[{"id": "P1", "hand": [GRIM]}, {"id": "P2"}])
    game.refused({"type": "cast", "player": "P1", "card": GRIM, "targets": [{"player": "P2"}]}, "illegal_target")
    game.refused({"type": "cast", "player": "P1", "card": GRIM}, "illegal_target")


def test_illegal_target_no_proliferate() -> None:
    """If the only target is illegal on resolution the spell doesn't resolve: no counter and no
    proliferate (CR 608.2b; RULES.md, proliferate)."""
    game = Game(
        players=[{"id": "P1", "hand": [GRIM]}, {"id": "P2", "counters": {"poison": 1}}],
        battlefield=[permanent("giant", GIANT, "P2")],
    )
    game.cast("P1", GRIM, targets=[{"permanent": "giant"}])
    game.act({"type": "sacrifice", "permanent": "giant"})
    events = game.resolve(proliferate=[{"player": "P2"}])
    assert of_type(events, ev.Proliferated.TYPE) == []
    assert game.player("P2")["counters"] == {"poison": 1}


def test_every_target_illegal_needs_no_choices() -> None:
    """A spell whose every target is illegal on resolution doesn't resolve (CR 608.2b): so it
    asks for no choices either. Resolving it with none removes it, no proliferate happens."""
    game = Game(
        players=[{"id": "P1", "hand": [GRIM]}, {"id": "P2", "counters": {"poison": 1}}],
        battlefield=[permanent("giant", GIANT, "P2")],
    )
    game.cast("P1", GRIM, targets=[{"permanent": "giant"}])
    game.act({"type": "sacrifice", "permanent": "giant"})
    events = game.resolve()
    countered = of_type(events, ev.StackObjectCountered.TYPE)
    assert len(countered) == 1 and countered[0].rule == "CR 608.2b"
    assert of_type(events, ev.Proliferated.TYPE) == [] and game.stack() == []
    assert GRIM in [c["name"] for c in game.player("P1")["graveyard"]]
