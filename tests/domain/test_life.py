"""Life (CR 119): loss, gain, payment; shared team life in Two-Headed Giant (CR 810.9)."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import GameEnded, LifeGained, LifeLost, PlayerLost
from tests.domain.helpers import Game, archenemy, multiplayer, of_type, one, player, two_headed_giant, two_player


@pytest.mark.parametrize(
    ("variant", "ids", "expected"),
    [
        ("two_player", ["P1", "P2"], 20),
        ("multiplayer", ["P1", "P2", "P3"], 20),
    ],
)
def test_cr_103_4_starting_life_is_20(variant: str, ids: list[str], expected: int) -> None:
    game = Game({"variant": variant, "players": [player(pid) for pid in ids]})
    assert {game.life(pid) for pid in ids} == {expected}


def test_cr_103_4a_810_4_a_2hg_team_starts_at_30_shared() -> None:
    game = two_headed_giant()
    assert (game.state.teams["A"].life, game.view["players"]["A2"]["life"]) == (30, 30)


def test_cr_103_4e_the_archenemy_starts_at_40_the_others_at_20() -> None:
    game = archenemy()
    assert (game.life("E"), game.life("H1"), game.life("H2")) == (40, 20, 20)


def test_cr_119_3_lose_life_records_the_life_after() -> None:
    game = two_player()
    events = game.act("lose_life", player="P1", amount=3, source="Vampire")
    assert one(events, LifeLost.TYPE).data == {"player": "P1", "amount": 3, "cause": "Vampire", "life_after": 17}
    assert one(events, LifeLost.TYPE).rule == "CR 119.3"
    assert game.life("P1") == 17


def test_cr_119_3_gain_life_records_the_life_after() -> None:
    game = two_player(p1={"life": 5})
    events = game.act("gain_life", player="P1", amount=4)
    assert one(events, LifeGained.TYPE).data == {"player": "P1", "amount": 4, "cause": "manual", "life_after": 9}


def test_cr_119_4_paying_more_life_than_you_have_is_refused_and_stores_nothing() -> None:
    game = two_player(p1={"life": 3})
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.act("pay_life", player="P1", amount=4)
    assert err.value.code == "insufficient_life"
    assert game.snapshot() == before


def test_cr_119_4_paying_all_your_life_is_allowed_then_704_5a_loses() -> None:
    game = two_player(p1={"life": 3})
    events = game.act("pay_life", player="P1", amount=3)
    lost = one(events, LifeLost.TYPE)
    assert (lost.data["paid"], lost.data["life_after"], lost.rule) == (True, 0, "CR 119.4")
    assert one(events, PlayerLost.TYPE).rule == "CR 704.5a"


def test_cr_119_4_paying_zero_life_is_always_allowed_and_changes_nothing() -> None:
    game = two_player(p1={"life": 1})
    events = game.act("pay_life", player="P1", amount=0)
    assert of_type(events, LifeLost.TYPE) == []
    assert game.life("P1") == 1


def test_cr_119_4_zero_life_can_be_paid_even_below_zero_life() -> None:
    game = two_player(p1={"life": -1})
    events = game.act("pay_life", player="P1", amount=0)
    assert one(events, PlayerLost.TYPE).rule == "CR 704.5a"  # the payment is legal; then SBAs apply


def test_cr_810_9_2hg_life_loss_by_one_player_comes_off_the_team_total() -> None:
    game = two_headed_giant()
    events = game.act("lose_life", player="B2", amount=5)
    assert one(events, LifeLost.TYPE).data["life_after"] == 25
    assert game.state.teams["B"].life == 25
    assert (game.view["players"]["B1"]["life"], game.view["players"]["B2"]["life"]) == (25, 25)
    assert game.state.teams["A"].life == 30


def test_cr_810_9_flame_rift_deals_each_2hg_team_a_total_of_8() -> None:
    game = two_headed_giant(players={"A1": {"hand": ["Flame Rift"]}})
    game.act("cast", player="A1", card="Flame Rift")
    events = game.resolve()
    assert len(of_type(events, LifeLost.TYPE)) == 4
    assert (game.state.teams["A"].life, game.state.teams["B"].life) == (22, 22)


def test_cr_810_9a_a_2hg_player_pays_life_from_the_team_total() -> None:
    game = two_headed_giant(teams={"A": {"life": 11}})
    with pytest.raises(IllegalAction) as err:
        game.act("pay_life", player="A1", amount=12)
    assert err.value.code == "insufficient_life"
    game.act("pay_life", player="A1", amount=6)
    assert game.state.teams["A"].life == 5


def test_cr_704_6a_a_2hg_team_at_0_life_loses_as_a_team() -> None:
    game = two_headed_giant(teams={"B": {"life": 3}})
    events = game.act("lose_life", player="B1", amount=3)
    assert sorted(e.data["player"] for e in of_type(events, PlayerLost.TYPE)) == ["B1", "B2"]
    assert all(e.rule == "CR 704.6a" for e in of_type(events, PlayerLost.TYPE))
    assert one(events, GameEnded.TYPE).data["winners"] == ["A1", "A2"]


def test_cr_800_4a_life_of_a_player_who_left_cant_change() -> None:
    game = multiplayer(3)
    game.act("concede", player="P2")
    for kind in ("lose_life", "gain_life", "pay_life"):
        with pytest.raises(IllegalAction) as err:
            game.act(kind, player="P2", amount=1)
        assert err.value.code == "player_left"
