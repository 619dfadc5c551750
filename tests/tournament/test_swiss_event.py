"""A 64-player (and a 63-player, for byes) Swiss event of 6 rounds and a top 8, end to end with
seeded random results (issue 31).

The standings are checked against ``independent_standings`` below, written from MTR 3.1 and
Appendix C straight off the event log, sharing no code with ``domain.tournament.standings``."""

from __future__ import annotations

import functools
import itertools
import random
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest

from domain.tournament import (
    PairRound,
    PairTopCut,
    PlayerRegistered,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    TopCutPaired,
    TournamentEvent,
    decide,
    standings,
    tournament_state,
)
from domain.tournament.events import IntentionalDraw
from tests.tournament.helpers import Event, event_with, play_swiss


def independent_standings(log: list[TournamentEvent]) -> list[tuple[str, int, Fraction, Fraction, Fraction, Fraction]]:
    """(player, match points, OMW%, GW%, OGW%) in standings order, from the log alone.

    MTR Appendix C: 3/1/0 match points, a bye a 2-0 win; game points 3 a game won, 1 a game
    drawn; MWP = points / (3 x rounds) and GWP = game points / (3 x games), each at least 0.33;
    OMW%/OGW% = the average over the opponents faced (a bye is no opponent). MTR 3.1: ordered by
    points, OMW%, GW%, OGW%. A late entrant's missed round is a 0-2 loss with no opponent."""
    floor = Fraction(33, 100)
    order: list[str] = []
    missed: dict[str, int] = {}
    tables: dict[tuple[int, int], list[str]] = {}
    results: dict[tuple[int, int], tuple[list[int], int]] = {}
    byes: list[str] = []
    swiss_rounds: set[int] = set()
    for e in log:
        if isinstance(e, PlayerRegistered):
            order.append(e.player)
            missed[e.player] = e.missed_rounds
        elif isinstance(e, RoundPaired):
            swiss_rounds.add(e.round)
            byes.extend(e.byes)
            for p in e.pairings:
                tables[(e.round, p["table"])] = p["players"]
        elif isinstance(e, ResultReported | ResultCorrected | IntentionalDraw):
            results[(e.round, e.table)] = (e.games, e.draws)
    points: dict[str, int] = defaultdict(int)
    rounds: dict[str, int] = defaultdict(int)
    game_points: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    for player, n in missed.items():
        rounds[player] += n
        games[player] += 2 * n
    for player in byes:
        points[player] += 3
        rounds[player] += 1
        game_points[player] += 6
        games[player] += 2
    for (rnd, table), (won, drawn) in results.items():
        if rnd not in swiss_rounds:
            continue
        a, b = tables[(rnd, table)]
        points[a] += 3 if won[0] > won[1] else 1 if won[0] == won[1] else 0
        points[b] += 3 if won[1] > won[0] else 1 if won[0] == won[1] else 0
        for player, mine, opponent in ((a, won[0], b), (b, won[1], a)):
            rounds[player] += 1
            game_points[player] += 3 * mine + drawn
            games[player] += sum(won) + drawn
            opponents[player].append(opponent)
    mwp = {p: max(floor, Fraction(points[p], 3 * rounds[p])) if rounds[p] else floor for p in order}
    gwp = {p: max(floor, Fraction(game_points[p], 3 * games[p])) if games[p] else floor for p in order}

    def average(values: dict[str, Fraction], player: str) -> Fraction:
        faced = opponents[player]
        return sum((values[o] for o in faced), Fraction(0)) / len(faced) if faced else floor

    lines = [(p, points[p], average(mwp, p), gwp[p], average(gwp, p)) for p in order]
    lines.sort(key=lambda line: (-line[1], -line[2], -line[3], -line[4], order.index(line[0])))
    return [(p, mp, om, gw, og, mwp[p]) for p, mp, om, gw, og in lines]


@functools.cache
def _swiss_event(players: int) -> Event:
    ev = event_with(players, top_cut=8)
    play_swiss(ev, 6, seed=players)
    return ev


@pytest.fixture(params=[64, 63], ids=["64-players", "63-players-with-byes"])
def swiss(request: Any) -> Event:
    return _swiss_event(request.param)


@pytest.fixture
def odd_swiss() -> Event:
    """The 63-player event: a bye every round."""
    return _swiss_event(63)


def test_appendix_e_gives_6_rounds_for_33_to_64_players(swiss: Event) -> None:
    """MTR Appendix E: 33-64 players play 6 Swiss rounds (fixed at round 1, recorded there)."""
    first = next(e for e in swiss.log if isinstance(e, RoundPaired))
    assert first.rounds_planned == 6 and swiss.state.rounds_planned == 6
    with pytest.raises(Exception) as refused:
        swiss.act(PairRound(seed=1))
    assert getattr(refused.value, "code", None) == "all_rounds_paired"


def test_no_two_players_meet_twice_in_the_swiss_rounds(swiss: Event) -> None:
    """Swiss pairing (MTR 10.4; the WotC Swiss pairing procedure): never the same opponent twice."""
    met: set[frozenset[str]] = set()
    for rnd in swiss.state.swiss_rounds:
        for table in rnd.tables:
            pair = frozenset(table.players)
            assert pair not in met, f"round {rnd.number}: {sorted(pair)} met before"
            met.add(pair)


def test_every_active_player_is_paired_or_has_the_bye_once(swiss: Event) -> None:
    """Every player plays each round or has the bye; at most one bye per player; a bye only
    when the count is odd."""
    players = set(swiss.state.players)
    byes: list[str] = []
    for rnd in swiss.state.swiss_rounds:
        seated = [p for t in rnd.tables for p in t.players]
        assert sorted(seated + list(rnd.byes)) == sorted(players)
        assert len(rnd.byes) == len(players) % 2
        byes.extend(rnd.byes)
    assert len(byes) == len(set(byes))
    assert len(byes) == (6 if len(players) % 2 else 0)


def test_pair_downs_are_minimal_no_two_tables_could_swap_partners_to_pair_closer(swiss: Event) -> None:
    """Players with equal points meet; pair-downs are as few as can be, then as small
    (docs/tournaments.md, Pairings). Measured as (pair-downs, sum of squared point differences),
    no two tables of any round could exchange partners, without a rematch, and do better."""
    log = swiss.log
    checked = 0
    for index, e in enumerate(log):
        if not isinstance(e, RoundPaired) or e.round == 1:
            continue
        before = tournament_state(log[:index])
        points = {line.player: line.match_points for line in standings(before)}
        met = {frozenset(t.players) for r in before.swiss_rounds for t in r.tables}
        pairs = [tuple(p["players"]) for p in e.pairings]

        def cost(*tables: tuple[str, str], points: dict[str, int] = points) -> tuple[int, int]:
            gaps = [points[x] - points[y] for x, y in tables]
            return sum(1 for g in gaps if g), sum(g * g for g in gaps)

        for (a, b), (c, d) in itertools.combinations(pairs, 2):
            now = cost((a, b), (c, d))
            for (w, x), (y, z) in (((a, c), (b, d)), ((a, d), (b, c))):
                if frozenset((w, x)) in met or frozenset((y, z)) in met:
                    continue
                assert cost((w, x), (y, z)) >= now, f"round {e.round}: {a}-{b}, {c}-{d} pair closer swapped"
                checked += 1
    assert checked > 1000


def test_the_bye_goes_to_the_lowest_ranked_player_without_one(odd_swiss: Event) -> None:
    """The bye: to the lowest-ranked player who has not had one (a player takes one at most)."""
    log = odd_swiss.log
    rounds = 0
    for index, e in enumerate(log):
        if not isinstance(e, RoundPaired):
            continue
        rounds += 1
        state = tournament_state(log[:index])
        had = {p for r in state.swiss_rounds for p in r.byes}
        eligible = [line.player for line in standings(state) if line.player not in had]
        assert e.byes == [eligible[-1]]
    assert rounds == 6


def test_standings_equal_an_independent_computation_of_the_tiebreakers(swiss: Event) -> None:
    """MTR 3.1 and Appendix C, computed again from the log by ``independent_standings``."""
    mine = [(s.player, s.match_points, s.omwp, s.gwp, s.ogwp, s.mwp) for s in standings(swiss.state)]
    assert mine == independent_standings(swiss.log)


def test_replaying_the_log_gives_the_same_state_and_the_same_pairings(swiss: Event) -> None:
    """The fold rebuilds the state; and each pairing, decided again on the state before it with
    the seed it recorded, comes out the same: the decision depends on the seed and nothing else."""
    assert tournament_state(swiss.log) == swiss.state
    for index, e in enumerate(swiss.log):
        if isinstance(e, RoundPaired):
            assert decide(tournament_state(swiss.log[:index]), PairRound(seed=e.seed)) == [e]


def test_a_different_seed_pairs_the_round_differently(swiss: Event) -> None:
    """The seed is what randomises pairings within a bracket."""
    first = next(i for i, e in enumerate(swiss.log) if isinstance(e, RoundPaired))
    state = tournament_state(swiss.log[:first])
    a, b = decide(state, PairRound(seed=1)), decide(state, PairRound(seed=2))
    assert isinstance(a[0], RoundPaired) and isinstance(b[0], RoundPaired)
    assert a[0].pairings != b[0].pairings


def test_the_top_8_is_seeded_1v8_4v5_2v7_3v6_and_runs_to_a_champion(swiss: Event) -> None:
    """Single elimination seeded from the Swiss standings: 1v8, 4v5, 2v7, 3v6; the winners of
    neighbouring matches meet (1 and 2 only in the final); MTR 2.10: no dropped player is seeded."""
    ev = Event(state=swiss.state, log=list(swiss.log))
    top8 = [s.player for s in standings(ev.state)][:8]
    cut = ev.act(PairTopCut())[0]
    assert isinstance(cut, TopCutPaired) and cut.cut == 8 and cut.seeds == top8
    seed_of = {p: i + 1 for i, p in enumerate(top8)}
    assert [[seed_of[p] for p in t["players"]] for t in cut.pairings] == [[1, 8], [4, 5], [2, 7], [3, 6]]
    rng = random.Random(8)
    ev.report_all(rng)
    winners = [t.winner() for t in ev.state.rounds[-1].tables]
    semis = ev.act(PairTopCut())[0]
    assert isinstance(semis, TopCutPaired) and semis.cut == 4
    assert [set(t["players"]) for t in semis.pairings] == [set(winners[:2]), set(winners[2:])]
    for t in semis.pairings:  # the higher seed takes the first seat
        assert seed_of[t["players"][0]] < seed_of[t["players"][1]]
    ev.report_all(rng)
    final = ev.act(PairTopCut())[0]
    assert isinstance(final, TopCutPaired) and final.cut == 2
    ev.report_all(rng)
    champion = ev.state.champion
    assert champion is not None and champion in final.pairings[0]["players"]
    with pytest.raises(Exception) as refused:
        ev.act(PairTopCut())
    assert getattr(refused.value, "code", None) == "top_cut_finished"
    assert tournament_state(ev.log) == ev.state
    # The cut doesn't move the Swiss standings (they rank the Swiss rounds only).
    assert standings(ev.state) == standings(swiss.state)
