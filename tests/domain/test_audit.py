"""``domain.audit``: an event checked against the state before it, and the state an action ends in.

Two halves: what the kernel itself records always passes (no false alarms; ``audited`` runs
every check on each real action), and each forged event below is refused with its rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain import events as ev
from domain import evolve
from domain.audit import audit_record, check_event, check_settled
from domain.events import Event
from domain.state import GameState
from tests.domain.helpers import (
    BEARS,
    BOLT,
    FOREST,
    SAGA,
    WALKER,
    Game,
    multiplayer,
    perm,
    two_headed_giant,
    two_player,
)


def audited(game: Game, type_: str, **fields: Any) -> list[Event]:
    """Run a real action and check every event it records, and the state it ends in."""
    state = game.state
    events = game.act(type_, **fields)
    for event in events:
        assert check_event(state, event) is None, (event, check_event(state, event))
        state = evolve(state, event)
    assert state == game.state
    assert check_settled(state) is None
    return events


def reason(state: GameState, type_: str, data: dict[str, Any], rule: str | None = None) -> str:
    """The reason a forged event is refused (it must be refused)."""
    found = audit_record(state, type_, data, rule)
    assert found is not None, f"{type_} {data} was accepted"
    return found


# -- no false alarms: what the kernel records passes ----------------------------------------
def test_a_real_two_player_game_passes_every_check() -> None:
    game = two_player(
        p1={"counters": {"rad": 2}, "library": [BOLT, FOREST, BEARS], "library_size": 10, "hand": [FOREST, BEARS]},
        p2={"library": [FOREST] * 3},
        battlefield=[perm("saga", SAGA), perm("walker", WALKER, counters={"loyalty": 3}), perm("bears", BEARS, "P2")],
        step="upkeep",
        number=4,
    )
    audited(game, "advance", to="precombat_main")  # a lore counter, chapter II and the rad trigger
    while game.state.pending or game.state.stack:
        if game.state.pending:
            ids = [t.id for t in game.state.pending[0].triggers]
            audited(game, "order_triggers", resolve_first=ids)
        else:
            audited(game, "resolve")
    audited(game, "play_land", player="P1", card=FOREST)
    audited(game, "cast", player="P1", card=BEARS)
    audited(game, "resolve")
    audited(game, "damage", target={"permanent": "bears"}, amount=2, source="Shock")  # dies (704.5g)
    audited(game, "damage", target={"permanent": "walker"}, amount=3)  # no loyalty left (704.5i)
    audited(game, "add_counters", target={"player": "P2"}, kind="poison", amount=3)
    audited(game, "remove_counters", target={"player": "P2"}, kind="poison", amount=5, up_to=True)
    audited(game, "gain_life", player="P2", amount=4)
    audited(game, "mill", player="P2", count=5)
    audited(game, "draw", player="P1", count=1, cards=[{"name": "Island", "type_line": "Basic Land — Island"}])
    audited(game, "tap", permanent="saga")
    audited(game, "advance", to="next_turn")  # end of turn, P2's turn: untap
    audited(game, "advance", to="draw")  # P2 draws from an empty library and loses (704.5b)
    assert game.state.status == "finished"
    audited(game, "note", text="P2 decked")


def test_a_multiplayer_concede_and_a_two_headed_giant_loss_pass() -> None:
    game = multiplayer(3, battlefield=[perm("bears", BEARS, "P2")])
    audited(game, "concede", player="P2")  # P2 leaves: their permanent leaves with them (800.4a)
    audited(game, "lose_life", player="P3", amount=20)  # P3 loses, P1 wins
    assert game.state.result is not None and game.state.result.winners == ("P1",)

    giant = two_headed_giant(teams={"B": {"life": 3}})
    audited(giant, "lose_life", player="B1", amount=3)  # the team loses as one (810.8a)
    assert giant.state.result is not None and giant.state.result.winners == ("A1", "A2")


# -- life, counters, damage ------------------------------------------------------------------
def test_life_after_must_be_the_life_the_fold_gives() -> None:
    state = two_player().state
    loss = {"player": "P2", "amount": 1, "cause": "manual", "life_after": 19}
    assert check_event(state, Event.parse(ev.LifeLost.TYPE, loss)) is None
    assert "CR 119.3" in reason(state, ev.LifeLost.TYPE, {**loss, "life_after": 100})
    assert "at least 1" in reason(state, ev.LifeLost.TYPE, {**loss, "amount": 0, "life_after": 20})
    gain = {"player": "P1", "amount": 2, "cause": "manual", "life_after": 22}
    assert check_event(state, Event.parse(ev.LifeGained.TYPE, gain)) is None
    assert "'P9' is not a player" in reason(state, ev.LifeGained.TYPE, {**gain, "player": "P9"})


def test_two_headed_giant_life_after_is_the_teams() -> None:
    state = two_headed_giant().state
    ok = {"player": "A2", "amount": 5, "cause": "manual", "life_after": 25}
    assert check_event(state, Event.parse(ev.LifeLost.TYPE, ok)) is None
    assert "30 to 25" in reason(state, ev.LifeLost.TYPE, {**ok, "life_after": 15})


def test_counters_removed_can_not_exceed_those_present() -> None:
    state = two_player(p1={"counters": {"rad": 3}}, battlefield=[perm("golem", BEARS)]).state
    removed = {"target": {"player": "P1"}, "kind": "rad", "amount": 3, "cause": "radiation"}
    assert check_event(state, Event.parse(ev.CountersRemoved.TYPE, removed)) is None
    assert "which has 3" in reason(state, ev.CountersRemoved.TYPE, {**removed, "amount": 4})
    assert "which has 0" in reason(state, ev.CountersRemoved.TYPE, {**removed, "target": {"permanent": "golem"}})


def test_counters_added_need_a_target_that_exists_and_an_amount() -> None:
    state = two_player().state
    added = {"target": {"player": "P2"}, "kind": "poison", "amount": 12, "cause": "manual"}
    assert check_event(state, Event.parse(ev.CountersAdded.TYPE, added)) is None  # the SBA check catches the rest
    assert "no permanent 'ghost'" in reason(state, ev.CountersAdded.TYPE, {**added, "target": {"permanent": "ghost"}})
    assert "at least 1" in reason(state, ev.CountersAdded.TYPE, {**added, "amount": 0})
    assert "CR 120.8" in reason(
        state,
        ev.DamageDealt.TYPE,
        {"source": "x", "target": {"player": "P2"}, "amount": 0, "infect": False, "toxic": 0},
    )


# -- cards -----------------------------------------------------------------------------------
def test_milled_cards_come_from_the_top_as_many_as_possible() -> None:
    state = two_player(p1={"library": [BOLT, FOREST], "library_size": 4}).state
    lotus = {"name": "Black Lotus", "type_line": "Artifact"}
    milled = {"player": "P1", "cards": [BOLT, FOREST, lotus], "requested": 3, "nonland_count": 2, "cause": "x"}
    assert check_event(state, Event.parse(ev.CardsMilled.TYPE, milled)) is None  # the third was unknown: revealed
    wrong = {**milled, "cards": [lotus, FOREST, BOLT]}
    assert "is 'Lightning Bolt', not 'Black Lotus'" in reason(state, ev.CardsMilled.TYPE, wrong)
    assert "701.17b" in reason(state, ev.CardsMilled.TYPE, {**milled, "cards": [BOLT, FOREST]})
    assert "701.17b" in reason(state, ev.CardsMilled.TYPE, {**milled, "cards": [BOLT, FOREST, lotus, lotus, lotus]})
    assert "nonland_count" in reason(state, ev.CardsMilled.TYPE, {**milled, "nonland_count": 3})
    everything = {"player": "P1", "cards": [BOLT, FOREST, BOLT, BOLT], "requested": 9, "nonland_count": 3, "cause": "x"}
    assert check_event(state, Event.parse(ev.CardsMilled.TYPE, everything)) is None


def test_drawn_cards_come_from_the_top_and_an_empty_library_is_marked() -> None:
    state = two_player(p1={"library": [BOLT], "library_size": 3}).state
    drawn = {"player": "P1", "cards": [BOLT], "unknown_count": 1, "requested": 2, "from_empty": False, "cause": "x"}
    assert check_event(state, Event.parse(ev.CardsDrawn.TYPE, drawn)) is None
    assert "not 'Forest'" in reason(state, ev.CardsDrawn.TYPE, {**drawn, "cards": [FOREST]})
    assert "unseen" in reason(state, ev.CardsDrawn.TYPE, {**drawn, "cards": [], "unknown_count": 2})
    assert "CR 121.4" in reason(state, ev.CardsDrawn.TYPE, {**drawn, "requested": 4, "unknown_count": 2})
    too_many = {"player": "P1", "cards": [BOLT], "unknown_count": 2, "requested": 4, "from_empty": True, "cause": "x"}
    assert check_event(state, Event.parse(ev.CardsDrawn.TYPE, too_many)) is None


# -- the battlefield -------------------------------------------------------------------------
def test_tap_and_untap_must_change_the_permanent() -> None:
    state = two_player(battlefield=[perm("golem", BEARS, tapped=True), perm("bears", BEARS)]).state
    assert "already tapped (CR 701.26a)" in reason(
        state, ev.PermanentTapped.TYPE, {"permanent": "golem", "cause": "manual"}
    )
    assert "already untapped (CR 701.26b)" in reason(
        state, ev.PermanentUntapped.TYPE, {"permanent": "bears", "cause": "manual"}
    )
    assert check_event(state, Event.parse(ev.PermanentUntapped.TYPE, {"permanent": "golem", "cause": "manual"})) is None
    assert "no permanent" in reason(state, ev.PermanentTapped.TYPE, {"permanent": "ghost", "cause": "manual"})


def test_a_permanent_leaves_as_it_last_existed() -> None:
    game = two_player(battlefield=[perm("bears", BEARS, counters={"+1/+1": 2})])
    left = audited(game, "sacrifice", permanent="bears")[0]
    before = two_player(battlefield=[perm("bears", BEARS, counters={"+1/+1": 2})]).state
    last = {**left.data["last_known"], "counters": {"+1/+1": 9}}
    assert "CR 603.10a" in reason(before, ev.PermanentLeft.TYPE, {**left.data, "last_known": last})
    assert "'to'" in reason(before, ev.PermanentLeft.TYPE, {**left.data, "to": "moon"})


# -- the stack -------------------------------------------------------------------------------
def test_only_the_top_object_resolves_and_triggers_wait_their_turn() -> None:
    game = two_player(p1={"counters": {"rad": 1}}, p2={"counters": {"rad": 1}}, step="draw")
    audited(game, "advance", to="precombat_main")
    top = game.state.stack[-1]
    assert (
        check_event(
            game.state, Event.parse(ev.StackObjectResolved.TYPE, {"id": top.id, "description": top.description})
        )
        is None
    )
    assert "CR 608.1" in reason(game.state, ev.StackObjectResolved.TYPE, {"id": "s99", "description": "?"})
    assert "CR 701.6a" in reason(game.state, ev.StackObjectCountered.TYPE, {"id": "s99", "reason": "?"})
    assert "already on the stack" in reason(game.state, ev.TriggerPutOnStack.TYPE, {"object": top.to_json(), "seq": 1})


def test_a_trigger_waiting_behind_another_sides_order_is_not_put_first() -> None:
    sagas = [perm(p, SAGA, "P1" if p[0] == "s" else "P2", counters={"lore": 1}) for p in ("s1", "s2", "o1", "o2")]
    game = two_player(battlefield=sagas)
    # Chapter II of all four Sagas triggers at once: P1 orders theirs first, P2's wait (603.3b).
    audited(game, "proliferate", player="P1", choose=[{"permanent": p} for p in ("s1", "s2", "o1", "o2")])
    assert [g.controller for g in game.state.pending] == ["P1", "P2"]
    waiting = game.state.pending[1].triggers[0]
    assert "CR 603.3b" in reason(game.state, ev.TriggerPutOnStack.TYPE, {"object": waiting.to_json(), "seq": 1})
    first = game.state.pending[0].triggers[0]
    assert (
        check_event(game.state, Event.parse(ev.TriggerPutOnStack.TYPE, {"object": first.to_json(), "seq": 1})) is None
    )
    changed = {**first.to_json(), "params": {**first.params, "chapter": 3}}
    assert "not the trigger that was waiting" in reason(
        game.state, ev.TriggerPutOnStack.TYPE, {"object": changed, "seq": 1}
    )


# -- turns -----------------------------------------------------------------------------------
def test_steps_and_turns_go_in_order() -> None:
    state = two_player(step="upkeep").state
    assert check_event(state, Event.parse(ev.StepBegan.TYPE, {"step": "draw", "turn": 4})) is None
    assert "CR 500.1" in reason(state, ev.StepBegan.TYPE, {"step": "end", "turn": 4})
    assert "CR 500.1" in reason(state, ev.TurnBegan.TYPE, {"number": 5, "active_player": "P2", "active_team": None})
    cleanup = two_player(step="cleanup").state
    assert (
        check_event(cleanup, Event.parse(ev.TurnBegan.TYPE, {"number": 5, "active_player": "P2", "active_team": None}))
        is None
    )
    assert "turn order" in reason(cleanup, ev.TurnBegan.TYPE, {"number": 5, "active_player": "P1", "active_team": None})


# -- the end of the game ---------------------------------------------------------------------
def test_player_lost_needs_a_reason_that_applies() -> None:
    state = two_player(p2={"life": 0}).state
    lost = {"player": "P2", "rule": "CR 704.5a", "reason": "life"}
    assert check_event(state, Event.parse(ev.PlayerLost.TYPE, lost, "CR 704.5a")) is None
    assert "doesn't apply" in reason(state, ev.PlayerLost.TYPE, {**lost, "player": "P1"})
    assert "doesn't apply" in reason(state, ev.PlayerLost.TYPE, {**lost, "rule": "CR 704.5c"})
    assert "not a reason" in reason(state, ev.PlayerLost.TYPE, {**lost, "rule": "CR 999.9"})
    conceded = {"player": "P1", "rule": "CR 104.3a", "reason": "conceded"}
    assert check_event(state, Event.parse(ev.PlayerLost.TYPE, conceded)) is None
    after = evolve(state, Event.parse(ev.PlayerLost.TYPE, lost))
    assert "already left" in reason(after, ev.PlayerLost.TYPE, lost)


def test_game_ended_only_as_the_rules_end_it() -> None:
    state = two_player().state
    assert "CR 104.2a" in reason(state, ev.GameEnded.TYPE, {"winners": ["P2"], "draw": False}, "CR 104.2a")
    lost = evolve(state, Event.parse(ev.PlayerLost.TYPE, {"player": "P1", "rule": "CR 104.3a", "reason": "conceded"}))
    ended = {"winners": ["P2"], "draw": False}
    assert check_event(lost, Event.parse(ev.GameEnded.TYPE, ended, "CR 104.2a")) is None
    assert "CR 104.2a" in reason(lost, ev.GameEnded.TYPE, {"winners": ["P1"], "draw": False}, "CR 104.2a")
    assert "CR 104.2a" in reason(
        lost, ev.GameEnded.TYPE, {"winners": [], "draw": True, "rule": "CR 104.4a"}, "CR 104.4a"
    )
    over = evolve(lost, Event.parse(ev.GameEnded.TYPE, ended, "CR 104.2a"))
    assert "CR 104.1" in reason(over, ev.LifeGained.TYPE, {"player": "P2", "amount": 1, "cause": "x", "life_after": 21})
    assert "CR 104.1" in reason(over, ev.GameEnded.TYPE, ended, "CR 104.2a")
    assert check_event(over, Event.parse(ev.NoteAdded.TYPE, {"text": "gg"})) is None


def test_team_lost_needs_a_reason_that_applies() -> None:
    state = two_headed_giant(teams={"B": {"life": 0}}).state
    assert (
        check_event(state, Event.parse(ev.TeamLost.TYPE, {"team": "B", "rule": "CR 704.6a", "reason": "life"})) is None
    )
    assert "CR 704.6" in reason(state, ev.TeamLost.TYPE, {"team": "A", "rule": "CR 704.6a", "reason": "life"})
    assert "CR 810.8a" in reason(state, ev.TeamLost.TYPE, {"team": "C", "rule": "CR 704.6a", "reason": "life"})


def test_malformed_data_is_a_reason_not_an_error() -> None:
    state = two_player().state
    milled = {"player": "P1", "cards": "lots", "requested": 1, "nonland_count": 0, "cause": "x"}
    assert "malformed" in reason(state, ev.CardsMilled.TYPE, milled)
    assert "malformed" in reason(state, ev.TriggerPutOnStack.TYPE, {"object": {"id": "s1"}, "seq": 1})
    # A record that does not fit the vocabulary is named, not guessed at.
    assert "missing field(s) ['nonland_count', 'cause']" in reason(
        state, ev.CardsMilled.TYPE, {"player": "P1", "cards": [], "requested": 1}
    )
    assert "unknown field 'shown_to'" in reason(state, ev.NoteAdded.TYPE, {"text": "gg", "shown_to": "everyone"})
    assert "unknown event type 'Teleported'" in reason(state, "Teleported", {})


# -- check_settled ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "rule"),
    [
        (two_player(p2={"life": 0}), "CR 704.5a"),
        (two_player(p2={"counters": {"poison": 10}}), "CR 704.5c"),
        (two_player(battlefield=[perm("bears", BEARS, counters={"-1/-1": 2})]), "CR 704.5f"),
        (two_player(battlefield=[perm("bears", BEARS, counters={"+1/+1": 1, "-1/-1": 1})]), "CR 704.5q"),
        (two_headed_giant(teams={"A": {"counters": {"poison": 15}}}), "CR 704.6b"),
    ],
)
def test_an_action_can_not_end_with_a_state_based_action_undone(game: Game, rule: str) -> None:
    found = check_settled(game.state)
    assert found is not None and "CR 704.3" in found and rule in found


def test_the_game_is_over_exactly_when_one_side_is_left() -> None:
    state = two_player().state
    assert check_settled(state) is None
    lost = evolve(state, Event.parse(ev.PlayerLost.TYPE, {"player": "P1", "rule": "CR 104.3a", "reason": "conceded"}))
    assert "CR 104.2a" in (check_settled(lost) or "")
    over = evolve(lost, Event.parse(ev.GameEnded.TYPE, {"winners": ["P2"], "draw": False}, "CR 104.2a"))
    assert check_settled(over) is None
    forged = evolve(state, Event.parse(ev.GameEnded.TYPE, {"winners": ["P2"], "draw": False}, "CR 104.2a"))
    assert "still in it" in (check_settled(forged) or "")
    # With three players, one leaving doesn't end the game.
    three = multiplayer(3).state
    assert (
        check_settled(
            evolve(three, Event.parse(ev.PlayerLost.TYPE, {"player": "P2", "rule": "CR 104.3a", "reason": "conceded"}))
        )
        is None
    )
