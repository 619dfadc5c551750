"""State-based actions (CR 704) and the end of the game (CR 104)."""

from __future__ import annotations

from domain.events import CountersRemoved, GameEnded, PermanentLeft, PlayerLost, TeamLost
from tests.domain.helpers import BEARS, SAGA, multiplayer, of_type, one, perm, two_headed_giant, two_player


def test_cr_704_5a_a_player_at_0_life_loses_and_104_2a_the_other_wins() -> None:
    game = two_player(p1={"life": 2})
    events = game.act("lose_life", player="P1", amount=2)
    lost = one(events, PlayerLost.TYPE)
    assert (lost.data["player"], lost.rule) == ("P1", "CR 704.5a")
    ended = one(events, GameEnded.TYPE)
    assert (ended.data, ended.rule) == ({"winners": ["P2"], "draw": False}, "CR 104.2a")
    assert game.view["players"]["P1"]["loss_reason"] == "CR 704.5a"
    assert game.view["result"] == {"winners": ["P2"], "draw": False}


def test_cr_704_5a_life_below_zero_also_loses() -> None:
    game = two_player(p1={"life": 2})
    game.act("lose_life", player="P1", amount=7)
    assert game.state.players["P1"].lost
    assert game.life("P1") == -5


def test_cr_704_5c_ten_poison_counters_lose() -> None:
    game = two_player(p2={"counters": {"poison": 8}})
    events = game.act("add_counters", target={"player": "P2"}, kind="poison", amount=2)
    assert one(events, PlayerLost.TYPE).rule == "CR 704.5c"


def test_cr_704_5c_nine_poison_counters_do_not_lose() -> None:
    game = two_player(p2={"counters": {"poison": 8}})
    events = game.act("add_counters", target={"player": "P2"}, kind="poison", amount=1)
    assert of_type(events, PlayerLost.TYPE) == []


def test_cr_704_3_one_loss_per_player_even_with_several_reasons() -> None:
    game = two_player(p2={"life": 1, "counters": {"poison": 9}})
    events = game.act("damage", target={"player": "P2"}, amount=1, toxic=1)
    assert len(of_type(events, PlayerLost.TYPE)) == 1


def test_cr_104_4a_all_remaining_players_losing_at_once_is_a_draw() -> None:
    game = two_player(p1={"life": 4, "hand": ["Flame Rift"]}, p2={"life": 4})
    game.act("cast", player="P1", card="Flame Rift")
    events = game.resolve()
    assert len(of_type(events, PlayerLost.TYPE)) == 2
    ended = one(events, GameEnded.TYPE)
    assert (ended.data["winners"], ended.data["draw"], ended.rule) == ([], True, "CR 104.4a")


def test_cr_104_4d_all_remaining_2hg_teams_losing_at_once_is_a_draw() -> None:
    game = two_headed_giant(players={"A1": {"hand": ["Flame Rift"]}}, teams={"A": {"life": 8}, "B": {"life": 5}})
    game.act("cast", player="A1", card="Flame Rift")
    events = game.resolve()
    assert sorted(e.data["team"] for e in of_type(events, TeamLost.TYPE)) == ["A", "B"]
    ended = one(events, GameEnded.TYPE)
    assert (ended.data["draw"], ended.rule) == (True, "CR 104.4d")


def test_cr_704_5a_in_multiplayer_the_game_goes_on_until_one_player_is_left() -> None:
    game = multiplayer(3, players={"P2": {"life": 1}, "P3": {"life": 1}})
    events = game.act("lose_life", player="P2", amount=1)
    assert of_type(events, GameEnded.TYPE) == []
    assert game.state.status == "in_progress"
    events = game.act("lose_life", player="P3", amount=1)
    assert one(events, GameEnded.TYPE).data["winners"] == ["P1"]


def test_cr_704_5f_a_creature_with_toughness_0_goes_to_the_graveyard() -> None:
    game = two_player(battlefield=[perm("bears", BEARS)])
    events = game.act("add_counters", target={"permanent": "bears"}, kind="-1/-1", amount=2)
    assert one(events, PermanentLeft.TYPE).rule == "CR 704.5f"
    assert "bears" not in game.state.battlefield


def test_cr_704_5f_applies_to_indestructible_creatures_too() -> None:
    idol = {
        "name": "Idol",
        "type_line": "Creature — Golem",
        "power": "1",
        "toughness": "1",
        "oracle_text": "Indestructible",
    }
    game = two_player(battlefield=[perm("idol", idol)])
    events = game.act("add_counters", target={"permanent": "idol"}, kind="-1/-1", amount=1)
    assert one(events, PermanentLeft.TYPE).rule == "CR 704.5f"


def test_cr_704_5g_damage_and_minus_counters_together_can_be_lethal() -> None:
    game = two_player(battlefield=[perm("bears", BEARS, counters={"-1/-1": 1})])
    events = game.act("damage", target={"permanent": "bears"}, amount=1)
    assert one(events, PermanentLeft.TYPE).rule == "CR 704.5g"


def test_cr_704_5q_annihilation_removes_n_of_each_where_n_is_the_smaller_count() -> None:
    game = two_player(battlefield=[perm("bears", BEARS, counters={"+1/+1": 2})])
    game.act("add_counters", target={"permanent": "bears"}, kind="-1/-1", amount=3)
    removed = {(e.data["kind"], e.data["amount"]) for e in game.events if e.type == CountersRemoved.TYPE}
    assert removed == {("+1/+1", 2), ("-1/-1", 2)}
    assert game.perm_counters("bears") == {"-1/-1": 1}
    assert "bears" in game.state.battlefield  # 2/2 with one -1/-1: 1/1


def test_cr_704_5s_a_saga_is_sacrificed_after_its_final_chapter_has_left_the_stack() -> None:
    game = two_player(battlefield=[perm("saga", SAGA, counters={"lore": 2})], step="draw")
    game.advance()
    assert game.perm_counters("saga") == {"lore": 3}
    assert "saga" in game.state.battlefield  # chapter III is on the stack
    events = game.resolve()
    left = one(events, PermanentLeft.TYPE)
    assert (left.data["reason"], left.rule) == ("sacrifice", "CR 704.5s")


def test_cr_704_6b_fifteen_poison_loses_a_2hg_team_and_810_8a_both_players() -> None:
    game = two_headed_giant(teams={"A": {"counters": {"poison": 13}}})
    events = game.act("add_counters", target={"player": "A2"}, kind="poison", amount=2)
    assert one(events, TeamLost.TYPE).rule == "CR 704.6b"
    assert [e.data["player"] for e in of_type(events, PlayerLost.TYPE)] == ["A1", "A2"]
    assert game.state.teams["A"].lost
