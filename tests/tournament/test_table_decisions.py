"""A table beyond its result: featuring it (``TableFeatured``, folded and replayed) and whether
its match may have another game (MTR 2.1: a best-of-N is played until a player has won the
games needed, one game after another)."""

from __future__ import annotations

import pytest

from domain.errors import Code, GameError
from domain.tournament import CreateEvent, FeatureTable, PairRound, RegisterPlayer, ReportResult
from domain.tournament.decide_tables import GameSoFar, next_game_number
from tests.tournament.helpers import Event


def _paired(best_of: int = 3, kind: str = "two_player") -> Event:
    ev = Event()
    ev.act(CreateEvent(name="Tables", format="Modern", rounds=1, best_of=best_of, kind=kind))
    for key in ("a", "b", "c", "d"):
        ev.act(RegisterPlayer(player=key, name=key.upper()))
    ev.act(PairRound(seed=3))
    return ev


def test_featuring_a_table_is_an_event_the_fold_and_a_replay_keep() -> None:
    ev = _paired()
    ev.act(FeatureTable(round=1, table=2, featured=True))
    assert [t.featured for t in ev.state.rounds[0].tables] == [False, True]
    assert ev.replayed() == ev.state
    with pytest.raises(GameError) as err:  # the same again stores nothing
        ev.act(FeatureTable(round=1, table=2, featured=True))
    assert err.value.code is Code.TABLE_ALREADY_FEATURED
    ev.act(FeatureTable(round=1, table=2, featured=False))
    assert not ev.state.rounds[0].tables[1].featured
    with pytest.raises(GameError) as err:
        ev.act(FeatureTable(round=1, table=9, featured=True))
    assert err.value.code is Code.UNKNOWN_TABLE


def test_the_next_game_follows_a_finished_game_until_the_match_is_decided() -> None:
    """MTR 2.1: best of three; 1-1 after two games needs a third, 2-0 is decided."""
    ev = _paired(best_of=3)
    a, b = ev.state.rounds[0].tables[0].players
    assert next_game_number(ev.state, 1, 1, []) == 1
    assert next_game_number(ev.state, 1, 1, [GameSoFar(True, (a,))]) == 2
    assert next_game_number(ev.state, 1, 1, [GameSoFar(True, (a,)), GameSoFar(True, (b,))]) == 3
    # A drawn game doesn't count toward the wins (MTR 2.1): 1-0-1 needs a third game.
    assert next_game_number(ev.state, 1, 1, [GameSoFar(True, (a,)), GameSoFar(True, ())]) == 3
    cases = [
        ([GameSoFar(False)], Code.PREVIOUS_GAME_NOT_OVER),
        ([GameSoFar(True, (a,)), GameSoFar(False)], Code.PREVIOUS_GAME_NOT_OVER),
        ([GameSoFar(True, (a,)), GameSoFar(True, (a,))], Code.MATCH_DECIDED),
        ([GameSoFar(True, (a,)), GameSoFar(True, (b,)), GameSoFar(True, ())], Code.ALL_GAMES_PLAYED),
    ]
    for games, code in cases:
        with pytest.raises(GameError) as err:
            next_game_number(ev.state, 1, 1, games)
        assert err.value.code is code, games


def test_no_next_game_once_the_match_has_a_result_or_in_a_pod() -> None:
    ev = _paired(best_of=3)
    a, _ = ev.state.rounds[0].tables[0].players
    ev.act(ReportResult(round=1, table=1, games=(1, 0), draws=0))  # time was called after game 1
    with pytest.raises(GameError) as err:
        next_game_number(ev.state, 1, 1, [GameSoFar(True, (a,))])
    assert err.value.code is Code.MATCH_ALREADY_REPORTED
    pod = _paired(kind="commander")  # a pod plays one game
    with pytest.raises(GameError) as err:
        next_game_number(pod.state, 1, 1, [GameSoFar(True, ("a",))])
    assert err.value.code is Code.ALL_GAMES_PLAYED
    with pytest.raises(GameError) as err:
        next_game_number(pod.state, 2, 1, [])
    assert err.value.code is Code.UNKNOWN_ROUND
