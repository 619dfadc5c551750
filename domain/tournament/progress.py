"""Where an event stands and what may be done next (issue 38, item 11), and its final placings
(item 13): pure functions of the tournament's state, so the pages show only what ``decide``
would accept now instead of offering a button that is bound to be refused.

``progress(state)`` mirrors the checks of ``decide`` (pairing, registration, the round clock);
``tests/domain/test_tournament_progress.py`` sends every offered action to ``decide`` over whole
events and checks that none is refused, and that the ones left out are.

``final_placings(state)`` ranks the players once the top cut has begun: the players still in the
bracket first, then those knocked out in a later playoff round before those knocked out in an
earlier one, each group in Swiss order; then everyone else by the Swiss standings (MTR 10.4 pairs
the playoff by the final Swiss standings; the MTR gives no placings for the playoff's losers, so
the convention is docs/rules.md's, "Final standings after a top cut").
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.tournament.standings import Standing, standings
from domain.tournament.state import TournamentState

REGISTRATION = "registration"
"""No round paired yet: players register, round 1 may be paired."""
SWISS = "swiss"
"""The Swiss rounds are under way."""
SWISS_DONE = "swiss_finished"
"""Every Swiss round has its results; a top cut is still to be paired."""
TOP_CUT = "top_cut"
FINISHED = "finished"
"""Nothing is left to pair: the final is decided, or the last Swiss round is in and there is no cut."""


@dataclass(frozen=True, slots=True)
class Progress:
    stage: str
    actions: tuple[str, ...]
    """The scorekeeper's actions ``decide`` accepts now, by name (docs/api.md, Tournaments):
    ``register``, ``pair_round``, ``pair_top_cut``, ``start_clock``, ``pause_clock``,
    ``resume_clock``, ``end_round``, ``drop``, ``report_results``."""
    swiss_complete: int
    """Swiss rounds whose every result is in: what "Swiss standings after round N" names."""


def progress(state: TournamentState) -> Progress:
    settings = state.settings
    assert settings is not None  # a loaded tournament was created
    swiss = state.swiss_rounds
    cut = state.top_cut_rounds
    current = state.current_round
    open_round = current is not None and not current.complete
    planned = state.rounds_planned
    swiss_over = planned is not None and len(swiss) >= planned
    actions: list[str] = []
    if not cut and not swiss_over:
        actions.append("register")
    if not cut and not swiss_over and not open_round and len(state.active_players()) >= 2:
        actions.append("pair_round")
    final_played = bool(cut) and cut[-1].cut == 2 and cut[-1].complete
    if settings.top_cut is not None and swiss_over and not open_round and not final_played:
        actions.append("pair_top_cut")
    if current is not None:
        clock = current.clock
        if clock.started_at is None:
            actions.append("start_clock")
        elif clock.ended_at is None:
            actions.append("resume_clock" if clock.paused_at is not None else "pause_clock")
            actions.append("end_round")
    if open_round:
        actions.append("report_results")
    if any(p.active for p in state.players.values()) and not final_played:
        actions.append("drop")
    if current is None:
        stage = REGISTRATION
    elif cut:
        stage = FINISHED if final_played else TOP_CUT
    elif swiss_over and not open_round:
        stage = SWISS_DONE if settings.top_cut is not None else FINISHED
    else:
        stage = SWISS
    complete = sum(1 for r in swiss if r.complete)
    return Progress(stage=stage, actions=tuple(actions), swiss_complete=complete)


@dataclass(frozen=True, slots=True)
class Placing:
    place: int
    standing: Standing
    reached: int | None
    """The size of the last playoff round the player was in (8, 4, 2; 1 for the champion);
    ``None`` outside the top cut."""


def final_placings(state: TournamentState) -> list[Placing]:
    """The players' final order (module docstring): the bracket's outcome, then the Swiss order."""
    lines = standings(state)
    reached: dict[str, int] = {}
    for rnd in state.top_cut_rounds:
        for table in rnd.tables:
            for player in table.players:
                reached[player] = rnd.cut or len(rnd.tables) * 2
            winner = table.winner()
            if rnd.cut == 2 and winner is not None:
                reached[winner] = 1
    swiss_order = {line.player: i for i, line in enumerate(lines)}
    ordered = sorted(
        lines,
        key=lambda line: (reached.get(line.player, 10**6), swiss_order[line.player]),
    )
    return [Placing(place=i + 1, standing=line, reached=reached.get(line.player)) for i, line in enumerate(ordered)]
