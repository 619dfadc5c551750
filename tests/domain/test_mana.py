"""Mana abilities (CR 605.3b: no stack), mana of an undefined type (CR 106.5)."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import AbilityActivated, ManaAdded
from tests.domain.helpers import BEARS, of_type, one, perm, two_player

GREEN_BEAR = {**BEARS, "mana_cost": "{1}{G}"}
RED_GOBLIN = {"name": "Goblin", "type_line": "Creature — Goblin", "power": "1", "toughness": "1", "mana_cost": "{R}"}


def test_cr_605_3b_a_forest_adds_g_at_once_without_the_stack() -> None:
    game = two_player(battlefield=[perm("forest", "Forest")])
    events = game.act("activate", player="P1", permanent="forest")
    assert one(events, AbilityActivated.TYPE).data["mana_ability"] is True
    added = one(events, ManaAdded.TYPE)
    assert (added.data, added.rule) == ({"player": "P1", "mana": {"G": 1}, "source": "forest"}, "CR 106.3")
    assert game.state.stack == ()
    assert game.state.battlefield["forest"].tapped


def test_cr_305_6_a_forest_whose_card_is_given_as_an_object_still_taps_for_g() -> None:
    game = two_player(battlefield=[perm("forest", {"name": "Forest", "type_line": "Basic Land — Forest"})])
    game.act("activate", player="P1", permanent="forest")
    assert game.view["players"]["P1"]["mana_pool"]["G"] == 1


def test_wastes_adds_colorless() -> None:
    """Wastes: "{T}: Add {C}." A mana ability (CR 605.1a) resolving at once (605.3b)."""
    game = two_player(battlefield=[perm("wastes", "Wastes")])
    game.act("activate", player="P1", permanent="wastes")
    assert game.view["players"]["P1"]["mana_pool"]["C"] == 1


def test_cr_107_5_a_tapped_forest_cant_be_tapped_for_mana() -> None:
    game = two_player(battlefield=[perm("forest", "Forest", tapped=True)])
    with pytest.raises(IllegalAction) as err:
        game.act("activate", player="P1", permanent="forest")
    assert err.value.code == "already_tapped"


def test_cr_106_5_meteor_crater_with_no_colored_permanent_produces_no_mana() -> None:
    game = two_player(battlefield=[perm("crater", "Meteor Crater")])
    events = game.act("activate", player="P1", permanent="crater")
    assert of_type(events, ManaAdded.TYPE) == []
    assert game.state.battlefield["crater"].tapped
    assert sum(game.view["players"]["P1"]["mana_pool"].values()) == 0


def test_meteor_crater_adds_the_one_color_of_a_permanent_you_control() -> None:
    """Meteor Crater's Oracle text; CR 106.5 only applies with no colour to choose."""
    game = two_player(battlefield=[perm("crater", "Meteor Crater"), perm("bear", GREEN_BEAR)])
    game.act("activate", player="P1", permanent="crater")
    assert game.view["players"]["P1"]["mana_pool"]["G"] == 1


def test_meteor_crater_ignores_opponents_colors() -> None:
    """Meteor Crater: a permanent *you control*; none means an undefined type, no mana (CR 106.5)."""
    game = two_player(battlefield=[perm("crater", "Meteor Crater"), perm("bear", GREEN_BEAR, controller="P2")])
    events = game.act("activate", player="P1", permanent="crater")
    assert of_type(events, ManaAdded.TYPE) == []


def test_meteor_crater_with_two_colors_needs_a_legal_choice() -> None:
    """Meteor Crater: "choose a color of a permanent you control" (the choice is made as it resolves, CR 608.2)."""
    game = two_player(
        battlefield=[perm("crater", "Meteor Crater"), perm("bear", GREEN_BEAR), perm("goblin", RED_GOBLIN)]
    )
    with pytest.raises(IllegalAction) as err:
        game.act("activate", player="P1", permanent="crater")
    assert err.value.code == "choice_required"
    with pytest.raises(IllegalAction) as err:
        game.act("activate", player="P1", permanent="crater", mana="U")
    assert err.value.code == "illegal_choice"
    game.act("activate", player="P1", permanent="crater", mana="R")
    assert game.view["players"]["P1"]["mana_pool"]["R"] == 1


def test_cr_302_6_llanowar_elves_cant_tap_for_mana_the_turn_it_enters() -> None:
    game = two_player(battlefield=[perm("elves", "Llanowar Elves", entered_this_turn=True)])
    with pytest.raises(IllegalAction) as err:
        game.act("activate", player="P1", permanent="elves")
    assert err.value.code == "summoning_sick"
