"""Hidden draws and unnamed mills (issue 30): a draw from an unknown library moves unknown cards
without naming them (CR 121.1, 504.1; the hand is hidden, CR 400.2); a mill from it may be named
or, when the table doesn't name the cards, counted by how many were nonland: all the rad trigger
reads (CR 728.1, 701.17a). The graveyard counts the unnamed cards."""

from __future__ import annotations

from typing import Any

import pytest

from domain.audit import check_event
from domain.errors import GameError
from domain.event_view import redacted
from domain.events import CardsDrawn, CardsMilled, CountersRemoved, Event, LifeLost
from domain.serialize import state_from_json, state_to_json
from projections.sentences import describe
from tests.domain.helpers import BEARS, BOLT, FOREST, Game, of_type, one, player, two_player


def refused(game: Game, type_: str, **fields: Any) -> GameError:
    before = game.snapshot()
    with pytest.raises(GameError) as err:
        game.act(type_, **fields)
    assert game.snapshot() == before
    return err.value


def audited(game: Game, type_: str, **fields: Any) -> list[Event]:
    """Act, checking each event with the import audit against the state before it."""
    state = game.state
    events = game.act(type_, **fields)
    from domain.evolve import evolve

    for event in events:
        assert check_event(state, event) is None, event
        state = evolve(state, event)
    return events


def paper(**p1: Any) -> Game:
    """A paper start (53 unknown cards, 7 in hand) for P1 unless ``p1`` says otherwise, in a main phase."""
    return Game(
        {
            "variant": "two_player",
            "players": [player("P1", **p1), player("P2")],
            "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
        }
    )


# -- hidden draws (CR 121.1) ------------------------------------------------------------------------
def test_cr_121_1_a_draw_action_from_an_unknown_library_moves_an_unknown_card_unnamed() -> None:
    game = paper()
    events = audited(game, "draw", player="P1", count=2)
    data = one(events, CardsDrawn.TYPE).data
    assert (data["cards"], data["unknown_count"], data["from_empty"]) == ([], 2, False)
    assert (game.view["players"]["P1"]["library_size"], game.view["players"]["P1"]["hand_size"]) == (51, 9)


def test_cr_121_1_a_draw_from_a_known_top_and_an_unknown_rest() -> None:
    game = paper(library=[BEARS], library_size=10, hand_size=0)
    data = one(audited(game, "draw", player="P1", count=3), CardsDrawn.TYPE).data
    assert ([c["name"] for c in data["cards"]], data["unknown_count"]) == (["Grizzly Bears"], 2)
    p1 = game.state.players["P1"]
    assert ([c.name for c in p1.hand], p1.hand_unknown, p1.library_size) == (["Grizzly Bears"], 2, 7)


def test_cr_121_1_drawn_cards_may_still_be_named() -> None:
    game = paper()
    audited(game, "draw", player="P1", cards=[BOLT])
    assert [c.name for c in game.state.players["P1"].hand] == ["Lightning Bolt"]


def test_cr_504_1_the_draw_step_of_a_paper_start_draws_unnamed() -> None:
    game = Game(
        {"variant": "two_player", "players": [player("P1"), player("P2")], "turn": {"number": 2, "step": "upkeep"}}
    )
    events = game.advance()
    assert one(events, CardsDrawn.TYPE).data["unknown_count"] == 1
    assert (game.view["players"]["P1"]["library_size"], game.view["players"]["P1"]["hand_size"]) == (52, 8)


# -- the rad trigger from an unknown library (CR 728.1) -----------------------------------------------
def rad_game(**p1: Any) -> Game:
    game = Game(
        {
            "variant": "two_player",
            "players": [player("P1", counters={"rad": 3}, **p1), player("P2")],
            "turn": {"number": 3, "active_player": "P1", "step": "draw"},
        }
    )
    game.advance()  # the precombat main phase: the rad trigger goes on the stack
    return game


def test_cr_728_1_the_rad_trigger_from_an_unknown_library_takes_the_nonland_count() -> None:
    game = rad_game()
    top = game.view["stack"][0]
    assert (top["needs"], top["card_count"], top["alternatives"]) == (["cards"], 3, {"cards": ["nonland_count"]})
    events = game.resolve(nonland_count=2)
    milled = one(events, CardsMilled.TYPE)
    assert (milled.data["cards"], milled.data["unnamed_count"], milled.data["nonland_count"]) == ([], 3, 2)
    assert milled.rule == "CR 728.1"
    assert one(events, LifeLost.TYPE).data["amount"] == 2 and one(events, CountersRemoved.TYPE).data["amount"] == 2
    assert game.life("P1") == 18 and game.counters("P1") == {"rad": 1}
    p1 = game.view["players"]["P1"]
    assert (p1["library_size"], p1["graveyard"], p1["graveyard_unnamed"]) == (50, [], 3)
    assert "mills 3 unnamed cards, 2 nonland in all" in describe(milled.type, milled.data, milled.rule)
    assert state_from_json(state_to_json(game.state)) == game.state


def test_cr_728_1_only_lands_unnamed_costs_nothing() -> None:
    game = rad_game()
    events = game.resolve(nonland_count=0)
    assert of_type(events, LifeLost.TYPE) == [] and of_type(events, CountersRemoved.TYPE) == []
    assert game.counters("P1") == {"rad": 3} and game.view["players"]["P1"]["graveyard_unnamed"] == 3


def test_cr_728_1_the_refusal_says_what_resolve_accepts() -> None:
    game = rad_game()
    err = refused(game, "resolve")
    assert err.code == "choice_required"
    assert "'cards'" in err.message and "'nonland_count'" in err.message and "3" in err.message
    assert refused(game, "resolve", choices={"nonland_count": 4}).code == "illegal_choice"  # 3 are milled
    assert refused(game, "resolve", choices={"cards": [BEARS]}).code == "wrong_card_count"


def test_cr_728_1_named_cards_still_work() -> None:
    game = rad_game()
    events = game.resolve(cards=[BEARS, FOREST, BOLT])
    milled = one(events, CardsMilled.TYPE).data
    assert ([c["name"] for c in milled["cards"]], milled.get("unnamed_count", 0), milled["nonland_count"]) == (
        ["Grizzly Bears", "Forest", "Lightning Bolt"],
        0,
        2,
    )
    assert game.life("P1") == 18 and game.view["players"]["P1"]["graveyard_unnamed"] == 0
    assert refused(rad_game(), "resolve", choices={"cards": [BEARS, FOREST, BOLT], "nonland_count": 3}).code == (
        "illegal_choice"
    )


def test_cr_728_1_a_known_top_and_an_unknown_rest() -> None:
    """The known top card is milled by name, the two below it unnamed; ``nonland_count`` counts all
    three, so a known nonland top card makes it at least 1."""
    game = rad_game(library=[BOLT], library_size=20)
    assert game.view["stack"][0]["card_count"] == 3
    assert refused(game, "resolve", choices={"nonland_count": 0}).code == "illegal_choice"
    events = game.resolve(nonland_count=2)
    milled = one(events, CardsMilled.TYPE).data
    assert ([c["name"] for c in milled["cards"]], milled["unnamed_count"], milled["nonland_count"]) == (
        ["Lightning Bolt"],
        2,
        2,
    )
    sentence = describe(CardsMilled.TYPE, milled, "CR 728.1")
    assert "mills Lightning Bolt and 2 unnamed cards, 2 nonland in all" in sentence
    p1 = game.view["players"]["P1"]
    assert ([c["name"] for c in p1["graveyard"]], p1["graveyard_unnamed"], p1["library_size"]) == (
        ["Lightning Bolt"],
        2,
        17,
    )
    assert game.life("P1") == 18


def test_cr_728_1_a_fully_known_library_needs_no_choice() -> None:
    game = rad_game(library=[BEARS, FOREST, BOLT, BOLT])
    assert "card_count" not in game.view["stack"][0]
    game.resolve()
    assert game.life("P1") == 18


# -- other mills (CR 701.17a) -----------------------------------------------------------------------------
def test_cr_701_17a_a_mill_action_from_an_unknown_library_takes_the_nonland_count() -> None:
    game = paper()
    err = refused(game, "mill", player="P1", count=4)
    assert err.code == "cards_required" and "'nonland_count'" in err.message
    events = audited(game, "mill", player="P1", count=4, nonland_count=1)
    milled = one(events, CardsMilled.TYPE).data
    assert (milled["unnamed_count"], milled["nonland_count"], milled["cause"]) == (4, 1, "manual")
    assert (game.view["players"]["P1"]["library_size"], game.view["players"]["P1"]["graveyard_unnamed"]) == (49, 4)
    assert refused(game, "mill", player="P1", count=2, nonland_count=3).code == "illegal_choice"


def test_the_audit_refuses_unnamed_mills_the_server_could_not_have_recorded() -> None:
    game = paper(library=[BOLT], library_size=10)
    state = game.state
    milled = {"player": "P1", "cause": "manual"}
    bad = [
        CardsMilled(**milled, cards=[], requested=2, nonland_count=1, unnamed_count=2),  # the known Bolt unnamed
        CardsMilled(**milled, cards=[BOLT], requested=3, nonland_count=0, unnamed_count=2),  # Bolt is nonland
        CardsMilled(**milled, cards=[BOLT], requested=3, nonland_count=4, unnamed_count=2),  # 3 cards at most
        CardsMilled(**milled, cards=[BOLT], requested=3, nonland_count=1, unnamed_count=1),  # 2 milled, 3 asked
    ]
    for payload in bad:
        assert check_event(state, Event(payload, "CR 701.17a")) is not None, payload
    good = CardsMilled(**milled, cards=[BOLT], requested=3, nonland_count=3, unnamed_count=2)
    assert check_event(state, Event(good, "CR 701.17a")) is None


def test_an_unnamed_mill_is_public_but_names_nothing() -> None:
    game = paper()
    milled = one(game.act("mill", player="P1", count=2, nonland_count=1), CardsMilled.TYPE)
    assert redacted(milled.type, milled.data) is None  # nothing hidden in it: the graveyard is public


def test_helpers_still_give_an_empty_library_where_the_tests_say_so() -> None:
    """The ready-made ``two_player`` game keeps the libraries its tests give (here: none)."""
    game = two_player(p1={"library": []})
    assert game.view["players"]["P1"]["library_size"] == 0
