"""Hangarback Walker: enters with X counters, dies into Thopters, {1}, {T}: grow."""

from tests.cards.support import Game, permanent

WALKER = "Hangarback Walker"


def test_enters_with_x_counters() -> None:
    """ "This creature enters with X +1/+1 counters on it." The X chosen for the spell (CR 107.3m)."""
    game = Game(players=[{"id": "P1", "hand": [WALKER]}, {"id": "P2"}])
    game.cast("P1", WALKER, x=2)
    game.resolve()
    (walker,) = game.on_battlefield(WALKER)
    assert game.counters(walker) == {"+1/+1": 2}


def test_dies_creates_a_thopter_per_counter() -> None:
    """ "When this creature dies, create a 1/1 colorless Thopter artifact creature token with flying
    for each +1/+1 counter on this creature." Counted as it last existed (CR 603.10a)."""
    game = Game(battlefield=[permanent("walker", WALKER, counters={"+1/+1": 3})])
    game.act({"type": "sacrifice", "permanent": "walker"})
    game.resolve()
    thopters = game.on_battlefield("Thopter")
    assert len(thopters) == 3
    assert all(game.perm(t)["token"] and game.perm(t)["card"]["power"] == "1" for t in thopters)


def test_x_zero_dies_with_no_thopters() -> None:
    """With X = 0 it enters as a 0/0 and dies (CR 704.5f); no counters, no Thopters."""
    game = Game(players=[{"id": "P1", "hand": [WALKER]}, {"id": "P2"}])
    game.cast("P1", WALKER)
    game.resolve()
    assert game.on_battlefield(WALKER) == []
    game.resolve()
    assert game.on_battlefield("Thopter") == []


def test_tap_put_a_counter_with_summoning_sickness() -> None:
    """ "{1}, {T}: Put a +1/+1 counter on this creature." A creature's {T} ability needs it under
    its controller's control since their most recent turn began (CR 302.6)."""
    game = Game(
        battlefield=[
            permanent("walker", WALKER, counters={"+1/+1": 1}),
            permanent("new", WALKER, entered_this_turn=True, counters={"+1/+1": 1}),
        ]
    )
    game.refused({"type": "activate", "player": "P1", "permanent": "new"}, "summoning_sick")
    game.activate("P1", "walker")
    game.resolve()
    assert game.counters("walker") == {"+1/+1": 2}
    assert game.perm("walker")["tapped"] is True


def test_counters_as_it_last_existed_before_simultaneous_sbas() -> None:
    """CR 704.8: a permanent leaving by a state-based action has the last-known information of the
    state before the simultaneous state-based actions. With one +1/+1 and three -1/-1 counters it
    dies (toughness -2) still having its +1/+1 counter (704.5q doesn't remove it first): one Thopter."""
    game = Game(battlefield=[permanent("walker", WALKER, counters={"+1/+1": 1})])
    game.act({"type": "add_counters", "target": {"permanent": "walker"}, "kind": "-1/-1", "amount": 3})
    assert game.on_battlefield(WALKER) == []
    game.resolve()
    assert len(game.on_battlefield("Thopter")) == 1
