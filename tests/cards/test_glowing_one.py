"""Glowing One: combat damage to a player, once per nonland card milled, deathtouch."""

from domain import events as ev
from tests.cards.support import BEAR, BOLT, FOREST, Game, of_type, permanent


def test_combat_damage_to_a_player_gives_four_rad() -> None:
    """ "Whenever this creature deals combat damage to a player, they get four rad counters."
    (CR 510.3a) Reported as damage with the Glowing One's id as source and combat: true."""
    game = Game(battlefield=[permanent("glow", "Glowing One")])
    game.damage({"player": "P2"}, 2, source="glow", combat=True)
    game.resolve()
    assert game.rad("P2") == 4
    assert game.life("P2") == 18


def test_noncombat_damage_does_not_trigger() -> None:
    """ "...deals combat damage..." — damage without the combat flag, or from another source,
    doesn't trigger it."""
    game = Game(battlefield=[permanent("glow", "Glowing One")])
    game.damage({"player": "P2"}, 2, source="glow")
    game.damage({"player": "P2"}, 2, source="Glowing One", combat=True)  # a name, not its id
    assert game.stack() == []


def test_gain_one_life_per_nonland_card_milled() -> None:
    """ "Whenever a player mills a nonland card, you gain 1 life." Ruling 2024-03-08: it triggers
    once for each nonland card milled; the identical triggers go on the stack without an order
    being asked (any order gives the same result)."""
    game = Game(
        players=[{"id": "P1"}, {"id": "P2", "library": [BOLT, FOREST, BEAR, BOLT]}],
        battlefield=[permanent("glow", "Glowing One")],
    )
    game.mill("P2", 4)
    assert len(game.stack()) == 3
    assert game.view()["pending_order"] is None
    game.resolve_all()
    assert game.life("P1") == 23


def test_rad_trigger_mill_counts_per_card() -> None:
    """Ruling 2024-03-08: "a player with four rad counters will mill four cards ... If all four of
    those cards are nonland cards, Glowing One's ability triggers four times." (CR 728.1)"""
    game = Game(
        turn={"number": 3, "active_player": "P1", "step": "draw"},
        players=[{"id": "P1", "counters": {"rad": 2}, "library": [BOLT, BEAR]}, {"id": "P2"}],
        battlefield=[permanent("glow", "Glowing One", "P2")],
    )
    game.advance("precombat_main")
    game.resolve()  # the rad trigger: P1 mills 2 nonland, loses 2
    assert game.life("P1") == 18
    assert len(game.stack()) == 2
    game.resolve_all()
    assert game.life("P2") == 22


def test_deathtouch_destroys_a_creature_it_damages() -> None:
    """ "Deathtouch" — a creature dealt damage by a source with deathtouch is destroyed (CR
    702.2b, 704.5h), even 1 damage to a 2/2."""
    game = Game(battlefield=[permanent("glow", "Glowing One"), permanent("bear", BEAR, "P2")])
    events = game.damage({"permanent": "bear"}, 1, source="glow", combat=True)
    assert game.on_battlefield("Grizzly Bears") == []
    assert of_type(events, ev.PermanentLeft.TYPE)[0].rule == "CR 704.5h"
