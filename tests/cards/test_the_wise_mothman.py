"""The Wise Mothman: enters-or-attacks rad, and "one or more nonland cards are milled"."""

from tests.cards.support import BEAR, BOLT, FOREST, Game, permanent

MOTH = "The Wise Mothman"


def test_enters_each_player_gets_a_rad_counter() -> None:
    """ "Whenever The Wise Mothman enters or attacks, each player gets a rad counter." (enters)"""
    game = Game()
    game.enter(MOTH)
    game.resolve()
    assert (game.rad("P1"), game.rad("P2")) == (1, 1)


def test_attacks_each_player_gets_a_rad_counter() -> None:
    """ "...enters or attacks, each player gets a rad counter." (attacks: the attack action, CR
    508.1, 508.3a; it has been under P1's control since the turn began)."""
    game = Game(battlefield=[permanent("moth", MOTH)])
    game.advance("declare_attackers")
    game.act({"type": "attack", "player": "P1", "attackers": [{"permanent": "moth", "attacks": {"player": "P2"}}]})
    assert len(game.stack()) == 1
    game.resolve()
    assert (game.rad("P1"), game.rad("P2")) == (1, 1)


def test_nonland_milled_up_to_x_targets() -> None:
    """ "Whenever one or more nonland cards are milled, put a +1/+1 counter on each of up to X target
    creatures, where X is the number of nonland cards milled this way." One mill event of two
    nonland cards (and a land) triggers it once with X = 2 (Fallout rulings 2024-03-08)."""
    game = Game(
        players=[{"id": "P1"}, {"id": "P2", "library": [BOLT, FOREST, BEAR]}],
        battlefield=[permanent("moth", MOTH), permanent("bear", BEAR), permanent("bear2", BEAR, "P2")],
    )
    game.mill("P2", 3)
    assert len(game.stack()) == 1
    game.refused(
        {
            "type": "resolve",
            "choices": {"targets": [{"permanent": "bear"}, {"permanent": "bear2"}, {"permanent": "moth"}]},
        },
        "illegal_target",
    )
    events = game.resolve(targets=[{"permanent": "bear"}, {"permanent": "moth"}])
    assert game.counters("bear") == {"+1/+1": 1}
    assert game.counters("moth") == {"+1/+1": 1}
    assert game.counters("bear2") == {}
    assert events[-1].data["note"].startswith("X = 2")


def test_only_lands_milled_does_not_trigger() -> None:
    """ "...one or more nonland cards are milled" — milling only lands doesn't trigger it."""
    game = Game(
        players=[{"id": "P1", "library": [FOREST, FOREST]}, {"id": "P2"}], battlefield=[permanent("moth", MOTH)]
    )
    game.mill("P1", 2)
    assert game.stack() == []
