"""The games a tournament's decision asks for: typed create commands, never dicts parsed again.

Pairing a round (``PairRound``, ``PairTopCut``) decides the tables; each table's match is played
as games of the game vocabulary. What those games are is a pure function of the tournament's
state, so it lives here: ``round_games`` gives one ``MatchGame`` per table (its id and its
``GameCreateBody``), and the ledger runs them in one place (``ledger.tournament_service``,
``ledger.partitions.Partitions.create_games``), never by calling back up the stack.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.commands.bodies.create import GameCreateBody, PlayerSetup, TournamentSetup
from domain.tournament.state import COMMANDER, Round, Table, TournamentState

MAX_GAMES = 5
"""The most games a match has (best of five)."""
POD_DECK_SIZE = 99
"""A Commander pod's decks as its multiplayer games track them: the 100 cards less the commander,
who starts in the command zone (CR 903.5a, 903.6): 92 in the library and 7 in hand."""
POD_LIFE = 40
"""A Commander game's starting life (CR 903.7)."""


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game to create: its id and what it starts as."""

    game_id: str
    body: GameCreateBody


def game_id_of(tournament_id: str, round: int, table: int, game: int = 1) -> str:
    """The id of a match's ``game``-th game: ``<tournament>.r<round>.t<table>.g<game>``."""
    return f"{tournament_id}.r{round}.t{table}.g{game}"


def match_game(tournament_id: str, state: TournamentState, rnd: Round, table: Table, number: int = 1) -> MatchGame:
    """The ``number``-th game of a table's match: the table's players under their tournament
    ids and names, tagged with the event, round, table, REL and best-of.

    A Commander game needs each player's commander at creation (CR 903.3), which the tournament
    doesn't know: a pod's game is a multiplayer game at Commander's 40 life (CR 903.7;
    docs/tournaments.md, Commander pods). Every game starts as at the table (no library given:
    an unknown library and an unknown hand of seven); a pod's decks hold 99 cards besides the
    commander, who waits in the command zone untracked (CR 903.5a)."""
    settings = state.settings
    assert settings is not None, "a paired tournament was created"
    pod = settings.kind == COMMANDER
    players = [PlayerSetup(id=p, name=state.players[p].name, life=POD_LIFE if pod else None) for p in table.players]
    body = GameCreateBody(
        variant="multiplayer" if pod else "two_player",
        deck_size=POD_DECK_SIZE if pod else None,
        tournament=TournamentSetup(
            event=tournament_id,
            round=rnd.number,
            table=table.number,
            # The games know MTR 1.12's names; the API's `casual` is Regular REL.
            rel="regular" if settings.rel == "casual" else settings.rel,  # type: ignore[arg-type]
            best_of=settings.best_of,  # type: ignore[arg-type]
        ),
        players=players,
    )
    return MatchGame(game_id_of(tournament_id, rnd.number, table.number, number), body)


def round_games(tournament_id: str, state: TournamentState, round_number: int) -> tuple[MatchGame, ...]:
    """The first game of every table of the round, in table order."""
    rnd = state.rounds[round_number - 1]
    return tuple(match_game(tournament_id, state, rnd, table) for table in rnd.tables)
