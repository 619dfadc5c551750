"""What a player token may ask for (docs/api.md, Authentication and roles), decided on the command's type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from api.errors import status_of
from domain.commands import ACTION_BODIES, parse_command
from domain.errors import Forbidden, GameError, IllegalAction
from domain.permissions import check_player_command
from tests.domain.helpers import BEARS, CATALOG, RELIC, Game, perm, two_player


def _game() -> Game:
    return two_player(battlefield=[perm("mine", BEARS, "P1"), perm("theirs", RELIC, "P2")])


def _check(game: Game, body: dict[str, Any], me: str = "P1") -> None:
    check_player_command(me, parse_command(body, CATALOG.resolve), game.state)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"type": "note", "text": "hello"}, "forbidden"),
        ({"type": "gain_life", "player": "P2", "amount": 1}, "not_your_player"),
        ({"type": "mill", "player": "P2", "count": 1}, "not_your_player"),
        ({"type": "draw", "player": "P2"}, "not_your_player"),
        ({"type": "proliferate", "player": "P2"}, "not_your_player"),
        ({"type": "concede", "player": "P2"}, "not_your_player"),
        ({"type": "cast", "player": "P2", "card": "Lightning Bolt"}, "not_your_player"),
        ({"type": "play_land", "player": "P2", "card": "Forest"}, "not_your_player"),
        ({"type": "activate", "player": "P2", "permanent": "theirs"}, "not_your_player"),
        (
            {"type": "attack", "player": "P2", "attackers": [{"permanent": "x", "attacks": {"player": "P1"}}]},
            "not_your_player",
        ),
        ({"type": "enter", "card": RELIC, "controller": "P2"}, "not_your_player"),
        ({"type": "tap", "permanent": "theirs"}, "not_your_permanent"),
        ({"type": "untap", "permanent": "theirs"}, "not_your_permanent"),
        ({"type": "move", "permanent": "theirs", "to": "exile"}, "not_your_permanent"),
        ({"type": "sacrifice", "permanent": "theirs"}, "not_your_permanent"),
    ],
)
def test_a_player_token_acts_only_as_its_player_on_its_permanents(body: dict[str, Any], code: str) -> None:
    with pytest.raises(Forbidden) as err:
        _check(_game(), body)
    assert (err.value.code, status_of(err.value.code)) == (code, 403)


@pytest.mark.parametrize(
    "body",
    [
        {"type": "gain_life", "player": "P1", "amount": 1},
        {"type": "tap", "permanent": "mine"},
        {"type": "tap", "permanent": "gone"},  # the rules answer an unknown permanent (404)
        {"type": "activate", "player": "P1", "permanent": "theirs"},  # the rules check control
        {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 1},
        {"type": "damage", "target": {"permanent": "theirs"}, "amount": 1},
        {"type": "counter", "object": "s1"},
        {"type": "advance"},
    ],
)
def test_its_own_actions_and_reports_are_allowed(body: dict[str, Any]) -> None:
    _check(_game(), body)


def test_cr_500_only_the_active_player_ends_a_step() -> None:
    with pytest.raises(IllegalAction) as err:
        _check(_game(), {"type": "advance"}, me="P2")
    assert (err.value.code, status_of(err.value.code)) == ("not_your_priority", 422)


def test_cr_608_2_the_choices_for_the_top_of_the_stack_are_its_controllers() -> None:
    game = two_player(p1={"counters": {"rad": 1}, "library_size": 10}, step="upkeep")
    game.advance("precombat_main")  # P1's rad trigger (CR 728.1) goes on the stack
    assert game.state.stack and game.state.stack[-1].controller == "P1"
    _check(game, {"type": "resolve"}, me="P2")  # passing priority needs no choice
    _check(game, {"type": "resolve", "choices": {"cards": []}}, me="P1")
    with pytest.raises(IllegalAction) as err:
        _check(game, {"type": "resolve", "choices": {"cards": []}}, me="P2")
    assert err.value.code == "not_your_priority"


def _example(kind: str) -> dict[str, Any]:
    """The first example body the action's model documents (docs/api.md shows it)."""
    examples: list[dict[str, Any]] = ACTION_BODIES[kind].model_config["json_schema_extra"]["examples"]  # type: ignore[index,assignment]
    return examples[0]


def _allowed(game: Game, body: dict[str, Any], me: str) -> bool:
    try:
        _check(game, body, me)
    except GameError:
        return False
    return True


def test_every_action_type_has_a_rule_for_player_tokens() -> None:
    """No action type falls through to the default refusal: each was given a rule on purpose.

    The default refuses every player token whatever the state; a rule allows the action to the
    player it belongs to. So each action type's example must be allowed to one of the players
    (the one it names or whose permanents it uses), except a note, which is for judges."""
    game = _game()
    never_allowed = [
        kind for kind in ACTION_BODIES if not any(_allowed(game, _example(kind), me) for me in game.state.players)
    ]
    assert never_allowed == ["note"]


def test_a_command_type_without_a_rule_is_refused() -> None:
    @dataclass(frozen=True)
    class Shuffle:
        player: str

    with pytest.raises(Forbidden) as err:
        check_player_command("P1", Shuffle("P1"), _game().state)  # type: ignore[arg-type]
    assert err.value.code == "forbidden"
