"""Acquired Mutation: an Aura cast on a creature; "whenever enchanted creature attacks"."""

from domain import events as ev
from tests.cards.support import BEAR, Game, of_type, permanent

MUTATION = "Acquired Mutation"


def _game() -> Game:
    return Game(
        players=[{"id": "P1", "hand": [MUTATION]}, {"id": "P2"}, {"id": "P3"}],
        variant="multiplayer",
        battlefield=[permanent("bear", BEAR), permanent("other", BEAR)],
    )


def test_enchant_creature_enters_attached() -> None:
    """ "Enchant creature" — cast targeting a creature (CR 303.4a, 601.2c); it enters attached to
    it (608.3c). A player is not a legal target."""
    game = _game()
    game.refused({"type": "cast", "player": "P1", "card": MUTATION, "targets": [{"player": "P2"}]}, "illegal_target")
    game.cast("P1", MUTATION, targets=[{"permanent": "bear"}])
    game.resolve()
    (aura,) = game.on_battlefield(MUTATION)
    assert game.state.battlefield[aura].attached_to == "bear"


def test_enchanted_creature_attacks_defending_player_gets_two_rad() -> None:
    """ "Whenever enchanted creature attacks, defending player gets two rad counters." Only the
    enchanted creature's attack triggers it; the defending player is the one it attacks."""
    game = _game()
    game.cast("P1", MUTATION, targets=[{"permanent": "bear"}])
    game.resolve()
    game.advance("declare_attackers")
    game.act(
        {
            "type": "attack",
            "player": "P1",
            "attackers": [
                {"permanent": "bear", "attacks": {"player": "P3"}},
                {"permanent": "other", "attacks": {"player": "P2"}},
            ],
        }
    )
    assert len(game.stack()) == 1
    game.resolve()
    assert (game.rad("P2"), game.rad("P3")) == (0, 2)


def test_aura_goes_to_the_graveyard_when_the_creature_leaves() -> None:
    """State-based action 704.5m: an Aura attached to nothing goes to its owner's graveyard."""
    game = _game()
    game.cast("P1", MUTATION, targets=[{"permanent": "bear"}])
    game.resolve()
    events = game.act({"type": "sacrifice", "permanent": "bear"})
    assert game.on_battlefield(MUTATION) == []
    assert of_type(events, ev.PermanentLeft.TYPE)[-1].rule == "CR 704.5m"


def test_target_gone_the_aura_doesnt_resolve() -> None:
    """An Aura spell whose target is illegal on resolution doesn't resolve; the card goes to its
    owner's graveyard (CR 608.3b)."""
    game = _game()
    game.cast("P1", MUTATION, targets=[{"permanent": "bear"}])
    game.act({"type": "sacrifice", "permanent": "bear"})
    game.resolve()
    assert game.on_battlefield(MUTATION) == []
    assert MUTATION in [c["name"] for c in game.player("P1")["graveyard"]]


def test_enchanted_creature_gets_plus_two_toughness_against_lethal_damage() -> None:
    """ "Enchanted creature gets +2/+2": the enchanted 2/2 survives 3 damage, the other 2/2 dies
    (CR 613.4c layer 7c, 704.5g)."""
    game = _game()
    game.cast("P1", MUTATION, targets=[{"permanent": "bear"}])
    game.resolve()
    game.act({"type": "damage", "target": {"permanent": "bear"}, "amount": 3})
    game.act({"type": "damage", "target": {"permanent": "other"}, "amount": 3})
    assert "bear" in game.state.battlefield
    assert "other" not in game.state.battlefield
    game.act({"type": "damage", "target": {"permanent": "bear"}, "amount": 1})
    assert "bear" not in game.state.battlefield
