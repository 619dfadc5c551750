"""Conceding (CR 104.3a), leaving a multiplayer game (CR 800.4a) and the end of the game."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import (
    ControlChanged,
    GameEnded,
    NoteAdded,
    PermanentLeft,
    PlayerLost,
    StackObjectCountered,
    TeamLost,
)
from tests.domain.helpers import BEARS, BOLT, GOLEM, multiplayer, of_type, one, perm, two_headed_giant, two_player


def test_cr_104_3a_a_player_who_concedes_loses_and_the_opponent_wins() -> None:
    game = two_player()
    events = game.act("concede", player="P2")
    lost = one(events, PlayerLost.TYPE)
    assert (lost.data["player"], lost.data["reason"], lost.rule) == ("P2", "conceded", "CR 104.3a")
    assert one(events, GameEnded.TYPE).data == {"winners": ["P1"], "draw": False}


def test_cr_800_4a_in_multiplayer_the_game_goes_on_without_the_player_who_left() -> None:
    game = multiplayer(3)
    events = game.act("concede", player="P3")
    assert of_type(events, GameEnded.TYPE) == []
    assert game.state.status == "in_progress"
    assert [p.id for p in game.state.in_game()] == ["P1", "P2"]


def test_cr_800_4a_objects_the_leaving_player_owns_leave_the_game() -> None:
    game = multiplayer(3, battlefield=[perm("golem", GOLEM, controller="P3"), perm("bears", BEARS, controller="P1")])
    events = game.act("concede", player="P3")
    left = one(events, PermanentLeft.TYPE)
    assert (left.data["permanent"], left.data["to"], left.rule) == ("golem", "none", "CR 800.4a")
    assert "golem" not in game.state.battlefield
    assert game.state.players["P3"].graveyard == ()
    assert "bears" in game.state.battlefield


def test_cr_800_4a_spells_and_abilities_the_leaving_player_controls_leave_the_stack() -> None:
    game = multiplayer(3, players={"P3": {"hand": [BOLT]}, "P1": {"hand": [BOLT]}})
    game.act("cast", player="P1", card=BOLT)
    game.act("cast", player="P3", card=BOLT)
    events = game.act("concede", player="P3")
    assert one(events, StackObjectCountered.TYPE).rule == "CR 800.4a"
    assert [o.controller for o in game.state.stack] == ["P1"]


def test_cr_800_4a_objects_still_controlled_by_the_leaving_player_are_exiled() -> None:
    game = multiplayer(3, battlefield=[perm("golem", GOLEM, controller="P3", owner="P1")])
    events = game.act("concede", player="P3")
    left = one(events, PermanentLeft.TYPE)
    assert (left.data["permanent"], left.data["to"], left.rule) == ("golem", "exile", "CR 800.4a")
    assert [c.name for c in game.state.players["P1"].exile] == ["Mystery Golem"]


def test_cr_800_4a_the_last_player_left_wins() -> None:
    game = multiplayer(3)
    game.act("concede", player="P3")
    events = game.act("concede", player="P1")
    assert one(events, GameEnded.TYPE).data["winners"] == ["P2"]


def test_cr_800_4a_a_player_who_left_cant_concede_again() -> None:
    game = multiplayer(3)
    game.act("concede", player="P3")
    with pytest.raises(IllegalAction) as err:
        game.act("concede", player="P3")
    assert err.value.code == "player_left"


def test_cr_800_4k_turns_skip_a_player_who_left() -> None:
    game = multiplayer(3, step="end", active="P1")
    game.act("concede", player="P2")
    game.advance("next_turn")
    assert game.state.turn.active_player == "P3"


def test_cr_800_4j_the_turn_of_a_player_who_left_goes_on_without_an_active_player() -> None:
    """No turn-based draw for an active player who has left (800.4j; 800.4g in older editions)."""
    game = multiplayer(3, step="upkeep", players={"P1": {"library": [BEARS]}})
    game.act("concede", player="P1")
    game.advance()
    assert game.state.turn.step == "draw"
    assert game.state.players["P1"].hand == ()
    assert game.state.status == "in_progress"


def test_cr_810_8b_a_2hg_player_who_concedes_takes_the_team_out() -> None:
    game = two_headed_giant()
    events = game.act("concede", player="A2")
    assert one(events, TeamLost.TYPE).data["team"] == "A"
    assert sorted(e.data["player"] for e in of_type(events, PlayerLost.TYPE)) == ["A1", "A2"]
    assert one(events, GameEnded.TYPE).data["winners"] == ["B1", "B2"]


@pytest.mark.parametrize(
    ("type_", "fields"),
    [
        ("advance", {}),
        ("add_counters", {"target": {"player": "P1"}, "kind": "rad", "amount": 1}),
        ("lose_life", {"player": "P1", "amount": 1}),
        ("draw", {"player": "P1"}),
        ("concede", {"player": "P1"}),
        ("proliferate", {"player": "P1", "choose": []}),
    ],
)
def test_cr_104_1_once_the_game_is_over_no_action_is_taken(type_: str, fields: dict[str, object]) -> None:
    game = two_player()
    game.act("concede", player="P2")
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.act(type_, **fields)
    assert err.value.code == "game_over"
    assert game.snapshot() == before


def test_a_judge_note_is_still_allowed_after_the_game_is_over() -> None:
    """docs/api.md Actions: ``note`` is a judge's remark on the record, allowed after CR 104.1's end of game."""
    game = two_player()
    game.act("concede", player="P2")
    events = game.act("note", text="Match slip signed")
    assert one(events, NoteAdded.TYPE).data == {"text": "Match slip signed"}


def test_cr_800_4a_a_player_who_loses_by_a_state_based_action_also_leaves_with_their_objects() -> None:
    game = multiplayer(3, players={"P3": {"life": 2}}, battlefield=[perm("golem", GOLEM, controller="P3")])
    events = game.act("lose_life", player="P3", amount=2)
    assert one(events, PlayerLost.TYPE).rule == "CR 704.5a"
    assert one(events, PermanentLeft.TYPE).data["to"] == "none"
    assert "golem" not in game.state.battlefield


def test_cr_800_4d_the_waiting_triggers_of_a_player_who_left_are_gone() -> None:
    saga = {"name": "Test Saga", "type_line": "Enchantment — Saga", "oracle_text": "I — A.\nII — B.\nIII — C."}
    game = multiplayer(
        3,
        step="draw",
        players={"P1": {"counters": {"rad": 1}, "library": [BEARS]}},
        battlefield=[perm("saga", saga, controller="P1", counters={"lore": 1})],
    )
    game.advance()
    assert game.view["pending_order"]["controller"] == "P1"
    game.act("concede", player="P1")
    assert game.state.pending == () and game.state.stack == ()
    game.act("lose_life", player="P2", amount=1)  # no longer blocked by triggers_pending
    assert game.life("P2") == 19


def test_cr_800_4a_control_effects_of_the_leaving_player_end_before_the_exile() -> None:
    """An exchange of control (Switcheroo) gave P3 P1's creature and P1 P3's; when P3 leaves, the
    effects giving P3 control end first: P1's creature goes back to P1 instead of being exiled,
    and P3's own creature leaves the game with its owner (CR 800.4a)."""
    game = multiplayer(
        3,
        players={"P1": {"hand": ["Switcheroo"]}},
        battlefield=[perm("bears", BEARS, controller="P1"), perm("golem", GOLEM, controller="P3")],
    )
    game.act("cast", player="P1", card="Switcheroo", targets=[{"permanent": "bears"}, {"permanent": "golem"}])
    game.act("resolve")
    assert (game.state.battlefield["bears"].controller, game.state.battlefield["golem"].controller) == ("P3", "P1")
    events = game.act("concede", player="P3")
    returned = one(events, ControlChanged.TYPE)
    assert (returned.data["permanent"], returned.data["controller"], returned.rule) == ("bears", "P1", "CR 800.4a")
    assert game.state.battlefield["bears"].controller == "P1"
    assert game.state.battlefield["bears"].controller_before_effects is None
    assert "golem" not in game.state.battlefield  # owned by P3: it left the game with them
    assert [e.data["permanent"] for e in of_type(events, PermanentLeft.TYPE)] == ["golem"]
    assert game.state.players["P1"].exile == ()


def test_cr_800_4a_a_permanent_under_a_leaving_players_control_without_an_effect_is_exiled() -> None:
    """A permanent that simply entered under P3's control (no control-changing effect) is one P3
    still controls when the effects end: it is exiled (CR 800.4a)."""
    game = multiplayer(3, battlefield=[perm("golem", GOLEM, controller="P3", owner="P1")])
    events = game.act("concede", player="P3")
    assert of_type(events, ControlChanged.TYPE) == []
    assert one(events, PermanentLeft.TYPE).data["to"] == "exile"
