"""Lightning Helix: 3 damage to any target and 3 life."""

from domain import events as ev
from tests.cards.support import BEAR, Game, of_type, permanent

HELIX = "Lightning Helix"


def test_damage_to_a_player_and_gain_three() -> None:
    """ "Lightning Helix deals 3 damage to any target and you gain 3 life.\""""
    game = Game(players=[{"id": "P1", "hand": [HELIX]}, {"id": "P2"}])
    game.cast("P1", HELIX, targets=[{"player": "P2"}])
    game.resolve()
    assert (game.life("P1"), game.life("P2")) == (23, 17)
    assert HELIX in [c["name"] for c in game.player("P1")["graveyard"]]


def test_any_target_creature_or_planeswalker() -> None:
    """ "any target": a creature (lethal damage, 704.5g) or a planeswalker (loyalty, 120.3c), not
    an artifact that isn't a creature (115.4)."""
    game = Game(
        players=[{"id": "P1", "hand": [HELIX, HELIX, HELIX]}, {"id": "P2"}],
        battlefield=[
            permanent("bear", BEAR, "P2"),
            permanent("ajani", "Ajani Goldmane", "P2", counters={"loyalty": 4}),
            permanent("stone", "Mind Stone", "P2"),
        ],
    )
    game.refused({"type": "cast", "player": "P1", "card": HELIX, "targets": [{"permanent": "stone"}]}, "illegal_target")
    game.cast("P1", HELIX, targets=[{"permanent": "bear"}])
    game.resolve()
    assert game.on_battlefield("Grizzly Bears") == []
    game.cast("P1", HELIX, targets=[{"permanent": "ajani"}])
    game.resolve()
    assert game.counters("ajani") == {"loyalty": 1}
    assert game.life("P1") == 26


def test_illegal_target_no_life_gain() -> None:
    """If its target is illegal on resolution the spell doesn't resolve: no damage, no life
    (CR 608.2b)."""
    game = Game(players=[{"id": "P1", "hand": [HELIX]}, {"id": "P2"}], battlefield=[permanent("bear", BEAR, "P2")])
    game.cast("P1", HELIX, targets=[{"permanent": "bear"}])
    game.act({"type": "sacrifice", "permanent": "bear"})
    events = game.resolve()
    assert of_type(events, ev.LifeGained.TYPE) == []
    assert game.life("P1") == 20
    # It is removed from the stack without resolving and goes to the graveyard (608.2b).
    assert of_type(events, ev.StackObjectResolved.TYPE) == []
    assert of_type(events, ev.StackObjectCountered.TYPE)[0].data["to"] == "graveyard"
    assert [c.name for c in game.state.players["P1"].graveyard] == [HELIX]
