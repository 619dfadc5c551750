"""Activating abilities (CR 602): {T} 107.5, {Q} 107.6, summoning sickness 302.6, other costs.

The cards here are unknown to the server, so the operator names the costs in ``costs``.
"""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import (
    AbilityActivated,
    CountersRemoved,
    LifeLost,
    PermanentLeft,
    PermanentTapped,
    PermanentUntapped,
    StackObjectResolved,
)
from tests.domain.helpers import GOLEM, RACER, RELIC, Game, of_type, one, perm, two_player, types

DRYAD_ARBOR = {"name": "Dryad Arbor", "type_line": "Land Creature — Forest Dryad", "power": "1", "toughness": "1"}


def refused(game: Game, code: str, **fields: object) -> None:
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.act("activate", player="P1", **fields)
    assert err.value.code == code
    assert game.snapshot() == before


def test_cr_107_5_tap_cost_taps_and_the_ability_goes_on_the_stack() -> None:
    game = two_player(battlefield=[perm("relic", RELIC)])
    events = game.act("activate", player="P1", permanent="relic", costs={"tap": True})
    assert types(events)[:2] == [AbilityActivated.TYPE, PermanentTapped.TYPE]
    assert one(events, PermanentTapped.TYPE).rule == "CR 107.5"
    assert game.state.battlefield["relic"].tapped
    assert game.view["stack"][0]["kind"] == "ability"
    resolved = game.resolve()
    assert one(resolved, StackObjectResolved.TYPE).data["note"] == "effects reported by hand"


def test_cr_107_5_a_tapped_permanent_cant_pay_tap() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, tapped=True)])
    refused(game, "already_tapped", permanent="relic", costs={"tap": True})


def test_cr_107_6_an_untapped_permanent_cant_pay_untap() -> None:
    game = two_player(battlefield=[perm("relic", RELIC)])
    refused(game, "already_untapped", permanent="relic", costs={"untap": True})


def test_cr_107_6_untap_cost_untaps_a_tapped_permanent() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, tapped=True)])
    events = game.act("activate", player="P1", permanent="relic", costs={"untap": True})
    assert one(events, PermanentUntapped.TYPE).rule == "CR 107.6"
    assert not game.state.battlefield["relic"].tapped


def test_cr_107_6_merrow_wavebreakers_q_is_known_to_the_server() -> None:
    game = two_player(battlefield=[perm("merrow", "Merrow Wavebreakers")])
    refused(game, "already_untapped", permanent="merrow")


def test_cr_302_6_a_creature_that_entered_this_turn_cant_pay_tap() -> None:
    game = two_player(battlefield=[perm("golem", GOLEM, entered_this_turn=True)])
    refused(game, "summoning_sick", permanent="golem", costs={"tap": True})


def test_cr_302_6_a_summoning_sick_creature_cant_pay_untap_either() -> None:
    game = two_player(battlefield=[perm("golem", GOLEM, entered_this_turn=True, tapped=True)])
    refused(game, "summoning_sick", permanent="golem", costs={"untap": True})


def test_cr_302_6_a_summoning_sick_creature_can_activate_abilities_without_tap_or_untap() -> None:
    game = two_player(battlefield=[perm("golem", GOLEM, entered_this_turn=True, counters={"charge": 1})])
    game.act("activate", player="P1", permanent="golem", costs={"remove_counters": {"charge": 1}})
    assert game.perm_counters("golem") == {}


def test_cr_302_6_noncreature_permanents_are_not_affected() -> None:
    game = two_player()
    game.act("enter", id="relic", card=RELIC, controller="P1")
    game.act("activate", player="P1", permanent="relic", costs={"tap": True})
    assert game.state.battlefield["relic"].tapped


def test_cr_302_6_a_land_creature_is_affected() -> None:
    game = two_player(battlefield=[perm("arbor", DRYAD_ARBOR, entered_this_turn=True)])
    refused(game, "summoning_sick", permanent="arbor", costs={"tap": True})


def test_cr_702_10_haste_ignores_summoning_sickness() -> None:
    game = two_player()
    game.act("enter", id="racer", card=RACER, controller="P1")
    game.act("activate", player="P1", permanent="racer", costs={"tap": True})
    assert game.state.battlefield["racer"].tapped


def test_cr_602_2_only_the_controller_activates() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, controller="P2")])
    refused(game, "not_controller", permanent="relic", costs={"tap": True})


def test_cr_701_21a_a_sacrifice_cost_puts_the_permanent_into_the_graveyard() -> None:
    game = two_player(battlefield=[perm("relic", RELIC), perm("golem", GOLEM)])
    events = game.act("activate", player="P1", permanent="relic", costs={"sacrifice": ["golem"]})
    left = one(events, PermanentLeft.TYPE)
    assert (left.data["permanent"], left.data["reason"], left.rule) == ("golem", "sacrifice", "CR 701.21a")
    assert "golem" not in game.state.battlefield


def test_cr_701_21a_only_your_own_permanents_can_be_sacrificed() -> None:
    game = two_player(battlefield=[perm("relic", RELIC), perm("golem", GOLEM, controller="P2")])
    refused(game, "illegal_choice", permanent="relic", costs={"sacrifice": ["golem"]})


def test_cr_701_21a_a_permanent_is_sacrificed_once() -> None:
    game = two_player(battlefield=[perm("relic", RELIC), perm("golem", GOLEM)])
    refused(game, "illegal_choice", permanent="relic", costs={"sacrifice": ["golem", "golem"]})


def test_throne_of_geth_must_sacrifice_an_artifact() -> None:
    """Throne of Geth's Oracle cost "Sacrifice an artifact" (CR 118.3: a cost must be paid in full)."""
    game = two_player(battlefield=[perm("throne", "Throne of Geth"), perm("bears", {"name": "Grizzly Bears"})])
    refused(game, "illegal_choice", permanent="throne", costs={"sacrifice": ["bears"]})
    refused(game, "illegal_choice", permanent="throne", costs={})


def test_cr_118_3_a_remove_counters_cost_needs_the_counters() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, counters={"charge": 1})])
    refused(game, "not_enough_counters", permanent="relic", costs={"remove_counters": {"charge": 2}})


def test_cr_118_3_a_remove_counters_cost_removes_them() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, counters={"charge": 3})])
    events = game.act("activate", player="P1", permanent="relic", costs={"remove_counters": {"charge": 2}})
    assert (one(events, CountersRemoved.TYPE).data["cause"], one(events, CountersRemoved.TYPE).rule) == (
        "cost",
        "CR 118.3",
    )
    assert game.perm_counters("relic") == {"charge": 1}


def test_cr_119_4_a_pay_life_cost_needs_the_life() -> None:
    game = two_player(p1={"life": 2}, battlefield=[perm("relic", RELIC)])
    with pytest.raises(IllegalAction) as err:
        game.act("activate", player="P1", permanent="relic", costs={"pay_life": 3})
    assert err.value.code == "insufficient_life"
    events = game.act("activate", player="P1", permanent="relic", costs={"pay_life": 2})
    assert one(events, LifeLost.TYPE).data["paid"] is True


def test_an_unknown_ability_index_of_an_automated_card_is_refused() -> None:
    """CR 602.2: only an ability the object has can be activated."""
    game = two_player(battlefield=[perm("forest", "Forest")])
    refused(game, "unknown_ability", permanent="forest", ability=1)
    assert of_type(game.events, AbilityActivated.TYPE) == []
