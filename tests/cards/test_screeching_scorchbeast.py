"""Screeching Scorchbeast: attack trigger, and tokens "only once each turn"."""

from tests.cards.support import BEAR, BOLT, Game, permanent

BEAST = "Screeching Scorchbeast"


def _game(**overrides: object) -> Game:
    return Game(
        players=[{"id": "P1", "library": [BOLT, BEAR, BOLT, BEAR]}, {"id": "P2", "library": [BOLT, BOLT]}],
        battlefield=[permanent("beast", BEAST)],
        **overrides,
    )


def test_attacks_each_player_gets_two_rad() -> None:
    """ "Whenever this creature attacks, each player gets two rad counters." (CR 508.3a)"""
    game = _game()
    game.advance("declare_attackers")
    game.act({"type": "attack", "player": "P1", "attackers": [{"permanent": "beast", "attacks": {"player": "P2"}}]})
    game.resolve()
    assert (game.rad("P1"), game.rad("P2")) == (2, 2)


def test_may_create_that_many_zombie_mutants() -> None:
    """ "Whenever one or more nonland cards are milled, you may create that many 2/2 black Zombie
    Mutant creature tokens." Two nonland cards milled at once: one trigger, two tokens."""
    game = _game()
    game.mill("P1", 2)
    assert game.top()["needs"] == ["may"]
    game.resolve(may=True)
    tokens = game.on_battlefield("Zombie Mutant")
    assert len(tokens) == 2
    assert all(game.perm(t)["token"] for t in tokens)


def test_do_this_only_once_each_turn() -> None:
    """ "Do this only once each turn." Once tokens were created this turn, the ability doesn't
    trigger again that turn (CR 603.2h); a new turn allows it again."""
    game = _game()
    game.mill("P1", 2)
    game.resolve(may=True)
    game.mill("P2", 1)
    assert game.stack() == []
    assert len(game.on_battlefield("Zombie Mutant")) == 2
    game.advance("next_turn")  # P2's turn: the limit starts over
    game.advance("upkeep")
    game.mill("P2", 1)
    game.resolve(may=True)
    assert len(game.on_battlefield("Zombie Mutant")) == 3


def test_two_triggers_waiting_at_once_do_it_once() -> None:
    """Two mills before either trigger resolves: both triggered (nothing was done yet), but the
    action is done only once that turn (CR 603.2h): the second does nothing."""
    game = _game()
    game.mill("P1", 1)
    game.mill("P1", 1)
    assert len(game.stack()) == 2
    game.resolve(may=True)
    events = game.resolve(may=True)
    assert "CR 603.2h" in events[-1].data["note"]
    assert len(game.on_battlefield("Zombie Mutant")) == 1


def test_a_new_object_with_the_same_id_remembers_nothing() -> None:
    """A permanent that leaves the battlefield and comes back is a new object (CR 400.7), even
    when the report gives it the same id: its "do this only once each turn" starts over."""
    game = _game()
    game.mill("P1", 1)
    game.resolve(may=True)
    game.act({"type": "move", "permanent": "beast", "to": "hand"})
    game.enter(BEAST, id="beast")
    game.mill("P1", 1)
    assert len(game.stack()) == 1
    game.resolve(may=True)
    assert len(game.on_battlefield("Zombie Mutant")) == 2


def test_declining_keeps_the_option_open() -> None:
    """ "you may ... Do this only once each turn." Choosing not to create tokens doesn't use the
    once-a-turn option: a later trigger that turn may still create them."""
    game = _game()
    game.mill("P1", 1)
    game.resolve(may=False)
    assert game.on_battlefield("Zombie Mutant") == []
    game.mill("P1", 1)
    game.resolve(may=True)
    assert len(game.on_battlefield("Zombie Mutant")) == 1
