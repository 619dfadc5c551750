"""Mirelurk Queen: enters with a target player, and a trigger that "triggers only once each turn"."""

from tests.cards.support import BEAR, BOLT, FOREST, Game, permanent

QUEEN = "Mirelurk Queen"


def test_enters_target_player_gets_two_rad() -> None:
    """ "When this creature enters, target player gets two rad counters." The player is named in
    the resolve choices (CR 603.3d)."""
    game = Game()
    game.enter(QUEEN)
    assert game.top()["needs"] == ["targets"]
    game.refused({"type": "resolve", "choices": {"targets": [{"permanent": "x"}]}}, "illegal_target")
    game.resolve(targets=[{"player": "P2"}])
    assert (game.rad("P1"), game.rad("P2")) == (0, 2)


def test_nonland_milled_draw_then_counter() -> None:
    """ "Whenever one or more nonland cards are milled, draw a card, then put a +1/+1 counter on this
    creature.\""""
    game = Game(
        players=[{"id": "P1", "library": [FOREST, FOREST]}, {"id": "P2", "library": [BOLT, BEAR]}],
        battlefield=[permanent("queen", QUEEN)],
    )
    game.mill("P2", 2)
    game.resolve()
    assert game.player("P1")["hand_size"] == 1
    assert game.counters("queen") == {"+1/+1": 1}


def test_triggers_only_once_each_turn() -> None:
    """ "This ability triggers only once each turn." A second mill the same turn doesn't trigger
    it; the next turn it triggers again."""
    game = Game(
        players=[{"id": "P1", "library": [FOREST, FOREST, FOREST]}, {"id": "P2", "library": [BOLT, BEAR, BOLT, BOLT]}],
        battlefield=[permanent("queen", QUEEN)],
    )
    game.mill("P2", 1)
    game.mill("P2", 1)  # with the first trigger still on the stack
    assert len(game.stack()) == 1
    game.resolve()
    game.mill("P2", 1)
    assert game.stack() == []
    game.advance("next_turn")
    game.advance("upkeep")
    game.mill("P2", 1)
    assert len(game.stack()) == 1


def test_vigilance_doesnt_tap_to_attack() -> None:
    """ "Vigilance" — attacking doesn't cause it to tap (CR 702.20b, 508.1f)."""
    game = Game(battlefield=[permanent("queen", QUEEN)])
    game.advance("declare_attackers")
    game.act({"type": "attack", "player": "P1", "attackers": [{"permanent": "queen", "attacks": {"player": "P2"}}]})
    assert game.perm("queen")["tapped"] is False
