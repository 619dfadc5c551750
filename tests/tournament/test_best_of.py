"""Matches of best of one, three or five games (MTR 2.1: "best-of-three unless announced
otherwise"; a player wins the match on winning the games needed, drawn games don't count)."""

from __future__ import annotations

import pytest

from domain.errors import Code, GameError
from domain.tournament import CreateEvent, MarkNoShow, PairRound, RegisterPlayer, ReportResult
from tests.tournament.helpers import Event


def _paired(best_of: int) -> Event:
    ev = Event()
    ev.act(CreateEvent(name="Bo", format="Vintage", rounds=1, best_of=best_of))
    for key in ("a", "b"):
        ev.act(RegisterPlayer(player=key, name=key.upper()))
    ev.act(PairRound(seed=1))
    return ev


@pytest.mark.parametrize(("best_of", "won", "refused"), [(1, (1, 0), (2, 0)), (3, (2, 1), (3, 0)), (5, (3, 2), (3, 3))])
def test_a_match_is_won_on_the_games_its_length_needs(
    best_of: int, won: tuple[int, int], refused: tuple[int, int]
) -> None:
    ev = _paired(best_of)
    with pytest.raises(GameError) as err:
        ev.act(ReportResult(round=1, table=1, games=refused))
    assert err.value.code is Code.INVALID_RESULT
    ev.act(ReportResult(round=1, table=1, games=won))
    assert ev.state.rounds[0].tables[0].winner() == ev.state.rounds[0].tables[0].players[0]


def test_a_no_show_is_a_match_loss_of_the_games_needed() -> None:
    """IPG 3.1: a Match Loss; in a best of five the opponent is entered 3-0."""
    ev = _paired(5)
    no_show = ev.state.rounds[0].tables[0].players[0]
    ev.act(MarkNoShow(player=no_show))
    assert ev.state.rounds[0].tables[0].result is not None
    assert ev.state.rounds[0].tables[0].result.games == (0, 3)


@pytest.mark.parametrize("best_of", [0, 2, 4, 7, True])
def test_a_match_length_other_than_1_3_5_is_refused(best_of: int) -> None:
    ev = Event()
    with pytest.raises(GameError) as err:
        ev.act(CreateEvent(name="Bo", format="Vintage", best_of=best_of))
    assert err.value.code is Code.INVALID_BEST_OF
    assert ev.log == []


def test_a_pod_plays_one_game_whatever_best_of_says() -> None:
    ev = Event()
    ev.act(CreateEvent(name="Pods", format="Commander", kind="commander", best_of=3))
    assert ev.state.settings is not None and ev.state.settings.best_of == 1
