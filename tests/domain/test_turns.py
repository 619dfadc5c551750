"""Turn structure (CR 500-514): turn-based actions, the first-turn draw, shared team turns."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import (
    CardsDrawn,
    CountersAdded,
    ManaPoolEmptied,
    PermanentUntapped,
    StepBegan,
    TurnBegan,
)
from domain.state import STEPS
from tests.domain.helpers import (
    BEARS,
    BOLT,
    GOLEM,
    SAGA,
    archenemy,
    multiplayer,
    of_type,
    one,
    perm,
    two_headed_giant,
    two_player,
    types,
)


def test_cr_500_1_advance_begins_the_next_step() -> None:
    game = two_player(step="upkeep", p1={"library": [BEARS]})
    events = game.advance()
    assert one(events, StepBegan.TYPE).data == {"step": "draw", "turn": 4}
    assert game.state.turn.step == "draw"


def test_cr_500_1_advance_to_a_named_step_passes_every_step_on_the_way() -> None:
    game = two_player(step="untap", p1={"library": [BEARS]})
    events = game.advance("end")
    assert [e.data["step"] for e in of_type(events, StepBegan.TYPE)] == list(STEPS[1 : STEPS.index("end") + 1])


def test_cr_500_1_next_turn_wraps_into_the_next_players_turn() -> None:
    game = two_player(step="end", number=4)
    events = game.advance("next_turn")
    began = one(events, TurnBegan.TYPE)
    assert (began.data["number"], began.data["active_player"]) == (5, "P2")
    assert (game.state.turn.number, game.state.turn.active_player, game.state.turn.step) == (5, "P2", "untap")
    assert types(events).index(TurnBegan.TYPE) > types(events).index(StepBegan.TYPE)  # cleanup came first


def test_cr_502_3_the_untap_step_untaps_only_the_active_players_permanents() -> None:
    game = two_player(
        step="cleanup",
        battlefield=[perm("mine", GOLEM, tapped=True), perm("theirs", GOLEM, controller="P2", tapped=True)],
    )
    events = game.advance()
    assert [e.data["permanent"] for e in of_type(events, PermanentUntapped.TYPE)] == ["theirs"]
    assert game.state.battlefield["mine"].tapped


def test_cr_504_1_the_active_player_draws_in_the_draw_step() -> None:
    game = two_player(step="upkeep", p1={"library": [BEARS, BOLT]}, p2={"library": [BEARS]})
    events = game.advance()
    drawn = one(events, CardsDrawn.TYPE)
    assert (drawn.data["player"], drawn.rule) == ("P1", "CR 504.1")
    assert game.state.players["P2"].hand_size == 0


def test_cr_103_8a_the_starting_player_skips_the_first_draw_in_a_two_player_game() -> None:
    game = two_player(step="untap", number=1, p1={"library": [BEARS]}, p2={"library": [BOLT]})
    events = game.advance("draw")
    assert of_type(events, CardsDrawn.TYPE) == []
    game.advance("next_turn")
    events = game.advance("draw")
    assert one(events, CardsDrawn.TYPE).data["player"] == "P2"


def test_cr_103_8c_no_player_skips_the_first_draw_in_other_multiplayer_games() -> None:
    game = multiplayer(3, step="untap", number=1, players={"P1": {"library": [BEARS]}})
    events = game.advance("draw")
    assert one(events, CardsDrawn.TYPE).data["player"] == "P1"


def test_cr_103_8b_the_starting_2hg_team_skips_its_first_draw() -> None:
    libs = {pid: {"library": [BEARS, BOLT]} for pid in ("A1", "A2", "B1", "B2")}
    game = two_headed_giant(players=libs, step="untap", number=1)
    assert of_type(game.advance("draw"), CardsDrawn.TYPE) == []
    game.advance("next_turn")
    events = game.advance("draw")
    assert sorted(e.data["player"] for e in of_type(events, CardsDrawn.TYPE)) == ["B1", "B2"]


def test_cr_714_3c_a_lore_counter_goes_on_each_saga_of_the_active_player_as_the_main_phase_begins() -> None:
    game = two_player(
        step="draw",
        battlefield=[
            perm("mine", SAGA, counters={"lore": 1}),
            perm("theirs", SAGA, controller="P2", counters={"lore": 1}),
        ],
    )
    events = game.advance()
    added = one(events, CountersAdded.TYPE)
    assert (added.data["target"], added.data["kind"], added.rule) == ({"permanent": "mine"}, "lore", "CR 714.3c")
    assert game.perm_counters("theirs") == {"lore": 1}


def test_cr_714_2b_the_lore_counter_triggers_the_chapter_it_reaches() -> None:
    game = two_player(step="draw", battlefield=[perm("mine", SAGA, counters={"lore": 1})])
    game.advance()
    assert "chapter II" in game.view["stack"][0]["description"]


def test_cr_106_4_mana_pools_empty_at_the_end_of_each_step() -> None:
    game = two_player(battlefield=[perm("forest", "Forest")])
    game.act("activate", player="P1", permanent="forest")
    assert game.view["players"]["P1"]["mana_pool"]["G"] == 1
    events = game.advance()
    emptied = one(events, ManaPoolEmptied.TYPE)
    assert (emptied.data, emptied.rule) == ({"player": "P1", "lost": {"G": 1}}, "CR 106.4")
    assert game.view["players"]["P1"]["mana_pool"]["G"] == 0


def test_cr_106_4_empty_pools_emit_nothing() -> None:
    game = two_player()
    assert of_type(game.advance(), ManaPoolEmptied.TYPE) == []


def test_stack_not_empty_stops_advance() -> None:
    """All players must pass with an empty stack for a step to end (CR 500.2)."""
    game = two_player(p1={"hand": [BOLT]})
    game.act("cast", player="P1", card=BOLT)
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.advance()
    assert err.value.code == "stack_not_empty"
    assert game.snapshot() == before


def test_cr_603_3_advance_stops_at_the_first_step_where_a_trigger_went_on_the_stack() -> None:
    game = two_player(step="untap", p1={"counters": {"rad": 1}, "library": [BEARS, BOLT]})
    game.advance("end")
    assert game.state.turn.step == "precombat_main"
    assert len(game.state.stack) == 1


def test_cr_302_6_a_creature_stops_being_summoning_sick_when_its_controllers_turn_begins() -> None:
    game = two_player(step="end", active="P2", battlefield=[perm("golem", GOLEM, entered_this_turn=True)])
    assert game.view["battlefield"]["golem"]["summoning_sick"] is True
    game.advance("next_turn")
    assert game.view["battlefield"]["golem"]["summoning_sick"] is False


def test_cr_302_6_the_opponents_turn_beginning_does_not_cure_summoning_sickness() -> None:
    game = two_player(step="end", active="P1", battlefield=[perm("golem", GOLEM, entered_this_turn=True)])
    game.advance("next_turn")
    assert game.state.turn.active_player == "P2"
    assert game.view["battlefield"]["golem"]["summoning_sick"] is True


def test_cr_805_shared_team_turn_in_2hg_passes_to_the_other_team_and_untaps_both_players() -> None:
    game = two_headed_giant(
        step="end",
        battlefield=[perm("b1", GOLEM, controller="B1", tapped=True), perm("b2", GOLEM, controller="B2", tapped=True)],
    )
    events = game.advance("next_turn")
    assert one(events, TurnBegan.TYPE).data == {"number": 5, "active_player": "B1", "active_team": "B"}
    assert sorted(e.data["permanent"] for e in of_type(events, PermanentUntapped.TYPE)) == ["b1", "b2"]
    assert game.view["turn"]["active_team"] == "B"


def test_cr_103_1b_the_archenemy_takes_the_first_turn_then_the_other_team_shares_one() -> None:
    game = archenemy(step="end", library=[BEARS, BEARS, BEARS])
    assert (game.state.turn.active_player, game.state.turn.active_team) == ("E", "E")
    game.advance("next_turn")
    assert (game.state.turn.active_player, game.state.turn.active_team) == ("H1", "H")
    game.advance("next_turn")
    assert game.state.turn.active_team == "E"


def test_cr_103_1_multiplayer_turns_go_round_the_table_and_wrap() -> None:
    game = multiplayer(3, step="end", active="P3")
    game.advance("next_turn")
    assert game.state.turn.active_player == "P1"


def test_cr_103_8c_the_archenemy_draws_on_the_first_turn() -> None:
    game = archenemy(step="upkeep", library=[BEARS])
    events = game.advance()
    assert one(events, CardsDrawn.TYPE).data["player"] == "E"
