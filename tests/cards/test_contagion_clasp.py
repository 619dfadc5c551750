"""Contagion Clasp: an enters trigger with a target named on resolution, and {4}, {T}: Proliferate."""

from tests.cards.support import BEAR, Game, permanent

CLASP = "Contagion Clasp"


def test_enters_puts_a_minus_counter_on_target_creature() -> None:
    """ "When this artifact enters, put a -1/-1 counter on target creature." (CR 603.2, 603.3d)
    The target is named in the resolve choices."""
    game = Game(players=[{"id": "P1", "hand": [CLASP]}, {"id": "P2"}], battlefield=[permanent("bear", BEAR, "P2")])
    game.cast("P1", CLASP)
    game.resolve()  # the artifact spell
    assert game.top()["needs"] == ["targets"]
    game.refused({"type": "resolve"}, "choice_required")
    game.refused({"type": "resolve", "choices": {"targets": [{"player": "P2"}]}}, "illegal_target")
    game.resolve(targets=[{"permanent": "bear"}])
    assert game.counters("bear") == {"-1/-1": 1}


def test_enters_with_no_creature_is_removed_from_the_stack() -> None:
    """ "...target creature." With no legal target the trigger is removed from the stack (CR
    603.3d); it needs no choice then."""
    game = Game()
    game.enter(CLASP)
    assert game.top()["needs"] == []
    events = game.resolve()
    assert "603.3d" in events[-1].data["note"]


def test_tap_proliferate() -> None:
    """ "{4}, {T}: Proliferate." {T} is paid (CR 107.5); an artifact isn't affected by summoning
    sickness (302.6), so it works the turn it enters; proliferate is chosen on resolution."""
    game = Game(
        players=[{"id": "P1"}, {"id": "P2", "counters": {"poison": 2}}],
        battlefield=[permanent("clasp", CLASP, entered_this_turn=True)],
    )
    game.activate("P1", "clasp")
    assert game.perm("clasp")["tapped"] is True
    assert game.top()["needs"] == ["proliferate"]
    game.resolve(proliferate=[{"player": "P2"}])
    assert game.player("P2")["counters"] == {"poison": 3}
    game.refused({"type": "activate", "player": "P1", "permanent": "clasp"}, "already_tapped")
