"""Rad counters: the inherent triggered ability of CR 728.1 (Fallout rulings, 2024-03-08)."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import (
    CardsMilled,
    CountersRemoved,
    LifeGained,
    LifeLost,
    PlayerLost,
    StackObjectResolved,
    TriggerPutOnStack,
    TriggersPending,
)
from tests.domain.helpers import BEARS, BOLT, FOREST, SHOCK, of_type, one, two_headed_giant, two_player, types

DRYAD_ARBOR = {"name": "Dryad Arbor", "type_line": "Land Creature — Forest Dryad", "power": "1", "toughness": "1"}


def test_cr_728_1_triggers_at_the_precombat_main_phase_with_no_source() -> None:
    game = two_player(p1={"counters": {"rad": 2}, "library": [BEARS, BOLT]}, step="draw")
    events = game.advance()
    put = one(events, TriggerPutOnStack.TYPE).data["object"]
    assert (put["controller"], put["source"], put["effect"]) == ("P1", None, "radiation")
    assert one(events, TriggerPutOnStack.TYPE).rule == "CR 603.3"
    assert game.view["stack"][0]["controller"] == "P1"


def test_cr_728_1_no_trigger_without_rad_counters() -> None:
    game = two_player(p1={"library": [BEARS]}, step="draw")
    events = game.advance()
    assert of_type(events, TriggerPutOnStack.TYPE) == []
    assert game.state.stack == ()


def test_cr_728_1_nonland_cards_milled_cost_life_and_rad_recorded_as_one_mill_one_loss_one_removal() -> None:
    game = two_player(p1={"counters": {"rad": 3}, "library": [BEARS, FOREST, BOLT, SHOCK]}, step="draw")
    game.advance()
    events = game.resolve()
    assert types(events)[:3] == [CardsMilled.TYPE, LifeLost.TYPE, CountersRemoved.TYPE]
    milled = one(events, CardsMilled.TYPE).data
    assert [c["name"] for c in milled["cards"]] == ["Grizzly Bears", "Forest", "Lightning Bolt"]
    assert (milled["requested"], milled["nonland_count"], milled["cause"]) == (3, 2, "radiation")
    assert one(events, LifeLost.TYPE).data == {"player": "P1", "amount": 2, "cause": "radiation", "life_after": 18}
    assert one(events, CountersRemoved.TYPE).data["amount"] == 2
    assert game.counters("P1") == {"rad": 1}
    assert [c.name for c in game.state.players["P1"].library] == ["Shock"]


def test_cr_728_1_only_lands_milled_emits_no_zero_life_or_counter_event() -> None:
    game = two_player(p1={"counters": {"rad": 2}, "library": [FOREST, FOREST]}, step="draw")
    game.advance()
    events = game.resolve()
    assert of_type(events, LifeLost.TYPE) == [] and of_type(events, CountersRemoved.TYPE) == []
    assert game.counters("P1") == {"rad": 2}
    assert game.life("P1") == 20


def test_cr_728_1_land_or_nonland_is_judged_in_the_graveyard_a_dryad_arbor_is_a_land() -> None:
    game = two_player(p1={"counters": {"rad": 1}, "library": [DRYAD_ARBOR]}, step="draw")
    game.advance()
    events = game.resolve()
    assert one(events, CardsMilled.TYPE).data["nonland_count"] == 0
    assert of_type(events, LifeLost.TYPE) == []


def test_cr_712_8a_a_modal_double_faced_card_is_judged_by_its_front_face() -> None:
    """Emeria's Call (Sorcery // Land) is nonland in the graveyard; a Land // Land pathway is a land."""
    emeria = {"name": "Emeria's Call // Emeria, Shattered Skyclave", "type_line": "Sorcery // Land"}
    pathway = {"name": "Brightclimb Pathway // Grimclimb Pathway", "type_line": "Land // Land"}
    game = two_player(p1={"counters": {"rad": 2}, "library": [emeria, pathway]}, step="draw")
    game.advance()
    events = game.resolve()
    assert one(events, CardsMilled.TYPE).data["nonland_count"] == 1
    assert one(events, LifeLost.TYPE).data["amount"] == 1
    assert game.counters("P1") == {"rad": 1}


def test_cr_728_1_fewer_cards_than_rad_counters_mills_as_many_as_possible() -> None:
    game = two_player(p1={"counters": {"rad": 5}, "library": [BEARS, BOLT]}, step="draw")
    game.advance()
    events = game.resolve()
    milled = one(events, CardsMilled.TYPE).data
    assert (len(milled["cards"]), milled["requested"]) == (2, 5)
    assert game.counters("P1") == {"rad": 3}
    assert game.life("P1") == 18


def test_cr_704_5b_milling_from_an_empty_library_is_harmless() -> None:
    game = two_player(p1={"counters": {"rad": 2}, "library": []}, step="draw")
    game.advance()
    events = game.resolve()
    assert of_type(events, PlayerLost.TYPE) == []
    assert game.state.status == "in_progress"
    assert game.counters("P1") == {"rad": 2}


def test_cr_728_1_an_unknown_library_needs_the_revealed_cards_and_checks_their_count() -> None:
    game = two_player(p1={"counters": {"rad": 2}, "library_size": 30}, step="draw")
    game.advance()
    assert game.view["stack"][0]["needs"] == ["cards"]
    with pytest.raises(IllegalAction) as err:
        game.resolve()
    assert err.value.code == "choice_required"
    with pytest.raises(IllegalAction) as err:
        game.resolve(cards=[BEARS])
    assert err.value.code == "wrong_card_count"
    game.resolve(cards=[BEARS, FOREST])
    assert game.view["players"]["P1"]["library_size"] == 28
    assert game.life("P1") == 19


def test_cr_603_4_intervening_if_rechecked_no_rad_on_resolution_does_nothing() -> None:
    game = two_player(p1={"counters": {"rad": 1}, "library": [BEARS]}, step="draw")
    game.advance()
    game.act("remove_counters", target={"player": "P1"}, kind="rad", amount=1)
    events = game.resolve()
    assert of_type(events, CardsMilled.TYPE) == []
    assert "603.4" in one(events, StackObjectResolved.TYPE).data["note"]
    assert [c.name for c in game.state.players["P1"].library] == ["Grizzly Bears"]


def test_cr_728_1_the_count_is_read_on_resolution_so_proliferate_in_response_raises_the_mill() -> None:
    game = two_player(p1={"counters": {"rad": 1}, "library": [BEARS, BOLT, SHOCK]}, step="draw")
    game.advance()
    game.act("proliferate", player="P2", choose=[{"player": "P1"}])
    events = game.resolve()
    assert len(one(events, CardsMilled.TYPE).data["cards"]) == 2
    assert game.life("P1") == 18


def test_cr_505_1a_only_the_first_main_phase_is_precombat_no_trigger_in_the_postcombat_main() -> None:
    game = two_player(p1={"counters": {"rad": 2}, "library": [BEARS, BOLT]}, step="end_of_combat")
    events = game.advance()
    assert game.state.turn.step == "postcombat_main"
    assert of_type(events, TriggerPutOnStack.TYPE) == []


def test_cr_728_1_only_the_active_players_rad_counters_trigger() -> None:
    game = two_player(p2={"counters": {"rad": 2}, "library": [BEARS, BOLT]}, step="draw")
    events = game.advance()
    assert of_type(events, TriggerPutOnStack.TYPE) == []


def test_rad_counters_persist_across_steps_and_turns_ruling_2024_03_08() -> None:
    game = two_player(p1={"counters": {"rad": 2}}, step="end")
    game.advance("next_turn")
    game.advance("next_turn")
    assert game.counters("P1") == {"rad": 2}


def test_cr_704_5a_life_lost_from_radiation_can_lose_the_game() -> None:
    game = two_player(p1={"counters": {"rad": 2}, "library": [BEARS, BOLT], "life": 2}, step="draw")
    game.advance()
    events = game.resolve()
    assert one(events, PlayerLost.TYPE).data["player"] == "P1"
    assert game.state.result is not None and game.state.result.winners == ("P2",)


def test_cr_805_4d_in_2hg_it_triggers_once_per_active_team_player_with_rad_and_the_team_orders() -> None:
    game = two_headed_giant(
        players={
            "A1": {"counters": {"rad": 1}, "library": [BEARS]},
            "A2": {"counters": {"rad": 2}, "library": [BOLT, SHOCK]},
            "B1": {"counters": {"rad": 3}, "library": [BEARS]},
        },
        step="draw",
    )
    events = game.advance()
    pending = one(events, TriggersPending.TYPE).data
    assert pending["controller"] == "A"
    assert sorted(t["controller"] for t in pending["triggers"]) == ["A1", "A2"]
    assert game.view["pending_order"]["controller"] == "A"


def test_cr_728_1a_810_9_life_lost_from_radiation_in_2hg_comes_off_the_team_total() -> None:
    game = two_headed_giant(players={"A1": {"counters": {"rad": 2}, "library": [BEARS, BOLT]}}, step="draw")
    game.advance()
    events = game.resolve()
    assert one(events, LifeLost.TYPE).data["life_after"] == 28
    assert of_type(events, LifeGained.TYPE) == []
    assert game.state.teams["A"].life == 28
