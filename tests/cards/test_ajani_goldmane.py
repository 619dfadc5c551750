"""Ajani Goldmane: loyalty, its three loyalty abilities, and the loyalty-ability rules."""

from tests.cards.support import BEAR, Game, permanent

AJANI = "Ajani Goldmane"


def _game(loyalty: int = 4) -> Game:
    return Game(
        battlefield=[permanent("ajani", AJANI, counters={"loyalty": loyalty}), permanent("bear", BEAR)],
    )


def test_enters_with_its_printed_loyalty() -> None:
    """A planeswalker enters with loyalty counters equal to its printed loyalty (CR 306.5b)."""
    game = Game(players=[{"id": "P1", "hand": [AJANI]}, {"id": "P2"}])
    game.cast("P1", AJANI)
    game.resolve()
    (ajani,) = game.on_battlefield(AJANI)
    assert game.counters(ajani) == {"loyalty": 4}


def test_plus_one_gain_two_life() -> None:
    """ "+1: You gain 2 life." The +1 is a cost, paid on activation (CR 606.4)."""
    game = _game()
    game.activate("P1", "ajani", 0)
    assert game.counters("ajani") == {"loyalty": 5}
    game.resolve()
    assert game.life("P1") == 22


def test_minus_one_counter_on_each_creature_you_control() -> None:
    """ "−1: Put a +1/+1 counter on each creature you control. Those creatures gain vigilance until
    end of turn." (the vigilance isn't tracked)"""
    game = Game(
        battlefield=[
            permanent("ajani", AJANI, counters={"loyalty": 4}),
            permanent("bear", BEAR),
            permanent("obear", BEAR, "P2"),
        ]
    )
    game.activate("P1", "ajani", 1)
    assert game.counters("ajani") == {"loyalty": 3}
    game.resolve()
    assert game.counters("bear") == {"+1/+1": 1}
    assert game.counters("obear") == {}


def test_minus_six_avatar_and_zero_loyalty() -> None:
    """ "−6: Create a white Avatar creature token. It has "This token's power and toughness are each
    equal to your life total."" At 0 loyalty Ajani goes to the graveyard (704.5i); the ability
    still resolves. −6 needs six loyalty (606.6)."""
    game = _game(5)
    game.refused({"type": "activate", "player": "P1", "permanent": "ajani", "ability": 2}, "not_enough_counters")
    game = _game(6)
    game.activate("P1", "ajani", 2)
    assert game.on_battlefield(AJANI) == []
    game.resolve()
    (avatar,) = game.on_battlefield("Avatar")
    assert game.perm(avatar)["token"] is True
    assert game.perm(avatar)["card"]["power"] == "*"


def test_loyalty_abilities_sorcery_speed_once_per_turn() -> None:
    """CR 606.3: a loyalty ability only at sorcery speed (main phase, own turn, empty stack) and
    only one loyalty ability of a permanent per turn; only its controller activates it."""
    game = _game()
    game.refused({"type": "activate", "player": "P2", "permanent": "ajani", "ability": 0}, "not_controller")
    game.activate("P1", "ajani", 0)
    game.refused({"type": "activate", "player": "P1", "permanent": "ajani", "ability": 1}, "wrong_timing")
    game.resolve()
    game.refused({"type": "activate", "player": "P1", "permanent": "ajani", "ability": 1}, "already_activated")
    combat = Game(
        turn={"number": 3, "active_player": "P1", "step": "beginning_of_combat"},
        battlefield=[permanent("ajani", AJANI, counters={"loyalty": 4})],
    )
    combat.refused({"type": "activate", "player": "P1", "permanent": "ajani", "ability": 0}, "wrong_timing")


def test_a_returned_planeswalker_is_a_new_object_for_the_once_per_turn_rule() -> None:
    """Only one loyalty ability of a permanent per turn (CR 606.3), but a planeswalker that left
    and came back is a new object (CR 400.7), even reported under the same id: it may activate
    one again that turn."""
    game = _game()
    game.activate("P1", "ajani", 0)
    game.resolve()
    game.refused({"type": "activate", "player": "P1", "permanent": "ajani", "ability": 0}, "already_activated")
    game.act({"type": "move", "permanent": "ajani", "to": "hand"})
    game.enter(AJANI, id="ajani", counters={"loyalty": 4})
    game.activate("P1", "ajani", 0)
    assert game.counters("ajani") == {"loyalty": 5}
