"""Drawing (CR 121) and losing by drawing from an empty library (CR 704.5b)."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import CardsDrawn, GameEnded, PlayerLost, TeamLost
from tests.domain.helpers import BEARS, BOLT, SHOCK, of_type, one, two_headed_giant, two_player


def test_cr_121_1_draw_moves_the_top_card_to_the_hand_count_defaults_to_one() -> None:
    game = two_player(p1={"library": [BEARS, BOLT]})
    events = game.act("draw", player="P1")
    data = one(events, CardsDrawn.TYPE).data
    assert ([c["name"] for c in data["cards"]], data["requested"], data["from_empty"]) == (["Grizzly Bears"], 1, False)
    assert [c.name for c in game.state.players["P1"].hand] == ["Grizzly Bears"]
    assert game.view["players"]["P1"]["library_size"] == 1


def test_cr_704_5b_drawing_from_an_empty_library_loses_at_the_next_check() -> None:
    game = two_player(p1={"library": []})
    events = game.act("draw", player="P1")
    assert one(events, CardsDrawn.TYPE).data["from_empty"] is True
    lost = one(events, PlayerLost.TYPE)
    assert (lost.data["player"], lost.rule) == ("P1", "CR 704.5b")
    assert one(events, GameEnded.TYPE).data == {"winners": ["P2"], "draw": False}


def test_cr_704_5b_drawing_more_cards_than_the_library_holds_draws_them_all_then_loses() -> None:
    game = two_player(p1={"library": [BEARS]})
    events = game.act("draw", player="P1", count=2)
    assert len(one(events, CardsDrawn.TYPE).data["cards"]) == 1
    assert one(events, PlayerLost.TYPE).data["player"] == "P1"
    assert game.state.players["P1"].hand_size == 1


def test_cr_121_1_a_reported_draw_from_an_unknown_library_draws_unnamed_cards() -> None:
    """A draw goes to a hidden hand (CR 400.2): from an unknown library the drawn cards need no
    names (issue 30; it used to be refused with ``cards_required``)."""
    game = two_player(p1={"library_size": 20, "hand_size": 7})
    events = game.act("draw", player="P1", count=2)
    assert one(events, CardsDrawn.TYPE).data["unknown_count"] == 2
    assert (game.view["players"]["P1"]["hand_size"], game.view["players"]["P1"]["library_size"]) == (9, 18)


def test_cr_504_1_the_draw_step_from_an_unknown_library_adds_a_hidden_card() -> None:
    """The server's own draws (the draw step) can't carry cards: the hand gains an unknown card."""
    game = two_player(p1={"library_size": 20, "hand_size": 7}, step="upkeep")
    events = game.advance()
    assert one(events, CardsDrawn.TYPE).data["unknown_count"] == 1
    assert (game.view["players"]["P1"]["hand_size"], game.view["players"]["P1"]["library_size"]) == (8, 19)


def test_drawn_cards_named_for_an_unknown_library_must_match_the_count() -> None:
    """CR 121.1 draws one card at a time: naming more or fewer than are drawn is refused (docs/api.md)."""
    game = two_player(p1={"library_size": 20})
    with pytest.raises(IllegalAction) as err:
        game.act("draw", player="P1", count=2, cards=[BOLT])
    assert err.value.code == "wrong_card_count"
    game.act("draw", player="P1", count=2, cards=[BOLT, SHOCK])
    assert [c.name for c in game.state.players["P1"].hand] == ["Lightning Bolt", "Shock"]


def test_cr_810_8a_in_2hg_a_player_who_draws_from_an_empty_library_loses_with_the_team() -> None:
    game = two_headed_giant(players={"A1": {"library": [BEARS]}, "A2": {"library": [BEARS]}, "B1": {"library": []}})
    events = game.act("draw", player="B1")
    assert one(events, TeamLost.TYPE).data["team"] == "B"
    assert sorted(e.data["player"] for e in of_type(events, PlayerLost.TYPE)) == ["B1", "B2"]
    assert one(events, GameEnded.TYPE).data["winners"] == ["A1", "A2"]
