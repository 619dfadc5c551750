"""Who may do what beyond a player's own commands (``domain.permissions``): the role ladder, the
game a player token is bound to, and the other 403s the API answers, each with its code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.commands import Note
from domain.errors import Forbidden
from domain.permissions import (
    Grant,
    acknowledger,
    check_command,
    check_game,
    check_player_links,
    disputer,
    full_verify,
    judge_caller,
    match_player,
    require_role,
)

P1 = Grant("Alice", "player", "g1", "P1")
SCOREKEEPER = Grant("Sam", "scorekeeper")
JUDGE = Grant("Jane", "judge")


@pytest.mark.parametrize(
    ("refuse", "code", "message"),
    [
        (
            lambda: require_role(SCOREKEEPER, "judge"),
            "forbidden",
            "role 'scorekeeper' may not do this; it needs 'judge'",
        ),
        (lambda: check_game(P1, "g2"), "wrong_game", "this player token is bound to game 'g1'"),
        (lambda: check_command(P1, "g2", Note("hi")), "wrong_game", "bound to game 'g1'"),
        (lambda: check_command(Grant("x", "player", "g1"), "g1", Note("hi")), "wrong_game", "bound to game 'g1'"),
        (lambda: check_command(SCOREKEEPER, "g1", Note("hi")), "forbidden", "notes on the record are for judges"),
        (lambda: full_verify(SCOREKEEPER, True), "forbidden", "a full verify (?full=true) is for judges"),
        (
            lambda: check_player_links(SCOREKEEPER, "g1", ("Other", "scorekeeper", None)),
            "not_game_creator",
            "created by",
        ),
        (lambda: judge_caller(P1, "P2"), "not_your_player", "this token calls as 'P1'"),
        (lambda: acknowledger(SCOREKEEPER), "forbidden", "it needs 'judge' or above"),
        (lambda: disputer(JUDGE), "forbidden", "a report is disputed by the player it affects"),
        (lambda: match_player(JUDGE, ["g1"], ["P1"]), "forbidden", "this is the players' to do"),
        (lambda: match_player(P1, ["g9"], ["P1"]), "wrong_game", "a game of another match"),
    ],
)
def test_refused(refuse: Callable[[], Any], code: str, message: str) -> None:
    with pytest.raises(Forbidden) as refused:
        refuse()
    assert refused.value.code == code
    assert message in refused.value.message


def test_allowed() -> None:
    require_role(JUDGE, "scorekeeper")
    check_game(SCOREKEEPER, "any game")  # only player tokens are bound
    check_command(JUDGE, "g1", Note("hi"))
    check_command(P1, "g1", Note("hi"))  # without a state: what the state decides comes later
    assert (full_verify(SCOREKEEPER, None), full_verify(JUDGE, None), full_verify(JUDGE, False)) == (False, True, False)
    check_player_links(SCOREKEEPER, "g1", ("Sam", "scorekeeper", None))
    check_player_links(JUDGE, "g1", ("Sam", "scorekeeper", None))
    assert (judge_caller(P1, None), judge_caller(JUDGE, None), judge_caller(JUDGE, "P2")) == ("P1", "Jane", "P2")
    assert (acknowledger(P1), acknowledger(JUDGE), disputer(P1)) == ("P1", "judge", "P1")
    assert match_player(P1, ["g1"], ["P1", "P2"]) == "P1"
