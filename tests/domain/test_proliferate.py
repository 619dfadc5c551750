"""Proliferate (CR 701.34): today's rule, the pre-War of the Spark rule, and Two-Headed Giant."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction, NotFound
from domain.events import CountersAdded, GameEnded, PlayerLost, Proliferated, TeamLost, TriggerPutOnStack
from tests.domain.helpers import (
    BEARS,
    RELIC,
    Game,
    multiplayer,
    of_type,
    one,
    perm,
    two_headed_giant,
    two_player,
)

HYDRA = {"name": "Feral Hydra"}
EXPEDITION = {"name": "Soul Stair Expedition", "type_line": "Enchantment"}
OGRE = {"name": "Hill Giant", "type_line": "Creature — Giant", "power": "3", "toughness": "3"}
OLD = "2019-05-02"


def classic() -> Game:
    return two_player(
        p2={"counters": {"poison": 2}},
        p1={"counters": {"poison": 1}},
        battlefield=[
            perm("hydra", "Feral Hydra", counters={"+1/+1": 7}),
            perm("expedition", EXPEDITION, counters={"quest": 2}),
            perm("throne", "Throne of Geth"),
            perm("thopter", {"name": "Ornithopter"}),
        ],
    )


def test_cr_701_34a_the_classic_throne_of_geth_example_gives_8_3_and_3_and_skips_own_poison() -> None:
    game = classic()
    game.act("activate", player="P1", permanent="throne", costs={"sacrifice": ["thopter"]})
    choice = [{"permanent": "hydra"}, {"permanent": "expedition"}, {"player": "P2"}]
    game.resolve(proliferate=choice)
    assert game.perm_counters("hydra") == {"+1/+1": 8}
    assert game.perm_counters("expedition") == {"quest": 3}
    assert game.counters("P2") == {"poison": 3}
    assert game.counters("P1") == {"poison": 1}


def test_cr_701_34a_the_ability_needs_its_choices_on_resolution() -> None:
    game = classic()
    game.act("activate", player="P1", permanent="throne", costs={"sacrifice": ["thopter"]})
    assert game.view["stack"][0]["needs"] == ["proliferate"]
    with pytest.raises(IllegalAction) as err:
        game.resolve()
    assert err.value.code == "choice_required"


def test_cr_701_34a_each_chosen_object_gets_one_counter_of_each_kind_it_has() -> None:
    game = two_player(battlefield=[perm("ogre", OGRE, controller="P2", counters={"+1/+1": 1, "stun": 1})])
    events = game.act("proliferate", player="P1", choose=[{"permanent": "ogre"}])
    assert sorted(e.data["kind"] for e in of_type(events, CountersAdded.TYPE)) == ["+1/+1", "stun"]
    assert all(e.data["cause"] == "proliferate" and e.rule == "CR 701.34a" for e in of_type(events, CountersAdded.TYPE))
    assert game.perm_counters("ogre") == {"+1/+1": 2, "stun": 2}


def test_cr_701_34a_proliferated_event_records_player_and_chosen() -> None:
    game = two_player(p2={"counters": {"poison": 1}})
    events = game.act("proliferate", player="P1", choose=[{"player": "P2"}], source="Contagion Clasp")
    assert one(events, Proliferated.TYPE).data == {
        "player": "P1",
        "chosen": [{"player": "P2"}],
        "cause": "Contagion Clasp",
    }


def test_cr_701_34a_since_2019_naming_a_kind_is_refused_not_widened() -> None:
    game = two_player(battlefield=[perm("ogre", OGRE, counters={"+1/+1": 1, "stun": 1})])
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.act("proliferate", player="P1", choose=[{"permanent": "ogre", "kind": "stun"}])
    assert err.value.code == "illegal_choice"
    assert game.snapshot() == before


def test_cr_701_34a_zero_choices_still_proliferates_and_triggers_whenever_you_proliferate() -> None:
    game = two_player(p1={"library": [BEARS]}, battlefield=[perm("ezuri", "Ezuri, Stalker of Spheres")])
    events = game.act("proliferate", player="P1", choose=[])
    assert one(events, Proliferated.TYPE).data["chosen"] == []
    assert of_type(events, CountersAdded.TYPE) == []
    assert "proliferate" in one(events, TriggerPutOnStack.TYPE).data["object"]["description"]
    game.resolve()
    assert [c.name for c in game.state.players["P1"].hand] == ["Grizzly Bears"]


def test_cr_701_34a_an_object_without_counters_cant_be_chosen() -> None:
    game = two_player(battlefield=[perm("relic", RELIC)])
    with pytest.raises(IllegalAction) as err:
        game.act("proliferate", player="P1", choose=[{"permanent": "relic"}])
    assert err.value.code == "no_counter_to_proliferate"
    with pytest.raises(IllegalAction) as err:
        game.act("proliferate", player="P1", choose=[{"player": "P2"}])
    assert err.value.code == "no_counter_to_proliferate"


def test_cr_701_34a_an_object_is_chosen_at_most_once() -> None:
    game = two_player(p2={"counters": {"poison": 1}})
    with pytest.raises(IllegalAction) as err:
        game.act("proliferate", player="P1", choose=[{"player": "P2"}, {"player": "P2"}])
    assert err.value.code == "illegal_choice"
    assert game.counters("P2") == {"poison": 1}


def test_cr_701_34a_only_permanents_on_the_battlefield_can_be_chosen() -> None:
    game = two_player()
    with pytest.raises(NotFound):
        game.act("proliferate", player="P1", choose=[{"permanent": "gone"}])


def test_cr_800_4a_a_player_who_left_cant_be_chosen_or_proliferate() -> None:
    game = multiplayer(3, players={"P3": {"counters": {"poison": 2}}, "P2": {"counters": {"rad": 1}}})
    game.act("concede", player="P3")
    with pytest.raises(IllegalAction) as err:
        game.act("proliferate", player="P1", choose=[{"player": "P3"}])
    assert err.value.code == "illegal_choice"
    with pytest.raises(IllegalAction) as err:
        game.act("proliferate", player="P3", choose=[{"player": "P2"}])
    assert err.value.code == "player_left"


def test_cr_704_5c_proliferating_nine_poison_to_ten_loses_the_game() -> None:
    game = two_player(p2={"counters": {"poison": 9}})
    events = game.act("proliferate", player="P1", choose=[{"player": "P2"}])
    lost = one(events, PlayerLost.TYPE)
    assert (lost.data["player"], lost.rule) == ("P2", "CR 704.5c")
    assert one(events, GameEnded.TYPE).data["winners"] == ["P1"]


# -- pre-War of the Spark (before 2019-05-03): one kind per chosen object --------------------------
def old_game() -> Game:
    return Game(
        {
            "variant": "two_player",
            "rules_edition": OLD,
            "players": [{"id": "P1"}, {"id": "P2", "counters": {"poison": 2, "rad": 1}}],
            "battlefield": [perm("ogre", OGRE, counters={"+1/+1": 1, "stun": 1})],
            "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
        }
    )


def test_old_cr_701_23b_before_2019_05_03_each_choice_names_the_one_kind_it_gets() -> None:
    game = old_game()
    game.act(
        "proliferate", player="P1", choose=[{"permanent": "ogre", "kind": "stun"}, {"player": "P2", "kind": "rad"}]
    )
    assert game.perm_counters("ogre") == {"+1/+1": 1, "stun": 2}
    assert game.counters("P2") == {"poison": 2, "rad": 2}


def test_old_cr_701_23b_a_choice_without_a_kind_or_with_an_absent_kind_is_refused() -> None:
    game = old_game()
    for choice in ({"permanent": "ogre"}, {"permanent": "ogre", "kind": "oil"}):
        with pytest.raises(IllegalAction) as err:
            game.act("proliferate", player="P1", choose=[choice])
        assert err.value.code == "illegal_choice"
    assert game.perm_counters("ogre") == {"+1/+1": 1, "stun": 1}


def test_old_rules_zero_choices_are_still_allowed() -> None:
    """Old CR 701.23a (before 2019-05-03): "any number" included zero then too."""
    game = old_game()
    events = game.act("proliferate", player="P1", choose=[])
    assert one(events, Proliferated.TYPE).data["chosen"] == []


def test_old_cr_701_23c_in_2hg_a_team_is_chosen_and_gets_one_poison() -> None:
    game = two_headed_giant(rules_edition=OLD, teams={"B": {"counters": {"poison": 4}}})
    game.act("proliferate", player="A1", choose=[{"team": "B", "kind": "poison"}])
    assert game.team_counters("B") == {"poison": 5}


def test_teams_can_be_chosen_only_under_the_old_2hg_rule() -> None:
    """CR 701.34a/b: today players and permanents are chosen, not teams (old 701.23c chose teams)."""
    game = two_headed_giant(teams={"B": {"counters": {"poison": 4}}})
    with pytest.raises(IllegalAction) as err:
        game.act("proliferate", player="A1", choose=[{"team": "B"}])
    assert err.value.code == "illegal_choice"


# -- Two-Headed Giant (701.34b, 810.10) -------------------------------------------------------------
def test_cr_701_34b_choosing_both_players_of_a_2hg_team_gives_the_team_one_poison() -> None:
    game = two_headed_giant(teams={"B": {"counters": {"poison": 4}}})
    events = game.act("proliferate", player="A1", choose=[{"player": "B1"}, {"player": "B2"}])
    assert len(of_type(events, CountersAdded.TYPE)) == 1
    assert game.team_counters("B") == {"poison": 5}


def test_cr_701_34b_other_kinds_are_given_to_each_chosen_2hg_player() -> None:
    game = two_headed_giant(
        players={"B1": {"counters": {"rad": 1}}, "B2": {"counters": {"rad": 2}}},
        teams={"B": {"counters": {"poison": 1}}},
    )
    game.act("proliferate", player="A1", choose=[{"player": "B1"}, {"player": "B2"}])
    assert (game.counters("B1"), game.counters("B2")) == ({"rad": 2}, {"rad": 3})
    assert game.team_counters("B") == {"poison": 2}


def test_cr_810_10d_a_2hg_player_with_only_team_poison_can_be_chosen() -> None:
    game = two_headed_giant(teams={"B": {"counters": {"poison": 1}}})
    game.act("proliferate", player="A1", choose=[{"player": "B2"}])
    assert game.team_counters("B") == {"poison": 2}


def test_cr_704_6b_proliferating_a_2hg_team_from_14_to_15_poison_loses() -> None:
    game = two_headed_giant(teams={"B": {"counters": {"poison": 14}}})
    events = game.act("proliferate", player="A1", choose=[{"player": "B1"}])
    assert one(events, TeamLost.TYPE).data["team"] == "B"
    assert one(events, TeamLost.TYPE).rule == "CR 704.6b"
    assert sorted(e.data["player"] for e in of_type(events, PlayerLost.TYPE)) == ["B1", "B2"]
    assert one(events, GameEnded.TYPE).data["winners"] == ["A1", "A2"]


def test_cr_704_5c_ten_poison_does_not_lose_in_2hg() -> None:
    game = two_headed_giant(teams={"B": {"counters": {"poison": 9}}})
    events = game.act("proliferate", player="A1", choose=[{"player": "B1"}])
    assert of_type(events, PlayerLost.TYPE) == []
    assert game.team_counters("B") == {"poison": 10}
