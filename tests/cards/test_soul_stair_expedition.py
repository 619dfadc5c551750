"""Soul Stair Expedition: landfall with a "may", and an ability whose cost removes counters and
sacrifices it, returning up to two target creature cards from the graveyard."""

from domain import events as ev
from tests.cards.support import BEAR, FOREST, Game, of_type, permanent

SSE = "Soul Stair Expedition"


def test_landfall_may_put_a_quest_counter() -> None:
    """ "Landfall — Whenever a land you control enters, you may put a quest counter on this
    enchantment." A land played triggers it (CR 603.2, 305.1); the "may" is chosen on resolution
    (603.5)."""
    game = Game(players=[{"id": "P1", "hand": ["Forest"]}, {"id": "P2"}], battlefield=[permanent("sse", SSE)])
    game.act({"type": "play_land", "player": "P1", "card": "Forest"})
    assert [o["needs"] for o in game.stack()] == [["may"]]
    game.refused({"type": "resolve"}, "choice_required")
    game.resolve(may=True)
    assert game.counters("sse") == {"quest": 1}


def test_landfall_declined_and_opponents_lands_ignored() -> None:
    """ "...you may put a quest counter..." — declining puts none; a land an opponent controls
    entering isn't "a land you control" (no trigger)."""
    game = Game(battlefield=[permanent("sse", SSE)])
    game.enter(FOREST, "P2")
    assert game.stack() == []
    game.enter(FOREST, "P1")
    game.resolve(may=False)
    assert game.counters("sse") == {}


def test_remove_three_quest_counters_and_sacrifice_returns_two_creature_cards() -> None:
    """ "Remove three quest counters from this enchantment and sacrifice it: Return up to two target
    creature cards from your graveyard to your hand." Costs are paid on activation (CR 602.2b,
    118.3, 701.21a); the targets are chosen then (601.2c) and return on resolution."""
    game = Game(
        players=[{"id": "P1", "library": [], "graveyard": [BEAR, BEAR, "Forest"]}, {"id": "P2"}],
        battlefield=[permanent("sse", SSE, counters={"quest": 3})],
    )
    events = game.activate("P1", "sse", targets=[{"card": "Grizzly Bears"}, "Grizzly Bears"])
    assert [e.type for e in events][:3] == [ev.AbilityActivated.TYPE, ev.CountersRemoved.TYPE, ev.PermanentLeft.TYPE]
    assert game.on_battlefield(SSE) == []
    game.resolve()
    p1 = game.player("P1")
    assert [c["name"] for c in p1["graveyard"]] == ["Forest", SSE]
    assert p1["hand_size"] == 2
    moved = of_type(game.events, ev.CardsMoved.TYPE)[-1]
    assert moved.data["from"] == "graveyard" and moved.data["to"] == "hand"


def test_ability_needs_three_quest_counters_and_creature_card_targets() -> None:
    """ "Remove three quest counters...": a cost can't remove more counters than are there (CR
    118.3); "target creature cards from your graveyard": a land card or a third copy that isn't
    there is not a legal target (115.1, 601.2c)."""
    game = Game(
        players=[{"id": "P1", "library": [], "graveyard": [BEAR, "Forest"]}, {"id": "P2"}],
        battlefield=[permanent("sse", SSE, counters={"quest": 2}), permanent("sse2", SSE, counters={"quest": 3})],
    )
    game.refused({"type": "activate", "player": "P1", "permanent": "sse", "ability": 0}, "not_enough_counters")
    game.refused(
        {"type": "activate", "player": "P1", "permanent": "sse2", "targets": [{"card": "Forest"}]}, "illegal_target"
    )
    game.refused(
        {"type": "activate", "player": "P1", "permanent": "sse2", "targets": ["Grizzly Bears", "Grizzly Bears"]},
        "illegal_target",
    )
    game.activate("P1", "sse2", targets=[])  # "up to two": zero is fine
    game.resolve()
    assert game.player("P1")["hand_size"] == 0


def test_target_gone_on_resolution_returns_nothing() -> None:
    """A target that left the graveyard before resolution is illegal; the ability does nothing
    for it (CR 608.2b). Two Expeditions target the only Grizzly Bears: the one resolving first
    returns it, the other finds its target gone."""
    game = Game(
        players=[{"id": "P1", "library": [], "graveyard": [BEAR]}, {"id": "P2"}],
        battlefield=[permanent("a", SSE, counters={"quest": 3}), permanent("b", SSE, counters={"quest": 3})],
    )
    game.activate("P1", "a", targets=["Grizzly Bears"])
    game.activate("P1", "b", targets=["Grizzly Bears"])
    game.resolve()
    assert game.player("P1")["hand_size"] == 1
    events = game.resolve()
    assert of_type(events, ev.CardsMoved.TYPE) == []
    # Every target illegal: it doesn't resolve, it is removed from the stack (608.2b).
    assert of_type(events, ev.StackObjectResolved.TYPE) == []
    assert of_type(events, ev.StackObjectCountered.TYPE)[0].rule == "CR 608.2b"
    assert game.player("P1")["hand_size"] == 1
