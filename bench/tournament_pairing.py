"""Pairing one Swiss round of a 2,000-player event (a benchmark, not a test; issue 31's goal:
under 2 s).

It registers ``--players`` players, plays ``--history`` rounds with seeded random results
through the kernel, then times ``decide(state, PairRound(seed))`` on the state before each of
the next rounds, ``--repeat`` times each with a different seed: the whole decision (standings
for the bye, the entrants' histories, the networkx matching of every block), as the service
would run it. Round 1 (one bracket of everyone) and a later round (many brackets and a history
of opponents) are both timed. CPU time (``time.process_time``) is reported beside the wall
clock, since the machines are shared.

    .venv/bin/python bench/tournament_pairing.py [--players 2000] [--history 3] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.getcwd())

from domain.tournament import (
    CreateEvent,
    PairRound,
    RegisterPlayer,
    ReportResult,
    TournamentEvent,
    TournamentState,
    decide,
    evolve,
)

SCORES = [(2, 0), (2, 1), (0, 2), (1, 2), (2, 0), (0, 2), (1, 1)]


def _apply(state: TournamentState, events: list[TournamentEvent]) -> TournamentState:
    for event in events:
        state = evolve(state, event)
    return state


def build(players: int) -> TournamentState:
    state = TournamentState()
    state = _apply(state, decide(state, CreateEvent(name="Bench Open", format="Modern")))
    for i in range(players):
        state = _apply(state, decide(state, RegisterPlayer(player=f"p{i:05d}", name=f"Player {i}")))
    return state


def play_round(state: TournamentState, rng: random.Random) -> TournamentState:
    state = _apply(state, decide(state, PairRound(seed=rng.randrange(2**32))))
    rnd = state.current_round
    assert rnd is not None
    for table in rnd.tables:
        games = rng.choice(SCORES)
        command = ReportResult(round=rnd.number, table=table.number, games=games, draws=1 if games == (1, 1) else 0)
        state = _apply(state, decide(state, command))
    return state


def time_pairing(state: TournamentState, repeat: int, rng: random.Random) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(repeat):
        seed = rng.randrange(2**32)
        wall, cpu = time.perf_counter(), time.process_time()
        decide(state, PairRound(seed=seed))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--history", type=int, default=3, help="rounds played before the later round timed")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(2026)
    state = build(args.players)
    print(f"{args.players} players, pairing timed {args.repeat} times per round (seconds)")
    print(f"{'round':>6} {'wall median':>12} {'wall max':>9} {'cpu median':>11}")
    timed = [1, args.history + 1]
    for number in range(1, max(timed) + 1):
        if number in timed:
            walls, cpus = time_pairing(state, args.repeat, rng)
            print(f"{number:>6} {statistics.median(walls):>12.3f} {max(walls):>9.3f} {statistics.median(cpus):>11.3f}")
        state = play_round(state, rng)


if __name__ == "__main__":
    main()
