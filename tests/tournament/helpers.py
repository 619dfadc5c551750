"""A small driver for tournament tests: decide, append, fold, like the service will."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from domain.tournament import (
    CreateEvent,
    PairRound,
    RegisterPlayer,
    ReportResult,
    TournamentCommand,
    TournamentEvent,
    TournamentState,
    decide,
    evolve,
    tournament_state,
)
from domain.tournament.state import COMMANDER


@dataclass
class Event:
    """An event under test: its log, the state folded from it, and a seeded dice for results."""

    state: TournamentState = field(default_factory=TournamentState)
    log: list[TournamentEvent] = field(default_factory=list)

    def act(self, command: TournamentCommand) -> list[TournamentEvent]:
        events = decide(self.state, command)
        for event in events:
            self.state = evolve(self.state, event)
        self.log.extend(events)
        return events

    def replayed(self) -> TournamentState:
        return tournament_state(self.log)

    def report_all(self, rng: random.Random) -> None:
        """Report every open table of the current round with random results."""
        rnd = self.state.current_round
        assert rnd is not None
        commander = self.state.settings is not None and self.state.settings.kind == COMMANDER
        for table in rnd.tables:
            if table.result is not None:
                continue
            self.act(
                ReportResult(round=rnd.number, table=table.number, **random_result(rng, len(table.players), commander))
            )


def random_result(rng: random.Random, seats: int, commander: bool) -> dict[str, object]:
    """A plausible result: best-of-three scores (with the odd drawn game) or a pod's one game."""
    if commander:
        if rng.random() < 0.1:
            return {"games": (0,) * seats, "draws": 1}
        winner = rng.randrange(seats)
        return {"games": tuple(1 if i == winner else 0 for i in range(seats)), "draws": 0}
    score = rng.choice([(2, 0), (2, 1), (0, 2), (1, 2), (1, 1), (2, 0), (0, 2), (1, 0)])
    draws = 1 if score in ((1, 1), (1, 0)) else 0
    return {"games": score, "draws": draws}


def event_with(
    players: int, *, kind: str = "two_player", rounds: int | None = None, top_cut: int | None = None
) -> Event:
    ev = Event()
    ev.act(CreateEvent(name="Test Open", format="Modern", kind=kind, rounds=rounds, top_cut=top_cut))
    for i in range(1, players + 1):
        ev.act(RegisterPlayer(player=f"p{i:02d}", name=f"Player {i}"))
    return ev


def play_swiss(ev: Event, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(rounds):
        ev.act(PairRound(seed=rng.randrange(2**32)))
        ev.report_all(rng)
