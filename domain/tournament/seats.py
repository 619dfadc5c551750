"""The seat of a tournament's player in a game of the event (``domain.seats.Seat``): pure lookups
of the tournament's state, which knows each round's tables and their players, and names each
table's games ``<tournament>.r<round>.t<table>.g<n>`` (``domain.tournament.match_games``).

A game whose id merely starts with ``<tournament>.`` (created outside the event), a game of
another table, or of a table the player is not at, gives no seat: an event link acts only where
its player is seated (``domain.permissions.seat_refusal``).
"""

from __future__ import annotations

import re

from domain.seats import Seat
from domain.tournament.match_games import MAX_GAMES, game_id_of
from domain.tournament.state import Round, Table, TournamentState

GAME_ID = re.compile(r"(?P<event>.+)\.r(?P<round>[0-9]{1,4})\.t(?P<table>[0-9]{1,6})\.g(?P<game>[0-9])")


def seat_of(tournament_id: str, state: TournamentState, player: str, game_id: str) -> Seat | None:
    """``player``'s seat in ``game_id``, or ``None`` when the game is not one of the event's
    games at a table the player was paired at."""
    found = GAME_ID.fullmatch(game_id)
    if found is None or found["event"] != tournament_id:
        return None
    rnd = state.round(int(found["round"]))
    table = rnd.table(int(found["table"])) if rnd is not None else None
    number = int(found["game"])
    if rnd is None or table is None or player not in table.players or not 1 <= number <= MAX_GAMES:
        return None
    if game_id != game_id_of(tournament_id, rnd.number, table.number, number):
        return None  # "r01" is not round 1's game: the event creates no such id
    return _seat(tournament_id, state, player, rnd, table, game_id)


def _seat(tournament_id: str, state: TournamentState, player: str, rnd: Round, table: Table, game_id: str) -> Seat:
    entry = state.players.get(player)
    dropped = entry is None or not entry.active
    return Seat(tournament_id, game_id, rnd.number, table.number, table.players, player, dropped)


def current_table(state: TournamentState, player: str) -> tuple[Round, Table] | None:
    """The latest round's table the player is paired at, or ``None`` (not paired in it: a bye,
    out of the cut, dropped before it, or no round paired yet)."""
    rnd = state.current_round
    table = rnd.table_of(player) if rnd is not None else None
    return (rnd, table) if rnd is not None and table is not None else None
