"""Counters on players and permanents (CR 122), added and removed by direct actions."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction, NotFound
from domain.events import CountersAdded, CountersRemoved, PermanentLeft
from tests.domain.helpers import BEARS, RELIC, multiplayer, of_type, one, perm, two_headed_giant, two_player


def test_cr_122_1_add_counters_to_a_player_records_target_kind_amount_and_cause() -> None:
    game = two_player()
    events = game.act("add_counters", target={"player": "P1"}, kind="rad", amount=2, source="Nuclear Fallout")
    event = one(events, CountersAdded.TYPE)
    assert event.data == {"target": {"player": "P1"}, "kind": "rad", "amount": 2, "cause": "Nuclear Fallout"}
    assert game.counters("P1") == {"rad": 2}


def test_cr_122_1_counters_on_a_permanent_and_a_reported_effect_has_cause_manual() -> None:
    game = two_player(battlefield=[perm("relic", RELIC)])
    events = game.act("add_counters", target={"permanent": "relic"}, kind="oil", amount=3)
    assert one(events, CountersAdded.TYPE).data["cause"] == "manual"
    assert game.perm_counters("relic") == {"oil": 3}


def test_cr_122_1_counters_of_the_same_name_are_interchangeable_and_add_up() -> None:
    game = two_player(p1={"counters": {"energy": 2}})
    game.act("add_counters", target={"player": "P1"}, kind="energy", amount=3)
    assert game.counters("P1") == {"energy": 5}


def test_cr_122_1_kinds_are_free_form_and_kept_apart() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, counters={"charge": 1})])
    game.act("add_counters", target={"permanent": "relic"}, kind="ticket", amount=1)
    assert game.perm_counters("relic") == {"charge": 1, "ticket": 1}


def test_cr_118_3_removing_more_counters_than_are_there_is_refused_and_stores_nothing() -> None:
    game = two_player(p1={"counters": {"rad": 2}})
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.act("remove_counters", target={"player": "P1"}, kind="rad", amount=3)
    assert err.value.code == "not_enough_counters"
    assert game.snapshot() == before


def test_removing_up_to_n_counters_removes_as_many_as_there_are() -> None:
    """An effect that removes N removes as many as it can (CR 101.3, RULES.md Counters)."""
    game = two_player(p1={"counters": {"rad": 2}})
    events = game.act("remove_counters", target={"player": "P1"}, kind="rad", amount=5, up_to=True)
    assert one(events, CountersRemoved.TYPE).data["amount"] == 2
    assert game.counters("P1") == {}


def test_removing_up_to_n_from_nothing_emits_no_zero_amount_event() -> None:
    """Project convention (docs/rules.md correction 8): no zero-amount counter events."""
    game = two_player()
    events = game.act("remove_counters", target={"player": "P1"}, kind="rad", amount=1, up_to=True)
    assert of_type(events, CountersRemoved.TYPE) == []


def test_cr_122_1_a_kind_removed_to_zero_disappears_from_the_state_view() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, counters={"charge": 2, "oil": 1})])
    game.act("remove_counters", target={"permanent": "relic"}, kind="charge", amount=2)
    assert game.view["battlefield"]["relic"]["counters"] == {"oil": 1}


def test_counters_on_an_unknown_player_or_permanent_are_not_found() -> None:
    """docs/api.md Conventions: an unknown object is 404."""
    game = two_player()
    with pytest.raises(NotFound) as err:
        game.act("add_counters", target={"player": "P9"}, kind="rad", amount=1)
    assert err.value.code == "unknown_player"
    with pytest.raises(NotFound) as err:
        game.act("add_counters", target={"permanent": "nope"}, kind="oil", amount=1)
    assert err.value.code == "unknown_permanent"


def test_cr_800_4a_no_counters_for_a_player_who_left_the_game() -> None:
    game = multiplayer(3)
    game.act("concede", player="P3")
    with pytest.raises(IllegalAction) as err:
        game.act("add_counters", target={"player": "P3"}, kind="rad", amount=1)
    assert err.value.code == "player_left"


def test_cr_122_2_counters_cease_to_exist_on_a_zone_change_without_a_removal_event() -> None:
    game = two_player(battlefield=[perm("bears", BEARS, counters={"+1/+1": 2})])
    events = game.act("move", permanent="bears", to="hand")
    assert of_type(events, CountersRemoved.TYPE) == []
    assert one(events, PermanentLeft.TYPE).data["last_known"]["counters"] == {"+1/+1": 2}
    game.act("enter", id="bears", card=BEARS, controller="P1")
    assert game.perm_counters("bears") == {}


def test_cr_704_5q_plus_and_minus_counters_annihilate_as_a_state_based_action() -> None:
    game = two_player(battlefield=[perm("bears", BEARS, counters={"+1/+1": 3})])
    events = game.act("add_counters", target={"permanent": "bears"}, kind="-1/-1", amount=1)
    removed = of_type(events, CountersRemoved.TYPE)
    assert sorted((e.data["kind"], e.data["amount"], e.data["cause"], e.rule) for e in removed) == [
        ("+1/+1", 1, "sba", "CR 704.5q"),
        ("-1/-1", 1, "sba", "CR 704.5q"),
    ]
    assert game.perm_counters("bears") == {"+1/+1": 2}


def test_cr_810_10_poison_given_to_a_2hg_player_is_the_teams() -> None:
    game = two_headed_giant()
    game.act("add_counters", target={"player": "A2"}, kind="poison", amount=3)
    assert game.team_counters("A") == {"poison": 3}
    assert game.counters("A2") == {}
    assert game.view["teams"]["A"]["counters"] == {"poison": 3}


def test_cr_810_10b_a_2hg_player_who_loses_poison_takes_it_from_the_team() -> None:
    game = two_headed_giant(teams={"A": {"counters": {"poison": 4}}})
    game.act("remove_counters", target={"player": "A1"}, kind="poison", amount=3)
    assert game.team_counters("A") == {"poison": 1}


def test_cr_810_5_rad_counters_are_not_shared_in_2hg() -> None:
    game = two_headed_giant()
    game.act("add_counters", target={"player": "A1"}, kind="rad", amount=2)
    assert game.counters("A1") == {"rad": 2}
    assert game.counters("A2") == {}
    assert game.team_counters("A") == {}
