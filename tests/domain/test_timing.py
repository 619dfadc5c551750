"""Casting spells (CR 601, 307.1 sorcery timing) and playing lands (CR 305)."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import PermanentEntered, SpellCast
from tests.domain.helpers import BEARS, BOLT, FOREST, Game, one, two_player


def refused(game: Game, code: str, type_: str, **fields: object) -> None:
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.act(type_, **fields)
    assert err.value.code == code
    assert game.snapshot() == before


def test_cr_307_1_a_sorcery_speed_spell_is_cast_in_your_main_phase() -> None:
    game = two_player(p1={"hand": [BEARS]})
    events = game.act("cast", player="P1", card=BEARS)
    cast = one(events, SpellCast.TYPE)
    assert (cast.data["player"], cast.data["from"], cast.rule) == ("P1", "hand", "CR 601.2")
    assert game.view["stack"][0]["kind"] == "spell"
    assert game.state.players["P1"].hand == ()


@pytest.mark.parametrize(("active", "step"), [("P2", "precombat_main"), ("P1", "upkeep"), ("P1", "combat_damage")])
def test_cr_307_1_a_sorcery_speed_spell_is_refused_outside_your_main_phase(active: str, step: str) -> None:
    game = two_player(p1={"hand": [BEARS]}, active=active, step=step)
    refused(game, "wrong_timing", "cast", player="P1", card=BEARS)


def test_cr_307_1_a_sorcery_speed_spell_needs_an_empty_stack() -> None:
    game = two_player(p1={"hand": [BEARS, BOLT]})
    game.act("cast", player="P1", card=BOLT)
    refused(game, "wrong_timing", "cast", player="P1", card=BEARS)


def test_cr_117_1a_an_instant_can_be_cast_any_time_even_on_the_opponents_turn_in_response() -> None:
    game = two_player(p1={"hand": [BOLT]}, p2={"hand": [BOLT]}, active="P2", step="upkeep")
    game.act("cast", player="P1", card=BOLT)
    game.act("cast", player="P2", card=BOLT)
    assert [o.controller for o in game.state.stack] == ["P1", "P2"]


def test_cr_702_8a_flash_lets_a_creature_be_cast_any_time() -> None:
    ambusher = {**BEARS, "name": "Ambusher", "oracle_text": "Flash"}
    game = two_player(p1={"hand": [ambusher]}, active="P2", step="end")
    game.act("cast", player="P1", card=ambusher)
    assert len(game.state.stack) == 1


def test_a_card_not_in_a_known_hand_cant_be_cast() -> None:
    """CR 601.2a: the card moves from where it is (the hand) to the stack."""
    game = two_player(p1={"hand": [BOLT]})
    refused(game, "card_not_in_hand", "cast", player="P1", card=BEARS)


def test_an_unknown_hand_may_hold_the_card() -> None:
    """CR 601.2a from a hand the server can't see: its hidden count drops by one."""
    game = two_player(p1={"hand_size": 3})
    game.act("cast", player="P1", card=BEARS)
    assert game.state.players["P1"].hand_size == 2


def test_cr_305_9_a_land_is_played_not_cast() -> None:
    game = two_player(p1={"hand": [FOREST]})
    refused(game, "cannot_cast_land", "cast", player="P1", card=FOREST)


def test_cr_305_1_playing_a_land_puts_it_onto_the_battlefield_without_the_stack() -> None:
    game = two_player(p1={"hand": [FOREST]})
    events = game.act("play_land", player="P1", card=FOREST)
    entered = one(events, PermanentEntered.TYPE)
    assert (entered.data["from"], entered.data["land_play"], entered.rule) == ("hand", True, "CR 305.1")
    assert game.state.stack == ()
    assert game.state.players["P1"].hand == ()


def test_cr_305_2_one_land_per_turn() -> None:
    game = two_player(p1={"hand": [FOREST, FOREST]})
    game.act("play_land", player="P1", card=FOREST)
    refused(game, "land_already_played", "play_land", player="P1", card=FOREST)


def test_cr_305_2_the_land_play_comes_back_next_turn() -> None:
    game = two_player(p1={"hand": [FOREST, FOREST], "library": [BEARS] * 4}, p2={"library": [BEARS] * 4})
    game.act("play_land", player="P1", card=FOREST)
    game.advance("next_turn")
    game.advance("next_turn")
    game.advance("precombat_main")
    game.act("play_land", player="P1", card=FOREST)
    assert sum(1 for p in game.state.battlefield.values() if p.name == "Forest") == 2


def test_cr_305_1_a_land_is_played_in_your_own_main_phase() -> None:
    game = two_player(p1={"hand": [FOREST]}, step="upkeep")
    refused(game, "wrong_timing", "play_land", player="P1", card=FOREST)


def test_play_land_needs_a_land_card() -> None:
    """CR 305.1: playing a land is putting a land card onto the battlefield."""
    game = two_player(p1={"hand": [BEARS]})
    refused(game, "not_a_land", "play_land", player="P1", card=BEARS)


def test_cr_601_2a_a_spell_cast_from_the_graveyard_moves_from_there_to_the_stack() -> None:
    game = two_player(p1={"graveyard": [BOLT]})
    game.act("cast", player="P1", card=BOLT, **{"from": "graveyard"})
    assert game.state.players["P1"].graveyard == ()
    game.resolve()
    assert [c.name for c in game.state.players["P1"].graveyard] == ["Lightning Bolt"]


def test_cr_601_2a_a_spell_cast_from_exile_leaves_exile() -> None:
    game = two_player(p1={"exile": [BEARS]})
    game.act("cast", player="P1", card=BEARS, **{"from": "exile"})
    assert game.state.players["P1"].exile == ()


def test_cr_601_2a_a_spell_cast_from_the_library_is_its_top_card() -> None:
    game = two_player(p1={"library": [BOLT, BEARS]})
    refused(game, "card_not_in_zone", "cast", player="P1", card=BEARS, **{"from": "library"})
    game.act("cast", player="P1", card=BOLT, **{"from": "library"})
    assert [c.name for c in game.state.players["P1"].library] == ["Grizzly Bears"]


def test_cr_601_2a_a_card_that_isnt_in_the_named_zone_cant_be_cast_from_it() -> None:
    game = two_player(p1={"graveyard": [BEARS]})
    refused(game, "card_not_in_zone", "cast", player="P1", card=BOLT, **{"from": "graveyard"})
    refused(game, "card_not_in_zone", "cast", player="P1", card=BOLT, **{"from": "exile"})
