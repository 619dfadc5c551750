"""A game's opening as at a paper table (issue 30): the paper start of a game created without a
library (CR 103.5: seven cards in hand, the rest of the deck an unknown library; CR 100.2a,
100.2b, 903.5a deck sizes), mulligans (CR 103.5, London; 103.5c the free first mulligan of a
multiplayer game), the first player (CR 103.1) and the first draws (CR 103.8, 504.1, 704.5b)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.audit import check_event, check_settled
from domain.errors import GameError
from domain.events import Event, FirstPlayerChosen, GameStarted, HandKept, MulliganTaken, PlayerLost
from domain.evolve import evolve
from domain.serialize import state_from_json, state_to_json
from tests.domain.helpers import BEARS, FOREST, Game, of_type, one, player

CMDR = {"name": "Test Commander", "type_line": "Legendary Creature — Angel", "power": "7", "toughness": "7"}
PARTNER = {"name": "Other Commander", "type_line": "Legendary Creature — Elf", "power": "1", "toughness": "1"}


def sizes(game: Game, pid: str) -> tuple[int, int]:
    """(library size, hand size) as the API's state shows them."""
    p = game.view["players"][pid]
    return p["library_size"], p["hand_size"]


def refused(game: Game, type_: str, **fields: Any) -> str:
    """The code of a refused action; the refusal changes nothing."""
    before = game.snapshot()
    with pytest.raises(GameError) as err:
        game.act(type_, **fields)
    assert game.snapshot() == before
    return str(err.value.code)


def audited_replay(game: Game) -> None:
    """Every event passes the import audit against the state before it (one action at a time is
    not tracked here, so only the end is checked as settled)."""
    state = evolve(None, game.events[0])  # type: ignore[arg-type]
    for event in game.events[1:]:
        assert check_event(state, event) is None, event
        state = evolve(state, event)
    assert check_settled(state) is None
    assert state_from_json(state_to_json(state)) == state


def two_player_paper(**extra: Any) -> Game:
    return Game({"variant": "two_player", "players": [player("P1"), player("P2")], **extra})


def commander_pod(**extra: Any) -> Game:
    players = [player(f"P{i}", commanders=[{**CMDR, "name": f"Commander {i}"}]) for i in range(1, 5)]
    return Game({"variant": "commander", "players": players, **extra})


# -- the paper start (CR 103.5, 100.2a, 100.2b, 903.5a) -------------------------------------------
def test_cr_103_5_a_game_created_without_a_library_starts_with_53_unknown_cards_and_7_in_hand() -> None:
    game = two_player_paper()
    assert sizes(game, "P1") == (53, 7) and sizes(game, "P2") == (53, 7)
    started = one(game.events, GameStarted.TYPE).data["players"][0]
    assert (started["library"], started["library_unknown"], started["hand"], started["hand_unknown"]) == ([], 53, [], 7)
    p1 = game.view["players"]["P1"]
    assert p1["library"] is None and (p1["mulligans"], p1["hand_kept"], p1["graveyard_unnamed"]) == (0, False, 0)


def test_cr_100_2b_a_limited_deck_of_40_and_a_players_own_deck_size() -> None:
    game = Game({"variant": "two_player", "deck_size": 40, "players": [player("P1"), player("P2", deck_size=45)]})
    assert sizes(game, "P1") == (33, 7) and sizes(game, "P2") == (38, 7)


def test_cr_903_5a_a_commander_deck_is_100_cards_its_commander_in_the_command_zone() -> None:
    players = [player("P1", commanders=[CMDR]), player("P2", commanders=[PARTNER, {**CMDR, "name": "Partner Two"}])]
    game = Game({"variant": "commander", "players": players})
    assert sizes(game, "P1") == (92, 7)
    assert [c["name"] for c in game.view["players"]["P1"]["command"]] == ["Test Commander"]
    assert sizes(game, "P2") == (91, 7)  # two partners in the command zone (CR 903.3)


def test_cards_the_game_starts_with_elsewhere_come_out_of_the_deck() -> None:
    body = {
        "variant": "two_player",
        "players": [player("P1", hand=[FOREST], graveyard=[BEARS]), player("P2", hand_size=5)],
        "battlefield": [
            {"id": "b", "card": BEARS, "controller": "P1"},
            {"id": "t", "card": BEARS, "controller": "P1", "token": True},
        ],
    }
    game = Game(body)
    assert sizes(game, "P1") == (57, 1)  # 60 - the Forest in hand, the Bears in the graveyard and on the battlefield
    assert sizes(game, "P2") == (55, 5)


@pytest.mark.parametrize("empty", [{"library": []}, {"library_size": 0}])
def test_cr_704_5b_an_explicit_empty_library_still_loses_at_the_first_draw(empty: dict[str, Any]) -> None:
    game = Game({"variant": "two_player", "players": [player("P1", library=[]), player("P2", **empty)]})
    assert sizes(game, "P2") == (0, 0)
    game.advance("next_turn")  # 103.8a: P1 skips the draw of the first turn
    events = game.advance("draw")
    lost = one(events, PlayerLost.TYPE)
    assert (lost.data["player"], lost.rule) == ("P2", "CR 704.5b")


@pytest.mark.parametrize(
    "body",
    [
        {"players": [player("P1", deck_size=40, library=[]), player("P2")]},  # deck_size is for a paper start
        {"players": [player("P1", deck_size=40, library_size=20), player("P2")]},
        {"players": [player("P1", deck_size=5), player("P2")]},  # smaller than the opening hand
        {"deck_size": 3, "players": [player("P1"), player("P2", library=[])]},
    ],
)
def test_a_deck_size_that_cant_be_is_refused(body: dict[str, Any]) -> None:
    with pytest.raises(GameError) as err:
        Game({"variant": "two_player", **body})
    assert err.value.code == "invalid_field"


# -- the first turns: 103.8 and the draw step ---------------------------------------------------------
def test_cr_103_8a_a_60_card_two_player_game_plays_three_turns_and_a_mulligan_without_a_loss() -> None:
    game = two_player_paper()
    game.act("mulligan", player="P2")  # 103.5: a new seven
    assert sizes(game, "P2") == (53, 7)
    game.act("keep_hand", player="P2")  # one card to the bottom
    assert sizes(game, "P2") == (54, 6)
    game.act("keep_hand", player="P1")
    game.advance("next_turn")  # turn 1: P1 skips their draw (103.8a)
    assert sizes(game, "P1") == (53, 7)
    game.advance("draw")  # turn 2: P2 draws an unknown card (504.1)
    assert sizes(game, "P2") == (53, 7)
    game.advance("next_turn")
    game.advance("draw")  # turn 3: P1 draws
    assert sizes(game, "P1") == (52, 8)
    assert game.state.turn.number == 3 and game.state.status == "in_progress"
    assert of_type(game.events, PlayerLost.TYPE) == []
    audited_replay(game)


def test_cr_103_8c_a_four_player_commander_game_draws_on_turn_one_and_plays_three_turns() -> None:
    game = commander_pod()
    game.act("mulligan", player="P2")
    game.act("keep_hand", player="P2")  # 103.5c: the first mulligan is free in a multiplayer game
    assert sizes(game, "P2") == (92, 7)
    game.act("mulligan", player="P3")
    game.act("mulligan", player="P3")
    game.act("keep_hand", player="P3")  # the second counts: one to the bottom
    assert sizes(game, "P3") == (93, 6)
    game.advance("draw")  # turn 1: the first player draws (103.8c, 800.7)
    assert sizes(game, "P1") == (91, 8)
    for pid, expected in (("P2", (91, 8)), ("P3", (92, 7))):
        game.advance("next_turn")
        game.advance("draw")
        assert sizes(game, pid) == expected
    assert game.state.turn.number == 3 and of_type(game.events, PlayerLost.TYPE) == []
    assert all(p["life"] == 40 for p in game.view["players"].values())
    audited_replay(game)


def test_cr_103_8a_a_two_player_commander_game_skips_the_first_draw() -> None:
    game = Game(
        {"variant": "commander", "players": [player("P1", commanders=[CMDR]), player("P2", commanders=[PARTNER])]}
    )
    game.advance("draw")
    assert game.state.turn.step == "draw" and sizes(game, "P1") == (92, 7)  # a duel is a two-player game
    game.advance("next_turn")
    game.advance("draw")
    assert sizes(game, "P2") == (91, 8)


# -- mulligans (CR 103.5, 103.5c) -----------------------------------------------------------------------
def test_cr_103_5_a_mulligan_shuffles_the_hand_away_and_draws_an_unknown_seven() -> None:
    game = Game(
        {
            "variant": "two_player",
            "players": [player("P1", library=[BEARS], library_size=20, hand=[FOREST, FOREST]), player("P2")],
        }
    )
    events = game.act("mulligan", player="P1")
    taken = one(events, MulliganTaken.TYPE)
    assert (taken.data, taken.rule) == ({"player": "P1", "mulligans": 1, "hand_size": 7}, "CR 103.5")
    p1 = game.state.players["P1"]
    assert (p1.library, p1.library_unknown, p1.hand, p1.hand_unknown) == ((), 15, (), 7)  # shuffled: nothing known
    events = game.act("mulligan", player="P1")
    assert one(events, MulliganTaken.TYPE).data["mulligans"] == 2
    kept = one(game.act("keep_hand", player="P1", bottom=[BEARS]), HandKept.TYPE)
    assert (kept.data["mulligans"], kept.data["bottom_count"], kept.data["bottom"][0]["name"]) == (
        2,
        2,
        "Grizzly Bears",
    )
    assert sizes(game, "P1") == (17, 5) and game.view["players"]["P1"]["hand_kept"] is True
    assert game.view["players"]["P1"]["mulligans"] == 2


def test_cr_103_5_a_short_library_gives_a_short_new_hand() -> None:
    game = Game({"variant": "two_player", "players": [player("P1", library_size=2, hand_size=3), player("P2")]})
    assert one(game.act("mulligan", player="P1"), MulliganTaken.TYPE).data["hand_size"] == 5
    assert sizes(game, "P1") == (0, 5)


def test_cr_103_5_a_named_bottom_card_is_known_at_the_bottom_of_a_known_library() -> None:
    game = Game({"variant": "two_player", "players": [player("P1", library=[], hand=[FOREST, BEARS]), player("P2")]})
    game.act("mulligan", player="P1")  # the new hand is unknown: its cards are named as they go
    game.act("keep_hand", player="P1", bottom=[FOREST])
    p1 = game.state.players["P1"]
    assert ([c.name for c in p1.library], p1.library_unknown, p1.hand, p1.hand_unknown) == (["Forest"], 0, (), 1)


def test_cr_103_5_unnamed_bottom_cards_join_the_unknown_library() -> None:
    game = Game({"variant": "two_player", "players": [player("P1", library=[BEARS], hand_size=7), player("P2")]})
    game.act("mulligan", player="P1")
    game.act("keep_hand", player="P1")
    p1 = game.state.players["P1"]
    assert (p1.library, p1.library_unknown, p1.hand_unknown) == ((), 2, 6)
    game = Game({"variant": "two_player", "players": [player("P1", library=[], hand_size=7), player("P2")]})
    game.act("mulligan", player="P1")
    game.act("keep_hand", player="P1")  # an empty library gets one unknown card at its bottom
    assert sizes(game, "P1") == (1, 6)


def test_cr_103_5_refusals_store_nothing() -> None:
    game = two_player_paper()
    game.act("mulligan", player="P1")
    assert refused(game, "keep_hand", player="P1", bottom=[FOREST, BEARS]) == "wrong_card_count"  # one goes there
    assert refused(game, "advance") == "mulligan_pending"
    assert refused(game, "advance", to="draw") == "mulligan_pending"
    game.act("keep_hand", player="P1")
    assert refused(game, "mulligan", player="P1") == "hand_already_kept"
    assert refused(game, "keep_hand", player="P1") == "hand_already_kept"
    assert refused(game, "mulligan", player="P9") == "unknown_player"
    game.advance()  # the upkeep: the first turn-based action has happened
    assert refused(game, "mulligan", player="P2") == "too_late_to_mulligan"
    assert refused(game, "keep_hand", player="P2") == "too_late_to_mulligan"


def test_cr_103_5_a_game_created_later_in_the_game_has_no_mulligans() -> None:
    game = Game(
        {"variant": "two_player", "players": [player("P1"), player("P2")], "turn": {"number": 1, "step": "upkeep"}}
    )
    assert refused(game, "mulligan", player="P1") == "too_late_to_mulligan"


def test_cr_103_5_a_player_mulligans_until_their_opening_hand_would_be_zero() -> None:
    game = two_player_paper()
    for _ in range(7):
        game.act("mulligan", player="P1")
    assert refused(game, "mulligan", player="P1") == "illegal_action"
    kept = one(game.act("keep_hand", player="P1"), HandKept.TYPE)
    assert kept.data["bottom_count"] == 7 and sizes(game, "P1") == (60, 0)


def test_cr_103_5c_in_a_two_player_game_the_first_mulligan_is_not_free() -> None:
    game = two_player_paper()
    game.act("mulligan", player="P1")
    assert one(game.act("keep_hand", player="P1"), HandKept.TYPE).data["bottom_count"] == 1


def test_cr_103_5c_in_a_multiplayer_game_the_first_mulligan_is_free() -> None:
    game = Game({"variant": "multiplayer", "players": [player("P1"), player("P2"), player("P3")]})
    game.act("mulligan", player="P1")
    assert one(game.act("keep_hand", player="P1"), HandKept.TYPE).data["bottom_count"] == 0
    assert sizes(game, "P1") == (53, 7)


# -- the first player (CR 103.1) ----------------------------------------------------------------------
def test_cr_103_1_a_chosen_first_player_takes_the_first_turn_and_skips_its_draw() -> None:
    game = two_player_paper()
    chosen = one(game.act("choose_first_player", player="P2"), FirstPlayerChosen.TYPE)
    assert (chosen.data, chosen.rule) == ({"player": "P2", "method": "chosen"}, "CR 103.1")
    assert game.view["turn"]["active_player"] == "P2"
    assert game.view["first_player"] == {"player": "P2", "method": "chosen"}
    game.advance("next_turn")
    assert sizes(game, "P2") == (53, 7)  # 103.8a: the starting player skipped the draw
    game.advance("draw")
    assert game.state.turn.active_player == "P1" and sizes(game, "P1") == (52, 8)
    audited_replay(game)


def test_cr_103_1_the_random_pick_is_the_ledgers_and_the_event_records_it() -> None:
    from domain import run
    from domain.commands import ChooseFirstPlayer

    game = two_player_paper()
    events, state = run(game.state, ChooseFirstPlayer(drawn="P2"))
    assert one(events, FirstPlayerChosen.TYPE).data == {"player": "P2", "method": "random"}
    assert state.turn.active_player == "P2"
    with pytest.raises(GameError) as err:  # without the ledger's pick the domain can't roll
        run(game.state, ChooseFirstPlayer())
    assert err.value.code == "invalid_command"


def test_cr_103_1_the_first_player_is_chosen_once_before_any_mulligan() -> None:
    game = two_player_paper()
    game.act("choose_first_player", player="P2")
    assert refused(game, "choose_first_player", player="P1") == "too_late_to_choose"
    game = two_player_paper()
    game.act("keep_hand", player="P1")
    assert refused(game, "choose_first_player", player="P2") == "too_late_to_choose"
    game = two_player_paper()
    game.advance()
    assert refused(game, "choose_first_player", player="P2") == "too_late_to_choose"
    assert refused(two_player_paper(), "choose_first_player", player="P7") == "unknown_player"


def test_cr_103_1_in_two_headed_giant_the_first_player_s_team_takes_the_first_turn() -> None:
    players = [player(pid, team=pid[0]) for pid in ("A1", "A2", "B1", "B2")]
    game = Game({"variant": "two_headed_giant", "players": players})
    game.act("choose_first_player", player="B2")
    assert game.view["turn"]["active_player"] == "B2" and game.view["turn"]["active_team"] == "B"
    game.advance("draw")  # 103.8b: the starting team skips its first draw
    assert sizes(game, "B1") == (53, 7) and sizes(game, "B2") == (53, 7)


def test_cr_904_6_in_archenemy_the_archenemy_goes_first() -> None:
    players = [player("E", team="E"), player("H1", team="H"), player("H2", team="H")]
    game = Game({"variant": "archenemy", "players": players})
    assert refused(game, "choose_first_player", player="H1") == "illegal_action"


# -- the import audit refuses what the live server could not have written ------------------------
def test_the_audit_checks_opening_events() -> None:
    game = two_player_paper()
    state = game.state
    bad = [
        # the first mulligan is number 1
        (Event(MulliganTaken(player="P1", mulligans=2, hand_size=7), "CR 103.5"), "mulligan 2 of P1, who had taken 0"),
        # a new hand is seven
        (
            Event(MulliganTaken(player="P1", mulligans=1, hand_size=6), "CR 103.5"),
            "a new hand of 6: a mulligan draws 7 (CR 103.5)",
        ),
        # nothing goes to the bottom
        (
            Event(HandKept(player="P1", mulligans=0, bottom_count=1), "CR 103.5"),
            "1 card(s) on the bottom, but P1 puts 0 there after 0 mulligan(s) (CR 103.5, 103.5c)",
        ),
        (Event(FirstPlayerChosen(player="P3", method="random"), "CR 103.1"), "'P3' is not a player of this game"),
        (
            Event(FirstPlayerChosen(player="P1", method="coin"), "CR 103.1"),
            "'method' is 'random' or 'chosen', got 'coin'",
        ),
    ]
    for event, reason in bad:
        assert check_event(state, event) == reason
    # The same events, well formed, pass: each reason above is the one field that is wrong.
    assert check_event(state, Event(MulliganTaken(player="P1", mulligans=1, hand_size=7), "CR 103.5")) is None
    assert check_event(state, Event(FirstPlayerChosen(player="P1", method="random"), "CR 103.1")) is None
    game.act("mulligan", player="P1")
    late = Event(FirstPlayerChosen(player="P2", method="chosen"), "CR 103.1")
    assert check_event(game.state, late) == "the first player is chosen before any mulligan (CR 103.1, 103.5)"
