"""Commander events: one-game pods of 4 (3s when the count doesn't divide by 4), win 3 / draw 1
(the event's points mode), Swiss by points between rounds (docs/rules.md, Commander pods)."""

from __future__ import annotations

import random

import pytest

from domain.errors import GameError
from domain.tournament import (
    PairRound,
    ReportIntentionalDraw,
    ReportResult,
    RoundPaired,
    decide,
    pod_sizes,
    standings,
    tournament_state,
)
from tests.tournament.helpers import event_with, play_swiss


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(3, (3,)), (4, (4,)), (5, (5,)), (6, (3, 3)), (7, (4, 3)), (8, (4, 4)), (9, (3, 3, 3)), (13, (4, 3, 3, 3))],
)
def test_pods_are_4s_with_3s_taking_the_rest(players: int, sizes: tuple[int, ...]) -> None:
    """Pods of 4; 1, 2 or 3 left over become three, two or one pod of 3; 5 players one pod of 5."""
    assert pod_sizes(players) == sizes
    assert sum(sizes) == players


def test_fewer_than_3_players_make_no_pod() -> None:
    with pytest.raises(GameError) as refused:
        pod_sizes(2)
    assert refused.value.code == "not_enough_players"


def test_a_4_player_pod_event_plays_the_same_pod_and_scores_3_for_a_win_1_for_a_draw() -> None:
    """4 players: MTR Appendix E's 2 rounds; one pod each round (a repeat can't be avoided); a
    win is 3 points, a draw 1 for everyone in the pod, a loss 0."""
    ev = event_with(4, kind="commander")
    ev.act(PairRound(seed=1))
    first = ev.state.rounds[0]
    assert (
        ev.state.rounds_planned == 2
        and len(first.tables) == 1
        and sorted(first.tables[0].players)
        == [
            "p01",
            "p02",
            "p03",
            "p04",
        ]
    )
    winner = first.tables[0].players[2]
    ev.act(ReportResult(round=1, table=1, games=(0, 0, 1, 0)))
    ev.act(PairRound(seed=2))
    ev.act(ReportIntentionalDraw(round=2, table=1))
    table = {s.player: s for s in standings(ev.state)}
    assert table[winner].match_points == 3 + 1
    assert all(table[p].match_points == 1 for p in table if p != winner)
    assert standings(ev.state)[0].player == winner
    # Appendix C with one game a match: the winner's MWP and GWP are 4/6 = 2/3.
    assert table[winner].mwp == table[winner].gwp == pytest.approx(2 / 3)
    assert tournament_state(ev.log) == ev.state


def test_a_13_player_pod_event_seats_everyone_every_round_in_4_3_3_3() -> None:
    """13 players: pods 4, 3, 3, 3 every round (no byes in pods), every player seated once; the
    event's 5 rounds (Appendix E, 9-32 players) pair by points with repeats kept low."""
    ev = event_with(13, kind="commander")
    play_swiss(ev, 5, seed=13)
    assert ev.state.rounds_planned == 5
    for rnd in ev.state.rounds:
        assert [len(t.players) for t in rnd.tables] == [4, 3, 3, 3]
        assert sorted(p for t in rnd.tables for p in t.players) == sorted(ev.state.players)
        assert rnd.byes == ()
    points = {s.player: s.match_points for s in standings(ev.state)}
    assert sum(points.values()) == sum(
        3 if t.result and t.result.winner_seat() is not None else len(t.players) * 1
        for r in ev.state.rounds
        for t in r.tables
    )
    for index, e in enumerate(ev.log):
        if isinstance(e, RoundPaired):
            assert decide(tournament_state(ev.log[:index]), PairRound(seed=e.seed)) == [e]


def test_pods_are_formed_by_points_the_leaders_together() -> None:
    """After round 1 the four winners of a 16-player event sit in the first pod."""
    ev = event_with(16, kind="commander")
    ev.act(PairRound(seed=4))
    winners = []
    for table in ev.state.rounds[0].tables:
        ev.act(ReportResult(round=1, table=table.number, games=(1, 0, 0, 0)))
        winners.append(table.players[0])
    ev.act(PairRound(seed=5))
    assert sorted(ev.state.rounds[1].tables[0].players) == sorted(winners)


def test_swapping_pods_keeps_players_from_meeting_again_when_it_can() -> None:
    """16 players all on 1 point after round 1: each new pod can take one player from each old
    pod, so nobody needs to meet a round-1 pod-mate again."""
    rng = random.Random(3)
    ev = event_with(16, kind="commander")
    ev.act(PairRound(seed=rng.randrange(2**32)))
    for table in ev.state.rounds[0].tables:
        ev.act(ReportIntentionalDraw(round=1, table=table.number))  # everyone on 1 point
    ev.act(PairRound(seed=rng.randrange(2**32)))
    met = {frozenset((a, b)) for t in ev.state.rounds[0].tables for a in t.players for b in t.players if a != b}
    again = [
        (a, b)
        for t in ev.state.rounds[1].tables
        for a in t.players
        for b in t.players
        if a < b and frozenset((a, b)) in met
    ]
    assert again == []


@pytest.mark.parametrize(
    ("games", "draws"),
    [((1, 1, 0, 0), 0), ((0, 0, 0, 0), 0), ((2, 0, 0, 0), 0), ((1, 0, 0, 0), 1), ((1, 0, 0), 0)],
)
def test_a_pod_result_is_one_game_won_by_one_player_or_drawn(games: tuple[int, ...], draws: int) -> None:
    ev = event_with(4, kind="commander")
    ev.act(PairRound(seed=1))
    before = ev.state
    with pytest.raises(GameError) as refused:
        ev.act(ReportResult(round=1, table=1, games=games, draws=draws))
    assert refused.value.code == "invalid_result"
    assert ev.state == before
