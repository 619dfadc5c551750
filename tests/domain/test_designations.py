"""Designations, in every variant: the monarch (CR 725), the initiative and Undercity (CR 726,
701.49, 309, 704.5t), day and night (CR 731) and the city's blessing (CR 702.131)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.audit import audit_record
from domain.commands import parse_command
from domain.errors import Forbidden, GameError
from domain.events import (
    CardsDrawn,
    DesignationChanged,
    DungeonCompleted,
    RoomEntered,
    StackObjectResolved,
)
from domain.permissions import check_player_command
from domain.serialize import state_from_json, state_to_json
from tests.domain.helpers import BEARS, BOLT, CATALOG, RELIC, Game, multiplayer, of_type, one, perm, two_player
from tests.domain.test_audit import audited


def refused(game: Game, type_: str, **fields: Any) -> str:
    before = game.snapshot()
    with pytest.raises(GameError) as err:
        game.act(type_, **fields)
    assert game.snapshot() == before
    return str(err.value.code)


def top(game: Game) -> dict[str, Any]:
    stack: list[dict[str, Any]] = game.view["stack"]
    return stack[-1]


# -- the monarch (725) ----------------------------------------------------------------------------
def test_cr_725_3_one_monarch_at_a_time() -> None:
    game = two_player()
    event = one(audited(game, "designate", designation="monarch", player="P1"), DesignationChanged.TYPE)
    assert (event.data, event.rule) == ({"designation": "monarch", "player": "P1", "cause": "manual"}, "CR 725.3")
    assert game.view["monarch"] == "P1"
    assert refused(game, "designate", designation="monarch", player="P1") == "already_designated"
    audited(game, "designate", designation="monarch", player="P2")
    assert game.view["monarch"] == "P2"  # P1 ceased to be the monarch


def test_cr_725_2_the_monarch_draws_at_the_beginning_of_their_end_step() -> None:
    game = two_player(p1={"library": [BOLT]}, step="postcombat_main")
    game.act("designate", designation="monarch", player="P1")
    audited(game, "advance")
    assert game.state.turn.step == "end"
    trigger = top(game)
    assert (trigger["controller"], trigger["source"], trigger["kind"]) == ("P1", None, "trigger")
    events = audited(game, "resolve")
    drawn = one(events, CardsDrawn.TYPE)
    assert (drawn.data["player"], drawn.rule) == ("P1", "CR 725.2")
    assert [c.name for c in game.state.players["P1"].hand] == ["Lightning Bolt"]


def test_cr_725_2_no_draw_at_another_players_end_step() -> None:
    game = two_player(step="postcombat_main")
    game.act("designate", designation="monarch", player="P2")
    game.advance()
    assert game.state.turn.step == "end" and game.state.stack == ()


def test_cr_725_2_combat_damage_by_a_creature_to_the_monarch_makes_its_controller_the_monarch() -> None:
    game = two_player(battlefield=[perm("bears", BEARS, "P1"), perm("relic", RELIC, "P1")], step="combat_damage")
    game.act("designate", designation="monarch", player="P2")
    game.act("damage", target={"player": "P2"}, amount=2, source="bears")  # not combat damage
    game.act("damage", target={"player": "P2"}, amount=2, source="relic", combat=True)  # not a creature
    assert game.state.stack == ()
    audited(game, "damage", target={"player": "P2"}, amount=2, source="bears", combat=True)
    assert top(game)["controller"] == "P2"  # controlled by the monarch when it triggered
    events = audited(game, "resolve")
    assert one(events, DesignationChanged.TYPE).rule == "CR 725.2"
    assert game.view["monarch"] == "P1"


def test_cr_725_4_when_the_monarch_leaves_the_active_player_becomes_the_monarch() -> None:
    game = multiplayer(3)
    game.act("designate", designation="monarch", player="P2")
    events = audited(game, "concede", player="P2")
    assert one(events, DesignationChanged.TYPE).rule == "CR 725.4" and game.view["monarch"] == "P1"
    game = multiplayer(3)
    game.act("designate", designation="monarch", player="P1")
    audited(game, "concede", player="P1")  # the active player leaves: the next in turn order
    assert game.view["monarch"] == "P2"


# -- the initiative and Undercity (726, 701.49, 309) ---------------------------------------------
def test_cr_726_2_taking_the_initiative_ventures_into_undercity() -> None:
    game = two_player()
    audited(game, "designate", designation="initiative", player="P1")
    assert game.view["initiative"] == "P1"
    assert (top(game)["controller"], top(game)["source"], top(game)["needs"]) == ("P1", None, [])
    events = audited(game, "resolve")  # 701.49a: no dungeon yet: Undercity's top room
    entered = one(events, RoomEntered.TYPE)
    assert (entered.data, entered.rule) == (
        {"player": "P1", "dungeon": "Undercity", "room": "Secret Entrance"},
        "CR 701.49a",
    )
    assert game.view["players"]["P1"]["dungeon"] == {"name": "Undercity", "room": "Secret Entrance"}
    assert "Search your library for a basic land card" in top(game)["description"]  # the room ability (309.4c)
    audited(game, "resolve")  # its effect is reported by hand
    assert game.state.stack == ()


def test_cr_701_49b_the_player_picks_the_branch_and_the_upkeep_ventures() -> None:
    game = two_player(step="untap")
    game.act("designate", designation="initiative", player="P1")
    game.resolve()
    game.resolve()  # Secret Entrance
    audited(game, "advance")  # upkeep: the holder ventures (726.2)
    assert top(game)["needs"] == ["room"]
    with pytest.raises(GameError) as err:
        game.resolve()
    assert err.value.code == "choice_required" and "Forge" in str(err.value) and "Lost Well" in str(err.value)
    assert refused(game, "resolve", choices={"room": "Trap!"}) == "illegal_choice"
    events = audited(game, "resolve", choices={"room": "Lost Well"})
    assert one(events, RoomEntered.TYPE).data["room"] == "Lost Well"


def test_cr_726_2_combat_damage_to_the_holder_passes_the_initiative() -> None:
    game = multiplayer(3, battlefield=[perm("a", BEARS, "P1"), perm("b", BEARS, "P1")], step="combat_damage")
    game.act("designate", designation="initiative", player="P2")
    game.resolve()
    game.resolve()
    game.act("damage", target={"player": "P2"}, amount=2, source="a", combat=True)
    game.act("damage", target={"player": "P2"}, amount=2, source="b", combat=True)
    takes = [o for o in game.state.stack if o.effect == "take_initiative"]
    assert len(takes) == 1 and takes[0].controller == "P2"  # "one or more creatures": one trigger
    events = audited(game, "resolve")
    assert one(events, DesignationChanged.TYPE).data["player"] == "P1" and game.view["initiative"] == "P1"
    assert top(game)["description"].startswith("Initiative (CR 726.2): P1 ventures")


def test_cr_726_5_taking_it_again_ventures_again_and_704_5t_completes_undercity() -> None:
    game = two_player()
    for room in ("Secret Entrance", "Forge", "Trap!", "Archives", "Throne of the Dead Three"):
        game.act("designate", designation="initiative", player="P1")  # 726.5: a venture each time
        choices = {"room": room} if room in ("Forge", "Trap!") else {}
        assert one(game.resolve(**choices), RoomEntered.TYPE).data["room"] == room
        if room != "Throne of the Dead Three":
            game.resolve()
    assert game.view["players"]["P1"]["dungeon"] == {"name": "Undercity", "room": "Throne of the Dead Three"}
    events = audited(game, "resolve")  # the last room's ability leaves the stack: completed
    assert one(events, DungeonCompleted.TYPE).rule == "CR 704.5t"
    assert types_before(events, DungeonCompleted.TYPE, StackObjectResolved.TYPE)
    assert game.view["players"]["P1"]["dungeon"] is None


def types_before(events: list[Any], later: str, earlier: str) -> bool:
    names = [e.type for e in events]
    return names.index(earlier) < names.index(later)


# -- day and night (731) --------------------------------------------------------------------------
def test_cr_731_2a_day_becomes_night_when_the_previous_active_player_cast_no_spell() -> None:
    game = two_player(step="cleanup")
    game.act("designate", designation="day")
    assert game.view["day_night"] == "day"
    events = audited(game, "advance")
    change = one(events, DesignationChanged.TYPE)
    assert (change.data["value"], change.rule) == ("night", "CR 731.2a")
    assert game.view["day_night"] == "night"


def test_cr_731_2b_night_becomes_day_after_two_spells_and_stays_after_one() -> None:
    game = two_player(p1={"hand": [BOLT, BOLT, BOLT]})
    game.act("designate", designation="night")
    game.act("cast", player="P1", card=BOLT)
    game.resolve()
    game.advance("next_turn")
    assert game.view["day_night"] == "night"  # one spell: it stays night
    game = two_player(p1={"hand": [BOLT, BOLT]})
    game.act("designate", designation="night")
    for _ in range(2):
        game.act("cast", player="P1", card=BOLT)
        game.resolve()
    events = game.advance("next_turn")
    assert one(events, DesignationChanged.TYPE).rule == "CR 731.2b" and game.view["day_night"] == "day"


def test_cr_731_2c_neither_day_nor_night_stays_neither() -> None:
    game = two_player(step="cleanup")
    assert of_type(game.advance(), DesignationChanged.TYPE) == [] and game.view["day_night"] is None


def test_cr_731_1_it_is_already_day() -> None:
    game = two_player()
    game.act("designate", designation="day")
    assert refused(game, "designate", designation="day") == "already_designated"


# -- the city's blessing (702.131) ----------------------------------------------------------------
def test_cr_702_131_the_citys_blessing_is_for_the_rest_of_the_game() -> None:
    game = two_player()
    assert game.view["players"]["P1"]["city_blessing"] is False
    audited(game, "designate", designation="city_blessing", player="P1")
    assert game.view["players"]["P1"]["city_blessing"] is True
    assert game.view["players"]["P2"]["city_blessing"] is False  # any number may have it (702.131c)
    assert refused(game, "designate", designation="city_blessing", player="P1") == "already_designated"


# -- the body, permissions, serialisation, audit -----------------------------------------------
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"designation": "monarch"}, "missing_field"),
        ({"designation": "day", "player": "P1"}, "invalid_field"),
        ({"designation": "king", "player": "P1"}, "invalid_field"),
    ],
)
def test_a_designate_body_is_checked(body: dict[str, Any], code: str) -> None:
    with pytest.raises(GameError) as err:
        parse_command({"type": "designate", **body}, CATALOG.resolve)
    assert err.value.code == code


def test_a_player_token_designates_only_itself_and_day_or_night_only_while_neither() -> None:
    game = two_player()

    def check(body: dict[str, Any]) -> None:
        check_player_command("P1", parse_command({"type": "designate", **body}, CATALOG.resolve), game.state)

    check({"designation": "monarch", "player": "P1"})
    check({"designation": "day"})  # 702.145d: a daybound permanent of theirs makes it day
    for other in ("monarch", "initiative", "city_blessing"):
        with pytest.raises(Forbidden) as err:
            check({"designation": other, "player": "P2"})
        assert err.value.code == "not_your_player"
    game.act("designate", designation="day")
    with pytest.raises(Forbidden) as err:
        check({"designation": "night"})
    assert err.value.code == "forbidden"


def test_the_designations_round_trip_through_the_serialised_state() -> None:
    game = two_player(p1={"hand": [BOLT]})
    game.act("designate", designation="monarch", player="P1")
    game.act("designate", designation="initiative", player="P2")
    game.resolve()
    game.act("designate", designation="night")
    game.act("designate", designation="city_blessing", player="P2")
    game.act("cast", player="P1", card=BOLT)
    assert state_from_json(state_to_json(game.state)) == game.state


def test_the_audit_refuses_a_room_the_arrows_dont_lead_to_and_a_wrong_day_night_change() -> None:
    game = two_player(p1={"hand": [BOLT]}, step="cleanup")
    data = {"player": "P1", "dungeon": "Undercity", "room": "Forge"}
    assert audit_record(game.state, "RoomEntered", data, "CR 701.49a") == (
        "P1's venture marker moves into one of ['Secret Entrance'], not 'Forge' (CR 701.49)"
    )
    assert audit_record(game.state, "RoomEntered", {**data, "room": "Secret Entrance"}, "CR 701.49a") is None
    game.act("designate", designation="day")
    game.advance()  # night now: P1 cast nothing last turn
    forged = {"designation": "day_night", "value": "day", "cause": "untap step"}
    assert audit_record(game.state, "DesignationChanged", forged, "CR 731.2b") == (
        "the untap step's check makes it stay night, not day (CR 731.2)"
    )
