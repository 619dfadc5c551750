"""Triggers and the stack (CR 603.3b APNAP order, 805.7 teams, 603.4 intervening if, 608)."""

from __future__ import annotations

import pytest

from domain.errors import IllegalAction
from domain.events import StackObjectResolved, TriggerPutOnStack, TriggersPending
from tests.domain.helpers import BEARS, BOLT, SAGA, Game, of_type, one, perm, two_player


def two_sagas() -> Game:
    """P1 (active) and P2 each control a Saga with one lore counter."""
    return two_player(
        battlefield=[
            perm("mine", SAGA, counters={"lore": 1}),
            perm("theirs", SAGA, controller="P2", counters={"lore": 1}),
        ],
    )


def ordering_game() -> Game:
    """P1 gets two triggers at once as the precombat main phase begins: chapter II and rad."""
    game = two_player(
        step="draw",
        p1={"counters": {"rad": 1}, "library": [BEARS, BOLT]},
        battlefield=[perm("saga", SAGA, counters={"lore": 1})],
    )
    game.advance()
    return game


def test_cr_603_3b_apnap_the_active_players_trigger_goes_on_first_and_resolves_last() -> None:
    game = two_sagas()
    events = game.act("proliferate", player="P1", choose=[{"permanent": "mine"}, {"permanent": "theirs"}])
    put = [e.data["object"]["controller"] for e in of_type(events, TriggerPutOnStack.TYPE)]
    assert put == ["P1", "P2"]
    assert [o["controller"] for o in game.view["stack"]] == ["P1", "P2"]  # bottom first
    top = game.state.stack[-1].id
    resolved = game.resolve()
    assert one(resolved, StackObjectResolved.TYPE).data["id"] == top
    assert [o.controller for o in game.state.stack] == ["P1"]


def test_cr_603_3b_apnap_order_follows_the_active_player_not_the_seat() -> None:
    game = two_player(
        active="P2",
        battlefield=[
            perm("mine", SAGA, counters={"lore": 1}),
            perm("theirs", SAGA, controller="P2", counters={"lore": 1}),
        ],
    )
    events = game.act("proliferate", player="P1", choose=[{"permanent": "mine"}, {"permanent": "theirs"}])
    assert [e.data["object"]["controller"] for e in of_type(events, TriggerPutOnStack.TYPE)] == ["P2", "P1"]


def test_cr_603_3b_several_triggers_of_one_player_wait_for_their_order() -> None:
    game = ordering_game()
    pending = one(game.events, TriggersPending.TYPE)
    assert (pending.data["controller"], len(pending.data["triggers"]), pending.rule) == ("P1", 2, "CR 603.3b")
    assert game.state.stack == ()
    assert len(game.view["pending_order"]["triggers"]) == 2


def test_cr_603_3b_order_triggers_puts_the_first_to_resolve_on_top() -> None:
    game = ordering_game()
    ids = {t.effect: t.id for t in game.state.pending[0].triggers}
    game.act("order_triggers", resolve_first=[ids["radiation"], ids["described"]])
    assert [o.id for o in game.state.stack] == [ids["described"], ids["radiation"]]
    assert game.state.pending == ()
    events = game.resolve()
    assert one(events, StackObjectResolved.TYPE).data["id"] == ids["radiation"]


@pytest.mark.parametrize(
    "order",
    [
        pytest.param(lambda a, b: [a], id="one missing"),
        pytest.param(lambda a, b: [a, a], id="one twice"),
        pytest.param(lambda a, b: [a, b, "s999"], id="unknown id"),
        pytest.param(lambda a, b: ["s998", "s999"], id="wrong ids"),
    ],
)
def test_cr_603_3b_order_triggers_must_list_each_waiting_trigger_once(order: object) -> None:
    game = ordering_game()
    a, b = (t.id for t in game.state.pending[0].triggers)
    before = game.snapshot()
    with pytest.raises(IllegalAction) as err:
        game.act("order_triggers", resolve_first=order(a, b))  # type: ignore[operator]
    assert err.value.code == "illegal_choice"
    assert game.snapshot() == before


def test_order_triggers_with_nothing_waiting_is_refused() -> None:
    """CR 603.3b: only triggers waiting to be put on the stack are ordered."""
    game = two_player()
    with pytest.raises(IllegalAction) as err:
        game.act("order_triggers", resolve_first=["s1"])
    assert err.value.code == "nothing_to_order"


@pytest.mark.parametrize(
    ("type_", "fields"),
    [
        ("advance", {}),
        ("resolve", {}),
        ("add_counters", {"target": {"player": "P2"}, "kind": "rad", "amount": 1}),
        ("lose_life", {"player": "P2", "amount": 1}),
        ("proliferate", {"player": "P1", "choose": []}),
    ],
)
def test_cr_603_3b_waiting_triggers_block_every_other_action(type_: str, fields: dict[str, object]) -> None:
    game = ordering_game()
    with pytest.raises(IllegalAction) as err:
        game.act(type_, **fields)
    assert err.value.code == "triggers_pending"


def test_notes_are_allowed_while_triggers_wait() -> None:
    """docs/api.md: while an order is pending (CR 603.3b) only order_triggers changes the game; a note is no action."""
    game = ordering_game()
    game.act("note", text="P1 thinks about the order")
    assert game.state.pending != ()


def test_cr_603_4_intervening_if_is_checked_again_on_resolution() -> None:
    game = two_player(step="draw", p1={"counters": {"rad": 2}, "library": [BEARS, BOLT]})
    game.advance()
    game.act("remove_counters", target={"player": "P1"}, kind="rad", amount=2)
    events = game.resolve()
    assert "603.4" in one(events, StackObjectResolved.TYPE).data["note"]
    assert game.life("P1") == 20
    assert len(game.state.players["P1"].library) == 2


def test_cr_603_4_intervening_if_is_checked_when_it_would_trigger() -> None:
    game = two_player(step="draw", p1={"counters": {"rad": 2}})
    game.act("remove_counters", target={"player": "P1"}, kind="rad", amount=2)
    game.advance()
    assert game.state.stack == ()


def test_cr_608_resolving_an_empty_stack_is_refused() -> None:
    game = two_player()
    with pytest.raises(IllegalAction) as err:
        game.resolve()
    assert err.value.code == "stack_empty"


def test_cr_608_2n_an_instant_goes_to_its_owners_graveyard_as_it_resolves() -> None:
    game = two_player(p1={"hand": [BOLT]})
    game.act("cast", player="P1", card=BOLT)
    events = game.resolve()
    assert one(events, StackObjectResolved.TYPE).data["to"] == "graveyard"
    assert [c.name for c in game.state.players["P1"].graveyard] == ["Lightning Bolt"]
    assert game.state.players["P1"].hand == ()


def test_cr_608_3_a_permanent_spell_resolves_into_a_summoning_sick_permanent() -> None:
    game = two_player(p1={"hand": [BEARS]})
    game.act("cast", player="P1", card=BEARS)
    events = game.resolve()
    assert "to" not in one(events, StackObjectResolved.TYPE).data
    (bears,) = game.view["battlefield"].values()
    assert (bears["name"], bears["controller"], bears["summoning_sick"]) == ("Grizzly Bears", "P1", True)


def test_cr_805_7_the_active_team_orders_its_triggers_then_the_other_team_puts_theirs_on_top() -> None:
    from tests.domain.helpers import two_headed_giant

    game = two_headed_giant(
        battlefield=[
            perm("a1", SAGA, controller="A1", counters={"lore": 1}),
            perm("a2", SAGA, controller="A2", counters={"lore": 1}),
            perm("b1", SAGA, controller="B1", counters={"lore": 1}),
        ]
    )
    game.act("proliferate", player="A1", choose=[{"permanent": p} for p in ("a1", "a2", "b1")])
    assert game.view["pending_order"]["controller"] == "A"
    assert game.state.stack == ()  # team B's single trigger waits for team A's order
    a_ids = [t.id for t in game.state.pending[0].triggers]
    game.act("order_triggers", resolve_first=a_ids)
    assert [o.controller for o in game.state.stack][-1] == "B1"
    assert [o.id for o in game.state.stack][:2] == list(reversed(a_ids))


def test_cr_701_6a_a_countered_spell_leaves_the_stack_for_the_graveyard_without_resolving() -> None:
    from domain.events import StackObjectCountered, StackObjectResolved
    from tests.domain.helpers import of_type as _of_type
    from tests.domain.helpers import two_player as _two_player

    game = _two_player(p1={"hand": [{"name": "Shock", "type_line": "Instant"}]})
    game.act("cast", player="P1", card="Shock")
    spell = game.state.stack[-1].id
    events = game.act("counter", object=spell, source="Counterspell")
    countered = _of_type(events, StackObjectCountered.TYPE)[0]
    assert countered.rule == "CR 701.6a" and countered.data["reason"] == "countered by Counterspell"
    assert _of_type(events, StackObjectResolved.TYPE) == []
    assert game.state.stack == ()
    assert [c.name for c in game.state.players["P1"].graveyard] == ["Shock"]


def test_countering_an_unknown_stack_object_is_not_found() -> None:
    import pytest as _pytest

    from domain.errors import NotFound
    from tests.domain.helpers import two_player as _two_player

    with _pytest.raises(NotFound) as err:
        _two_player().act("counter", object="s99")
    assert err.value.code == "unknown_stack_object"
