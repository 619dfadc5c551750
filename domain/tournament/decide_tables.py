"""The decisions on one table of a round beyond its result: featuring it, and whether its match
may have another game (MTR 2.1) given the games it has had so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.errors import Code as TC
from domain.tournament.commands import FeatureTable
from domain.tournament.errors import refuse
from domain.tournament.events import TableFeatured, TournamentEvent
from domain.tournament.lookups import round_of, settings_of, table_of
from domain.tournament.state import COMMANDER, TournamentState


@dataclass(frozen=True, slots=True)
class GameSoFar:
    """One game of a match as its own log tells it: finished or not, and who won it."""

    finished: bool
    winners: tuple[str, ...] = ()


def feature(state: TournamentState, c: FeatureTable) -> list[TournamentEvent]:
    rnd = round_of(state, c.round)
    table = table_of(rnd, c.table)
    if not isinstance(c.featured, bool):
        raise refuse(f"featured must be true or false, got {c.featured!r}", TC.INVALID_COMMAND)
    if table.featured == c.featured:
        # A repeated click stores nothing: the record says only what changed.
        word = "featured" if c.featured else "not featured"
        raise refuse(f"round {rnd.number} table {table.number} is already {word}", TC.TABLE_ALREADY_FEATURED)
    return [TableFeatured(round=rnd.number, table=table.number, featured=c.featured)]


def next_game_number(state: TournamentState, round: int, table: int, games: Sequence[GameSoFar]) -> int:
    """The number of the match's next game (``len(games) + 1``), or a refusal: the match has a
    result, a game is still being played, a player has won the games needed, or every game of
    the best-of-N has been played (MTR 2.1; a Commander pod plays one game)."""
    settings = settings_of(state)
    rnd = round_of(state, round)
    found = table_of(rnd, table)
    where = f"round {rnd.number} table {found.number}"
    if found.result is not None:
        raise refuse(f"{where} has a result: the match is over", TC.MATCH_ALREADY_REPORTED)
    best_of = 1 if settings.kind == COMMANDER else settings.best_of
    if len(games) >= best_of:
        raise refuse(f"{where} has had {len(games)} of its best-of-{best_of} games", TC.ALL_GAMES_PLAYED)
    if games and not games[-1].finished:
        raise refuse(f"game {len(games)} of {where} has not finished", TC.PREVIOUS_GAME_NOT_OVER)
    for player in found.players:
        won = sum(1 for g in games if g.winners == (player,))
        if won >= settings.wins_needed:
            raise refuse(
                f"{player!r} has won {won} games of {where}: the match is decided (MTR 2.1); report it",
                TC.MATCH_DECIDED,
            )
    return len(games) + 1
