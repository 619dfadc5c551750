"""Damage (CR 120): life loss; infect gives poison and -1/-1 counters; toxic adds poison."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import CountersAdded, CountersRemoved, DamageDealt, LifeLost, PermanentLeft
from tests.domain.helpers import BEARS, WALKER, multiplayer, of_type, one, perm, two_headed_giant, two_player, types

INDESTRUCTIBLE = {
    "name": "Stone Idol",
    "type_line": "Artifact Creature — Golem",
    "power": "2",
    "toughness": "2",
    "oracle_text": "Indestructible",
}


def test_cr_120_3a_damage_to_a_player_causes_that_much_life_loss() -> None:
    game = two_player()
    events = game.act("damage", target={"player": "P2"}, amount=3, source="Lightning Bolt")
    assert types(events)[:2] == [DamageDealt.TYPE, LifeLost.TYPE]
    assert one(events, LifeLost.TYPE).data == {"player": "P2", "amount": 3, "cause": "Lightning Bolt", "life_after": 17}
    assert one(events, LifeLost.TYPE).rule == "CR 120.3a"


def test_cr_120_3b_infect_damage_to_a_player_gives_poison_instead_of_life_loss() -> None:
    game = two_player()
    events = game.act("damage", target={"player": "P2"}, amount=2, infect=True)
    assert of_type(events, LifeLost.TYPE) == []
    assert one(events, CountersAdded.TYPE).rule == "CR 120.3b"
    assert (game.life("P2"), game.counters("P2")) == (20, {"poison": 2})


def test_cr_120_3d_infect_damage_to_a_creature_gives_minus_counters_and_marks_no_damage() -> None:
    game = two_player(battlefield=[perm("ogre", {"name": "Hill Giant"}, controller="P2")])
    game.act("damage", target={"permanent": "ogre"}, amount=2, infect=True)
    ogre = game.state.battlefield["ogre"]
    assert (dict(ogre.counters), ogre.damage) == ({"-1/-1": 2}, 0)


def test_cr_702_164c_toxic_adds_poison_in_addition_to_the_life_loss() -> None:
    game = two_player()
    events = game.act("damage", target={"player": "P2"}, amount=2, toxic=1)
    assert one(events, LifeLost.TYPE).data["amount"] == 2
    poison = one(events, CountersAdded.TYPE)
    assert (poison.data["kind"], poison.data["amount"], poison.rule) == ("poison", 1, "CR 702.164c")
    assert (game.life("P2"), game.counters("P2")) == (18, {"poison": 1})


def test_cr_702_164c_toxic_with_infect_adds_to_the_infect_poison() -> None:
    game = two_player()
    game.act("damage", target={"player": "P2"}, amount=2, infect=True, toxic=2)
    assert (game.life("P2"), game.counters("P2")) == (20, {"poison": 4})


def test_cr_810_10_infect_damage_to_a_2hg_player_poisons_the_team() -> None:
    game = two_headed_giant()
    game.act("damage", target={"player": "B1"}, amount=3, infect=True)
    assert game.team_counters("B") == {"poison": 3}
    assert game.state.teams["B"].life == 30


def test_cr_704_5g_lethal_damage_destroys_a_creature() -> None:
    game = two_player(battlefield=[perm("bears", BEARS)])
    events = game.act("damage", target={"permanent": "bears"}, amount=2)
    left = one(events, PermanentLeft.TYPE)
    assert (left.data["to"], left.rule) == ("graveyard", "CR 704.5g")
    assert [c.name for c in game.state.players["P1"].graveyard] == ["Grizzly Bears"]


def test_cr_704_5g_nonlethal_damage_stays_marked_until_cleanup_514_2() -> None:
    game = two_player(battlefield=[perm("bears", BEARS)], step="end")
    game.act("damage", target={"permanent": "bears"}, amount=1)
    assert game.view["battlefield"]["bears"]["damage"] == 1
    game.advance()
    assert game.state.turn.step == "cleanup"
    assert game.view["battlefield"]["bears"]["damage"] == 0


def test_cr_704_5g_an_indestructible_creature_survives_lethal_damage() -> None:
    game = two_player(battlefield=[perm("idol", INDESTRUCTIBLE)])
    events = game.act("damage", target={"permanent": "idol"}, amount=5)
    assert of_type(events, PermanentLeft.TYPE) == []
    assert "idol" in game.state.battlefield


def test_cr_120_3c_damage_to_a_planeswalker_removes_loyalty_and_704_5i_it_dies_at_zero() -> None:
    game = two_player(battlefield=[perm("walker", WALKER, counters={"loyalty": 3})])
    events = game.act("damage", target={"permanent": "walker"}, amount=2)
    assert one(events, CountersRemoved.TYPE).rule == "CR 120.3c"
    assert game.perm_counters("walker") == {"loyalty": 1}
    events = game.act("damage", target={"permanent": "walker"}, amount=4)
    assert one(events, PermanentLeft.TYPE).rule == "CR 704.5i"


def test_cr_800_4e_no_damage_to_a_player_who_left_the_game() -> None:
    game = multiplayer(3)
    game.act("concede", player="P3")
    with pytest.raises(IllegalAction) as err:
        game.act("damage", target={"player": "P3"}, amount=2)
    assert err.value.code == "player_left"
