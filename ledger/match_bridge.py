"""One result per match (issue 38): the older matches model (``/v1/events/{e}/rounds/{r}/tables/
{t}``, ``projections.matches``) answers a tournament's match from the tournament's one result.

A tournament's games are tagged with its id as their event, so the matches read model keeps a
document for each of its matches, and it used to derive a second result there (a scorekeeper's
``…/result`` entry, the players' ``…/confirm``, a penalty's Match Loss). For an event that is a
tournament the v1 reads now show the tournament's result (``source: "tournament"``) or none yet
(the games' score, ``complete: false``), and the v1 writes go to the tournament (``api.routes.
matches``), so the two results.csv files can't disagree. Other events keep the old model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.tournament import TournamentState
from domain.tournament.state import Table
from projections.matches import match_out, result_row


def tournament_table(state: TournamentState, round: str, table: str) -> Table | None:
    """The tournament's table for v1's text round and table (``None``: no such table)."""
    if not (round.isdigit() and table.isdigit()):
        return None
    rnd = state.round(int(round))
    return rnd.table(int(table)) if rnd is not None else None


def _as_tournament(doc: Mapping[str, Any], table: Table | None) -> dict[str, Any]:
    """The document with the tournament's result as its only report."""
    entered = None
    if table is not None and table.result is not None:
        wins = dict(zip(table.players, table.result.games, strict=True))
        entered = {"wins": wins, "draws": table.result.draws, "by": {"name": "tournament", "role": "ledger"}}
    return {**doc, "entered": entered, "match_loss": None, "confirmations": {}, "intentional_draw": []}


def _final(result: dict[str, Any], table: Table | None) -> dict[str, Any]:
    if table is not None and table.result is not None:
        return {**result, "source": "tournament", "confirmed": True, "complete": True}
    # No tournament result yet: the games' score, never a result of its own.
    return {**result, "winner": None, "draw": False, "complete": False, "confirmed": False, "source": "games"}


def bridged_match(doc: Mapping[str, Any], table: Table | None) -> dict[str, Any]:
    """``projections.matches.match_out`` of a tournament's match: its result is the tournament's."""
    out = match_out(_as_tournament(doc, table))
    out.update(
        match_loss=doc["match_loss"], confirmations=doc["confirmations"], intentional_draw=doc["intentional_draw"]
    )
    out["result"] = _final(out["result"], table)
    return out


def bridged_row(doc: Mapping[str, Any], table: Table | None) -> dict[str, Any]:
    """``projections.matches.result_row`` of a tournament's match."""
    row = result_row(_as_tournament(doc, table))
    if table is None or table.result is None:
        row.update(result="", complete=False, confirmed=False)
    return row
