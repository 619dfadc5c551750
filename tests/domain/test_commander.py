"""The Commander variant (CR 903): setup, the command zone, the commander tax, commanders going
back to the command zone, commander damage, and a leaving player's commanders (800.4a)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import GameError
from domain.events import CardsMoved, DamageDealt, PermanentLeft, PlayerLost, SpellCast
from tests.domain.helpers import BEARS, Game, of_type, one, perm, player
from tests.domain.test_audit import audited

ATRAXA = {"name": "Test Commander", "type_line": "Legendary Creature — Angel", "power": "7", "toughness": "7"}
KRARK = {"name": "Krark Tester", "type_line": "Legendary Creature — Goblin", "power": "2", "toughness": "2"}
SAKASHIMA = {"name": "Sakashima Tester", "type_line": "Legendary Creature — Human", "power": "3", "toughness": "1"}
OTHER = {"name": "Other Commander", "type_line": "Legendary Creature — Elf", "power": "1", "toughness": "1"}


def commander_game(
    n: int = 2,
    *,
    players: dict[str, dict[str, Any]] | None = None,
    battlefield: list[dict[str, Any]] | None = None,
    step: str = "precombat_main",
) -> Game:
    extra = players or {}
    ids = [f"P{i}" for i in range(1, n + 1)]
    return Game(
        {
            "variant": "commander",
            "players": [player(pid, **{"commanders": [OTHER], **extra.get(pid, {})}) for pid in ids],
            "battlefield": battlefield or [],
            "turn": {"number": 3, "active_player": "P1", "step": step},
        }
    )


def refused(game: Game, type_: str, **fields: Any) -> str:
    before = game.snapshot()
    with pytest.raises(GameError) as err:
        game.act(type_, **fields)
    assert game.snapshot() == before
    return str(err.value.code)


# -- setup (903.2, 903.6, 903.7) ------------------------------------------------------------------
def test_cr_903_7_life_40_commanders_start_in_the_command_zone_and_life_still_overrides() -> None:
    game = commander_game(3, players={"P1": {"commanders": [KRARK, SAKASHIMA]}, "P2": {"life": 25}})
    p1 = game.view["players"]["P1"]
    assert p1["life"] == 40 and game.view["players"]["P2"]["life"] == 25
    assert [c["name"] for c in p1["command"]] == ["Krark Tester", "Sakashima Tester"]  # 903.6
    assert p1["commanders"] == ["Krark Tester", "Sakashima Tester"]
    assert p1["commander_tax"] == {"Krark Tester": 0, "Sakashima Tester": 0}  # 0 included
    assert p1["commander_damage"] == {}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": [player("P1", commanders=[OTHER])]}, "invalid_players"),  # 2 to 8 players
        ({"players": [player(f"P{i}", commanders=[OTHER]) for i in range(9)]}, "invalid_players"),
        ({"players": [player("P1", commanders=[OTHER]), player("P2")]}, "invalid_field"),  # none
        (
            {"players": [player("P1", commanders=[OTHER, KRARK, SAKASHIMA]), player("P2", commanders=[OTHER])]},
            "invalid_field",
        ),
        ({"players": [player("P1", commanders=[OTHER, OTHER]), player("P2", commanders=[OTHER])]}, "invalid_field"),
        (
            {"players": [player("P1", commanders=[OTHER], team="A"), player("P2", commanders=[OTHER], team="B")]},
            "invalid_field",
        ),
    ],
)
def test_cr_903_2_903_3_the_create_body_is_checked(body: dict[str, Any], code: str) -> None:
    with pytest.raises(GameError) as err:
        Game({"variant": "commander", **body})
    assert err.value.code == code


def test_commanders_are_only_for_commander_games() -> None:
    with pytest.raises(GameError) as err:
        Game({"variant": "multiplayer", "players": [player("P1", commanders=[OTHER]), player("P2")]})
    assert err.value.code == "invalid_field"


# -- the commander tax (903.8) --------------------------------------------------------------------
def test_cr_903_8_each_cast_from_the_command_zone_adds_two_to_the_next() -> None:
    game = commander_game(players={"P1": {"commanders": [ATRAXA]}})
    events = audited(game, "cast", player="P1", card=ATRAXA, **{"from": "command"})
    cast = one(events, SpellCast.TYPE)
    assert (cast.data["commander_tax"], cast.rule) == (0, "CR 903.8")
    assert game.view["players"]["P1"]["command"] == []
    assert game.view["players"]["P1"]["commander_tax"] == {"Test Commander": 2}
    audited(game, "resolve")
    cmdr = next(pid for pid, p in game.state.battlefield.items() if p.card.name == "Test Commander")
    audited(game, "move", permanent=cmdr, to="command")  # 903.9b: instead of its owner's hand
    events = audited(game, "cast", player="P1", card=ATRAXA, **{"from": "command"})
    assert one(events, SpellCast.TYPE).data["commander_tax"] == 2
    assert game.view["players"]["P1"]["commander_tax"] == {"Test Commander": 4}


def test_cr_903_8_only_a_commander_in_its_owners_command_zone_is_cast_from_there() -> None:
    game = commander_game(players={"P1": {"commanders": [ATRAXA], "hand": [BEARS]}, "P2": {"commanders": [KRARK]}})
    assert refused(game, "cast", player="P1", card=BEARS, **{"from": "command"}) == "card_not_in_zone"
    assert refused(game, "cast", player="P1", card=KRARK, **{"from": "command"}) == "card_not_in_zone"


def test_a_spell_from_the_hand_pays_no_commander_tax() -> None:
    game = commander_game(players={"P1": {"hand": [BEARS]}})
    assert "commander_tax" not in one(game.act("cast", player="P1", card=BEARS), SpellCast.TYPE).data


# -- back to the command zone (903.9) ------------------------------------------------------------
def test_cr_903_9a_a_commander_in_a_graveyard_or_exile_may_go_to_the_command_zone() -> None:
    game = commander_game(players={"P1": {"commanders": [ATRAXA]}})
    game.act("cast", player="P1", card=ATRAXA, **{"from": "command"})
    game.act("counter", object=game.state.stack[-1].id)  # countered: to its owner's graveyard
    assert [c["name"] for c in game.view["players"]["P1"]["graveyard"]] == ["Test Commander"]
    events = audited(game, "move", player="P1", card="Test Commander", **{"from": "graveyard"}, to="command")
    moved = one(events, CardsMoved.TYPE)
    assert (moved.data["from"], moved.data["to"], moved.rule) == ("graveyard", "command", "CR 903.9a")
    assert [c["name"] for c in game.view["players"]["P1"]["command"]] == ["Test Commander"]
    assert game.view["players"]["P1"]["graveyard"] == []
    game.act("cast", player="P1", card=ATRAXA, **{"from": "command"})
    game.act("resolve")
    cmdr = next(pid for pid, p in game.state.battlefield.items() if p.card.name == "Test Commander")
    game.act("move", permanent=cmdr, to="exile")
    audited(game, "move", player="P1", card="Test Commander", **{"from": "exile"}, to="command")
    assert game.view["players"]["P1"]["exile"] == [] and len(game.view["players"]["P1"]["command"]) == 1
    assert game.view["players"]["P1"]["commander_tax"] == {"Test Commander": 4}


def test_cr_903_9_only_commanders_go_to_the_command_zone() -> None:
    game = commander_game(players={"P1": {"graveyard": [BEARS]}}, battlefield=[perm("bears", BEARS)])
    assert refused(game, "move", permanent="bears", to="command") == "not_a_commander"
    assert refused(game, "move", player="P1", card="Grizzly Bears", **{"from": "graveyard"}, to="command") == (
        "not_a_commander"
    )
    assert refused(game, "move", player="P1", card="Other Commander", **{"from": "exile"}, to="command") == (
        "card_not_in_zone"
    )
    assert refused(game, "move", player="P1", card="Other Commander", **{"from": "exile"}, to="hand") == "invalid_zone"


def test_cr_903_9b_a_commander_permanent_goes_to_the_command_zone() -> None:
    game = commander_game(
        players={"P1": {"commanders": [ATRAXA]}}, battlefield=[perm("cmdr", ATRAXA, "P2", owner="P1")]
    )
    events = audited(game, "move", permanent="cmdr", to="command")
    assert (one(events, PermanentLeft.TYPE).data["to"], one(events, PermanentLeft.TYPE).rule) == (
        "command",
        "CR 903.9b",
    )
    assert [c["name"] for c in game.view["players"]["P1"]["command"]] == ["Test Commander"]  # its owner's


def test_a_token_copy_of_a_commander_is_not_a_commander() -> None:
    game = commander_game(
        players={"P1": {"commanders": [ATRAXA]}}, battlefield=[perm("copy", ATRAXA, "P1", token=True)]
    )
    assert refused(game, "move", permanent="copy", to="command") == "not_a_commander"


# -- commander damage (903.10a, 704.6c) ----------------------------------------------------------
def test_cr_704_6c_21_combat_damage_from_one_commander_loses() -> None:
    game = commander_game(
        players={"P1": {"commanders": [ATRAXA]}}, battlefield=[perm("cmdr", ATRAXA, "P1")], step="combat_damage"
    )
    events = audited(game, "damage", target={"player": "P2"}, amount=20, source="cmdr", combat=True)
    assert one(events, DamageDealt.TYPE).data["commander"] == "P1:Test Commander"
    assert game.view["players"]["P2"]["commander_damage"] == {"P1:Test Commander": 20}
    assert not game.state.players["P2"].lost
    events = audited(game, "damage", target={"player": "P2"}, amount=1, source="cmdr", combat=True)
    lost = one(events, PlayerLost.TYPE)
    assert (lost.data["player"], lost.rule) == ("P2", "CR 704.6c")
    assert game.life("P2") == 19  # alive by life: the commander damage is what loses


def test_cr_903_10a_only_combat_damage_from_a_commander_counts() -> None:
    game = commander_game(
        players={"P1": {"commanders": [ATRAXA]}},
        battlefield=[perm("cmdr", ATRAXA, "P1"), perm("bears", BEARS, "P1")],
        step="combat_damage",
    )
    game.act("damage", target={"player": "P2"}, amount=20, source="cmdr")  # not combat damage
    game.act("damage", target={"player": "P2"}, amount=2, source="bears", combat=True)  # not a commander
    assert "commander" not in of_type(game.events, DamageDealt.TYPE)[0].data
    assert game.view["players"]["P2"]["commander_damage"] == {}


def test_cr_903_10a_infect_combat_damage_from_a_commander_is_commander_damage() -> None:
    infect = {**ATRAXA, "oracle_text": "Infect"}
    game = commander_game(players={"P1": {"commanders": [infect]}}, battlefield=[perm("cmdr", infect, "P1")])
    game.act("damage", target={"player": "P2"}, amount=3, source="cmdr", combat=True)
    assert game.counters("P2") == {"poison": 3} and game.life("P2") == 40
    assert game.view["players"]["P2"]["commander_damage"] == {"P1:Test Commander": 3}


def test_cr_903_3_commander_damage_is_tracked_per_commander_across_zone_changes() -> None:
    game = commander_game(
        players={"P1": {"commanders": [KRARK, SAKASHIMA]}, "P2": {"life": 100}},
        battlefield=[perm("krark", KRARK, "P1"), perm("saka", SAKASHIMA, "P1")],
    )
    game.act("damage", target={"player": "P2"}, amount=15, source="krark", combat=True)
    game.act("damage", target={"player": "P2"}, amount=20, source="saka", combat=True)
    assert not game.state.players["P2"].lost  # 35 in all, but not 21 from one commander
    game.act("move", permanent="krark", to="command")
    game.act("cast", player="P1", card=KRARK, **{"from": "command"})
    game.act("resolve")
    new_id = next(pid for pid, p in game.state.battlefield.items() if p.card.name == "Krark Tester")
    assert new_id != "krark"  # a new object (400.7), still the same commander card (903.3)
    events = game.act("damage", target={"player": "P2"}, amount=6, source=new_id, combat=True)
    assert one(events, PlayerLost.TYPE).rule == "CR 704.6c"
    assert game.view["players"]["P2"]["commander_damage"] == {"P1:Krark Tester": 21, "P1:Sakashima Tester": 20}


# -- leaving the game (800.4a) --------------------------------------------------------------------
def test_cr_800_4a_a_leaving_players_commanders_leave_with_them() -> None:
    game = commander_game(
        3,
        players={"P3": {"commanders": [KRARK, SAKASHIMA]}},
        battlefield=[perm("krark", KRARK, "P1", owner="P3")],
    )
    events = audited(game, "concede", player="P3")
    assert "krark" not in game.state.battlefield  # owned by P3: it leaves the game
    gone = [e for e in of_type(events, CardsMoved.TYPE) if e.data["from"] == "command"]
    assert [c["name"] for c in gone[0].data["cards"]] == ["Sakashima Tester"] and gone[0].rule == "CR 800.4a"
    assert game.view["players"]["P3"]["command"] == []
