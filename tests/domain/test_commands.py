"""Parsing action bodies and create bodies: malformed input is ``InvalidCommand`` (HTTP 400)
with a stable machine ``code``, an unknown field ``UnknownName`` (422); nothing reaches the rules."""

from __future__ import annotations

from typing import Any

import pytest

from api.errors import status_of
from domain.commands import (
    AddCounters,
    ChangeLife,
    Choices,
    Draw,
    Enter,
    Proliferate,
    RemoveCounters,
    Resolve,
    parse_action_body,
    parse_command,
)
from domain.errors import IllegalAction, InvalidCommand, UnknownName
from domain.setup import game_started
from tests.domain.helpers import CATALOG, two_player


def parse(body: Any) -> object:
    return parse_command(body, CATALOG.resolve)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"type": "shuffle"}, "unknown_action"),
        ({}, "unknown_action"),
        ({"type": 7}, "unknown_action"),
        (["add_counters"], "invalid_body"),
        ("advance", "invalid_body"),
        ({"type": "add_counters", "target": {"player": "P1"}, "amount": 1}, "missing_field"),
        ({"type": "add_counters", "kind": "rad", "amount": 1}, "invalid_target"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad"}, "missing_field"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 0}, "invalid_amount"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": -2}, "invalid_amount"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": "2"}, "invalid_field"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": True}, "invalid_field"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "", "amount": 1}, "invalid_field"),
        (
            {"type": "add_counters", "target": {"player": "P1", "permanent": "x"}, "kind": "a", "amount": 1},
            "invalid_target",
        ),
        ({"type": "remove_counters", "target": {"team": "A"}, "kind": "poison", "amount": 1}, "invalid_target"),
        (
            {"type": "remove_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 1, "up_to": "yes"},
            "invalid_field",
        ),
        ({"type": "lose_life", "player": "P1", "amount": 0}, "invalid_amount"),
        ({"type": "gain_life", "player": "P1", "amount": -1}, "invalid_amount"),
        ({"type": "pay_life", "player": "P1", "amount": -1}, "invalid_amount"),
        ({"type": "lose_life", "amount": 1}, "missing_field"),
        ({"type": "damage", "target": {"player": "P1"}, "amount": 0}, "invalid_amount"),
        ({"type": "damage", "target": {"player": "P1"}, "amount": 1, "toxic": -1}, "invalid_amount"),
        ({"type": "mill", "player": "P1", "count": 0}, "invalid_amount"),
        ({"type": "mill", "player": "P1"}, "missing_field"),
        ({"type": "mill", "player": "P1", "count": 1, "cards": "Forest"}, "invalid_field"),
        ({"type": "draw", "player": "P1", "count": -1}, "invalid_amount"),
        ({"type": "proliferate", "player": "P1", "choose": {"player": "P2"}}, "invalid_field"),
        ({"type": "proliferate", "player": "P1", "choose": ["P2"]}, "invalid_target"),
        ({"type": "proliferate", "player": "P1", "choose": [{"player": "P2", "kind": 3}]}, "invalid_field"),
        ({"type": "advance", "to": "second_main"}, "invalid_step"),
        ({"type": "order_triggers", "resolve_first": []}, "invalid_field"),
        ({"type": "order_triggers"}, "invalid_field"),
        ({"type": "move", "permanent": "x", "to": "sideboard"}, "invalid_zone"),
        ({"type": "enter", "controller": "P1"}, "missing_field"),
        ({"type": "enter", "card": "Forest", "controller": "P1", "counters": {"+1/+1": -1}}, "invalid_field"),
        (
            {"type": "activate", "player": "P1", "permanent": "x", "costs": {"remove_counters": {"oil": -1}}},
            "invalid_field",
        ),
        ({"type": "activate", "player": "P1", "permanent": "x", "costs": {"tap": "yes"}}, "invalid_field"),
        ({"type": "resolve", "choices": {"x": -1}}, "invalid_amount"),
        ({"type": "resolve", "choices": []}, "invalid_field"),
        ({"type": "note", "text": ""}, "invalid_field"),
        ({"type": "cast", "player": "P1"}, "missing_field"),
        ({"type": "cast", "player": "P1", "card": 12}, "invalid_card"),
    ],
)
def test_malformed_action_bodies_are_invalid_commands_with_a_stable_code(body: Any, code: str) -> None:
    """docs/api.md Conventions: a malformed request is 400 with a machine ``code``."""
    with pytest.raises(InvalidCommand) as err:
        parse(body)
    assert (err.value.code, status_of(err.value.code)) == (code, 400)


def test_an_unknown_card_name_is_unknown_card_422() -> None:
    """docs/api.md Cards: an unknown name is 422 ``unknown_card``."""
    with pytest.raises(IllegalAction) as err:
        parse({"type": "enter", "card": "Not A Real Card", "controller": "P1"})
    assert (err.value.code, status_of(err.value.code)) == ("unknown_card", 422)


def test_cr_119_4_paying_zero_life_parses() -> None:
    assert parse({"type": "pay_life", "player": "P1", "amount": 0}) == ChangeLife("pay_life", "P1", 0)


def test_draw_count_defaults_to_one_and_proliferate_choose_to_none() -> None:
    """docs/api.md Actions: ``count`` defaults to 1; proliferate may choose nothing (CR 701.34a)."""
    assert parse({"type": "draw", "player": "P1"}) == Draw("P1", 1)
    assert parse({"type": "proliferate", "player": "P1"}) == Proliferate("P1", ())


def test_a_well_formed_body_keeps_its_fields() -> None:
    """docs/api.md Actions: ``add_counters`` fields, ``source`` kept as the cause."""
    command = parse({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 2, "source": "V12"})
    assert command == AddCounters({"player": "P1"}, "rad", 2, "V12")


def test_a_malformed_action_stores_nothing() -> None:
    """docs/api.md Conventions: a rejected action stores nothing."""
    game = two_player()
    before = game.snapshot()
    with pytest.raises(InvalidCommand):
        game.act("lose_life", player="P1", amount=-3)
    assert game.snapshot() == before and len(game.events) == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "chess", "players": [{"id": "P1"}, {"id": "P2"}]}, "invalid_variant"),
        ({"variant": "two_player", "players": [{"id": "P1"}]}, "invalid_players"),
        ({"variant": "two_player", "players": []}, "invalid_field"),
        ({"variant": "two_player", "players": [{"id": "P1"}, {"id": "P1"}]}, "duplicate_id"),
        ({"variant": "two_player", "players": [{"id": "P1"}, {}]}, "invalid_field"),
        ({"variant": "two_headed_giant", "players": [{"id": f"P{i}"} for i in range(4)]}, "invalid_field"),
        (
            {"variant": "two_player", "rules_edition": "yesterday", "players": [{"id": "P1"}, {"id": "P2"}]},
            "invalid_field",
        ),
        (
            {
                "variant": "two_player",
                "players": [{"id": "P1", "library": [{"name": "Forest"}], "library_size": 0}, {"id": "P2"}],
            },
            "invalid_field",
        ),
        ({"variant": "two_player", "players": [{"id": "P1", "counters": {"rad": -1}}, {"id": "P2"}]}, "invalid_field"),
        (
            {"variant": "two_player", "players": [{"id": "P1"}, {"id": "P2"}], "turn": {"active_player": "P3"}},
            "invalid_players",
        ),
        (
            {"variant": "two_player", "players": [{"id": "P1"}, {"id": "P2"}], "turn": {"step": "second_main"}},
            "invalid_step",
        ),
        (
            {
                "variant": "two_player",
                "players": [{"id": "P1"}, {"id": "P2"}],
                "battlefield": [{"id": "x", "card": "Forest", "controller": "P9"}],
            },
            "invalid_players",
        ),
    ],
)
def test_cr_103_malformed_create_bodies_are_invalid_commands(body: Any, code: str) -> None:
    with pytest.raises(InvalidCommand) as err:
        game_started(body, "g1", CATALOG.resolve)
    assert err.value.code == code


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"type": "advance", "too": "upkeep"}, "'too'"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 1, "amout": 2}, "'amout'"),
        ({"type": "add_counters", "target": {"player": "P1", "side": "x"}, "kind": "rad", "amount": 1}, "'side'"),
        ({"type": "activate", "player": "P1", "permanent": "x", "costs": {"tapp": True}}, "'costs.tapp'"),
        ({"type": "resolve", "choices": {"card": []}}, "'choices.card'"),
        ({"type": "proliferate", "player": "P1", "choose": [{"player": "P2", "note": 1}]}, "'note'"),
        (
            {"type": "attack", "player": "P1", "attackers": [{"permanent": "a", "attacks": {"player": "P2"}, "x": 1}]},
            "'attackers[0].x'",
        ),
        ({"type": "cast", "player": "P1", "card": "Forest", "from_": "hand"}, "'from_'"),
        ({"type": "draw", "player": "P1", "custom_kind": True}, "'custom_kind'"),
    ],
)
def test_unknown_fields_in_an_action_are_refused_naming_them(body: dict[str, Any], path: str) -> None:
    """A misspelled field is refused rather than ignored: ``422 unknown_field``."""
    with pytest.raises(UnknownName) as err:
        parse(body)
    assert (err.value.code, status_of(err.value.code)) == ("unknown_field", 422)
    assert path in err.value.message, err.value.message


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"varient": "two_player"}, "'varient'"),
        ({"players": [{"id": "P1", "lief": 3}, {"id": "P2"}]}, "'players[0].lief'"),
        ({"battlefield": [{"id": "x", "card": "Forest", "controller": "P1", "taped": True}]}, "'battlefield[0].taped'"),
        ({"turn": {"stepp": "upkeep"}}, "'turn.stepp'"),
        ({"tournament": {"seat": 3}}, "'tournament.seat'"),
        ({"variant": "two_headed_giant", "teams": {"A": {"lif": 30}}}, "'teams.A.lif'"),
    ],
)
def test_unknown_fields_in_a_create_body_are_refused_naming_them(extra: dict[str, Any], path: str) -> None:
    body = {"variant": "two_player", "players": [{"id": "P1"}, {"id": "P2"}], **extra}
    if body["variant"] == "two_headed_giant":
        body["players"] = [{"id": f"{t}{i}", "team": t} for t in "AB" for i in (1, 2)]
    with pytest.raises(UnknownName) as err:
        game_started(body, "g1", CATALOG.resolve)
    assert (err.value.code, status_of(err.value.code)) == ("unknown_field", 422)
    assert path in err.value.message, err.value.message


def test_the_dict_path_and_the_model_path_are_one() -> None:
    """``parse_command`` is the action's model validating the dict, then building the command."""
    body = {"type": "enter", "card": "Feral Hydra", "controller": "P1", "x": 3, "counters": {"+1/+1": 0}}
    assert parse(body) == parse_action_body(body).to_command(CATALOG.resolve)
    assert parse(body) == Enter(card=CATALOG.resolve("Feral Hydra"), controller="P1", x=3)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"type": "draw", "player": "P1", "count": None}, Draw("P1", 1)),
        (
            {"type": "remove_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 1, "up_to": None},
            RemoveCounters({"player": "P1"}, "rad", 1, up_to=False),
        ),
        ({"type": "resolve", "choices": None}, Resolve(Choices())),
    ],
)
def test_a_null_field_counts_as_not_given(body: dict[str, Any], expected: object) -> None:
    """v1 clients may send ``null`` for a field they leave out: the default applies."""
    assert parse(body) == expected
    assert parse({k: v for k, v in body.items() if v is not None}) == expected, "the same as leaving it out"


def test_a_null_required_field_is_missing() -> None:
    with pytest.raises(InvalidCommand) as err:
        parse({"type": "tap", "permanent": None})
    assert err.value.code == "missing_field"
    with pytest.raises(UnknownName):
        parse({"type": "tap", "permanent": "x", "permanant": None})  # an unknown field, even null
