"""Standings after the Swiss rounds so far: match points, then the MTR's tiebreakers.

MTR 3.1 orders players by (1) match points, (2) opponents' match-win percentage, (3) game-win
percentage, (4) opponents' game-win percentage, defined in MTR Appendix C:

- match points: 3 a win, 1 a draw, 0 a loss; a bye is a won match (2-0: 3 match points, 6 game
  points); the event's ``win_points``/``draw_points`` replace 3/1 (Commander points modes);
- game points: 3 a game won, 1 a game drawn (an unfinished game is a draw), 0 a game lost;
- match-win percentage: match points / the points possible in the rounds played (3 x rounds),
  at least 0.33 ("If this number is lower than 0.33, use 0.33 instead"); Appendix C's own
  example counts a bye among the rounds (3-2-0 with a bye: 9 / (5 x 3) = 0.60);
- game-win percentage: game points / 3 x games played, at least 0.33;
- opponents' match-win (game-win) percentage: the average of each opponent's match-win
  (game-win) percentage, ignoring the rounds of the player's byes (Appendix C, Byes); a player
  who dropped still counts as an opponent, with the percentage of the rounds they played.

Percentages are exact ``Fraction``s so that equal records tie exactly and tests can assert the
values Appendix C's arithmetic gives. Conventions where the MTR is silent (docs/rules.md):
a late entrant's missed round is a 0-2 match loss with no opponent; a player with no opponent
yet has opponents' percentages of 0.33, the least an opponent can count for; players tied on
all four are ordered by registration. Only Swiss rounds count: the top cut is ranked by the
bracket, not here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from domain.tournament.state import COMMANDER, SWISS, Round, TournamentState

FLOOR = Fraction(33, 100)
"""MTR Appendix C's minimum match-win and game-win percentage: 0.33 exactly (not 1/3)."""
GAME_WIN_POINTS = 3
GAME_DRAW_POINTS = 1


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What one Swiss round gave one player."""

    round: int
    match_points: int
    game_points: int
    games: int
    """Games played (won, lost and drawn) in the match."""
    opponents: tuple[str, ...]
    """Empty for a bye or a missed round (they count for no opponent's percentages)."""
    outcome: str
    """``win``, ``loss``, ``draw``, ``bye`` or ``missed``."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    """1 is first."""
    player: str
    name: str
    match_points: int
    wins: int
    """Match wins, byes included (a bye is a won match, MTR Appendix C)."""
    losses: int
    draws: int
    byes: int
    mwp: Fraction
    """Match-win percentage (floored at 0.33)."""
    omwp: Fraction
    """Opponents' match-win percentage."""
    gwp: Fraction
    """Game-win percentage (floored at 0.33)."""
    ogwp: Fraction
    """Opponents' game-win percentage."""
    dropped: bool
    rounds: int
    """Rounds on the record (byes and missed rounds included)."""


def round_records(state: TournamentState) -> dict[str, list[RoundRecord]]:
    """Every player's record, round by round, from the Swiss rounds' reported results.

    A match without a result yet is left out (the standings of a round in play)."""
    settings = state.settings
    assert settings is not None  # nothing is paired before EventCreated
    commander = settings.kind == COMMANDER
    # A missed round and a bye are recorded as if a match of the event's length was played:
    # 0-2 and 2-0 for best-of-three (MTR Appendix C: a bye is a 2-0 win), one game in a pod.
    unplayed_games = 1 if commander else 2
    records: dict[str, list[RoundRecord]] = {key: [] for key in state.players}
    for key, entry in state.players.items():
        for number in range(1, entry.missed_rounds + 1):
            records[key].append(RoundRecord(number, 0, 0, unplayed_games, (), "missed"))
    for rnd in state.rounds:
        if rnd.stage != SWISS:
            continue
        _add_round(records, rnd, settings.win_points, settings.draw_points, unplayed_games)
    return records


def _add_round(records: dict[str, list[RoundRecord]], rnd: Round, win: int, draw: int, unplayed_games: int) -> None:
    for key in rnd.byes:
        records[key].append(RoundRecord(rnd.number, win, GAME_WIN_POINTS * unplayed_games, unplayed_games, (), "bye"))
    for table in rnd.tables:
        result = table.result
        if result is None:
            continue
        winner = result.winner_seat()
        played = sum(result.games) + result.draws
        for seat, key in enumerate(table.players):
            if winner is None:
                points, outcome = draw, "draw"
            elif winner == seat:
                points, outcome = win, "win"
            else:
                points, outcome = 0, "loss"
            game_points = GAME_WIN_POINTS * result.games[seat] + GAME_DRAW_POINTS * result.draws
            opponents = tuple(p for p in table.players if p != key)
            records[key].append(RoundRecord(rnd.number, points, game_points, played, opponents, outcome))


def match_win_percentage(records: Iterable[RoundRecord], win_points: int) -> Fraction:
    """MTR Appendix C: match points / (win points x rounds), at least 0.33."""
    rows = list(records)
    if not rows:
        return FLOOR
    return max(FLOOR, Fraction(sum(r.match_points for r in rows), win_points * len(rows)))


def game_win_percentage(records: Iterable[RoundRecord]) -> Fraction:
    """MTR Appendix C: game points / (3 x games played), at least 0.33."""
    rows = list(records)
    games = sum(r.games for r in rows)
    if games == 0:
        return FLOOR
    return max(FLOOR, Fraction(sum(r.game_points for r in rows), GAME_WIN_POINTS * games))


def _opponents_average(opponents: list[str], values: Mapping[str, Fraction]) -> Fraction:
    if not opponents:
        return FLOOR
    return sum((values[o] for o in opponents), Fraction(0)) / len(opponents)


def standings(state: TournamentState) -> tuple[Standing, ...]:
    """The standings after the Swiss results reported so far (MTR 3.1, Appendix C).

    Players who dropped before playing a round are left out (MTR 2.10: they are considered not
    to have participated); players who dropped later stay, and count as their opponents'
    opponents."""
    settings = state.settings
    if settings is None:
        return ()
    records = round_records(state)
    win_points = settings.win_points
    mwp = {key: match_win_percentage(rows, win_points) for key, rows in records.items()}
    gwp = {key: game_win_percentage(rows) for key, rows in records.items()}
    lines = []
    for key, rows in records.items():
        entry = state.players[key]
        if not rows and not entry.active:
            continue
        opponents = [o for r in rows for o in r.opponents]
        outcomes = [r.outcome for r in rows]
        lines.append(
            Standing(
                rank=0,
                player=key,
                name=entry.name,
                match_points=sum(r.match_points for r in rows),
                wins=outcomes.count("win") + outcomes.count("bye"),
                losses=outcomes.count("loss") + outcomes.count("missed"),
                draws=outcomes.count("draw"),
                byes=outcomes.count("bye"),
                mwp=mwp[key],
                omwp=_opponents_average(opponents, mwp),
                gwp=gwp[key],
                ogwp=_opponents_average(opponents, gwp),
                dropped=not entry.active,
                rounds=len(rows),
            )
        )
    lines.sort(key=lambda s: (-s.match_points, -s.omwp, -s.gwp, -s.ogwp, state.players[s.player].index))
    return tuple(dataclasses.replace(line, rank=i + 1) for i, line in enumerate(lines))
