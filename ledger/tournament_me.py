"""An event link's own view (``GET /v1/tournaments/{tid}/me``; docs/tournaments.md, The player's
link): the player, their status, the round and their match in it (table, opponents, the game to
play now) and their matches so far, so the page the link opens follows the player from game to
game and round to round.

A pure rendering of the tournament's state and the matches' game ids (``TableExtras``): nothing
here reads or writes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from domain.tournament.state import TOP_CUT, Round, Table, TournamentState
from ledger.tournament_views import RoundExtras, TableExtras, clock_json, player_json, result_json, table_status


def match_json(state: TournamentState, rnd: Round, table: Table, player: str, extras: TableExtras) -> dict[str, Any]:
    """The player's match at ``table`` of ``rnd``: the opponents, the games, the game to play."""
    games = list(extras.games)
    return {
        "round": rnd.number,
        "top_cut": rnd.stage == TOP_CUT,
        "table": table.number,
        "opponents": [{"player_id": p, "name": state.players[p].name} for p in table.players if p != player],
        "status": table_status(table, extras),
        "result": result_json(table),
        "games": games,
        "game_id": games[-1] if games else None,
    }


def me_json(
    tournament_id: str,
    state: TournamentState,
    version: int,
    player: str,
    extras: Mapping[int, RoundExtras],
    now: datetime,
) -> dict[str, Any]:
    """The view: ``extras`` holds the game ids of the rounds the player is paired in."""
    settings = state.settings
    assert settings is not None  # a loaded tournament was created
    matches = []
    for rnd in state.rounds:
        table = rnd.table_of(player)
        if table is not None:
            known = extras.get(rnd.number, RoundExtras()).tables.get(table.number, TableExtras())
            matches.append(match_json(state, rnd, table, player, known))
    current = state.current_round
    playing = [m for m in matches if current is not None and m["round"] == current.number]
    return {
        "tournament_id": tournament_id,
        "name": settings.name,
        "version": version,
        "player": player_json(state, player),
        "round": current.number if current is not None else None,
        "clock": clock_json(current, now),
        "match": playing[0] if playing else None,
        "bye": current is not None and player in current.byes,
        "matches": matches,
    }
