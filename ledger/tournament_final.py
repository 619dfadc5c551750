"""The additive parts of the tournament's views that follow the event's progress (issue 38):
the stage and the actions valid now (``domain.tournament.progress``), the top-cut bracket and,
once the cut has begun, the final standings ranked by the bracket's outcome (docs/rules.md,
Final standings after a top cut). Names only, as in the public view."""

from __future__ import annotations

from typing import Any

from domain.errors import Code, NotFound
from domain.tournament import TournamentState
from domain.tournament.progress import final_placings, progress


def progress_json(state: TournamentState) -> dict[str, Any]:
    found = progress(state)
    return {"stage": found.stage, "actions": list(found.actions), "swiss_complete": found.swiss_complete}


def bracket_json(state: TournamentState) -> list[dict[str, Any]]:
    """The playoff rounds, first to last: each match's names (higher seed first), games won by
    seat and the winner's name once reported."""
    names = {p.key: p.name for p in state.players.values()}
    rounds = []
    for rnd in state.top_cut_rounds:
        tables = []
        for table in rnd.tables:
            winner = table.winner()
            tables.append(
                {
                    "table": table.number,
                    "names": [names[p] for p in table.players],
                    "wins": None if table.result is None else list(table.result.games),
                    "winner": None if winner is None else names[winner],
                }
            )
        rounds.append({"round": rnd.number, "cut": rnd.cut, "tables": tables})
    return rounds


def final_standings_json(state: TournamentState) -> list[dict[str, Any]]:
    """Empty until the top cut is paired; then every player, placed (``reached``: the last
    playoff round's size, 1 for the champion, ``None`` outside the cut)."""
    if not state.top_cut_rounds:
        return []
    return [
        {
            "place": p.place,
            "name": p.standing.name,
            "points": p.standing.match_points,
            "matches": f"{p.standing.wins}-{p.standing.losses}-{p.standing.draws}",
            "reached": p.reached,
            "dropped": p.standing.dropped,
        }
        for p in final_placings(state)
    ]


def public_progress_json(state: TournamentState) -> dict[str, Any]:
    """What the public view adds: the stage, the champion's name, the bracket, the final standings."""
    champion = state.champion
    found = progress(state)
    return {
        "stage": found.stage,
        "swiss_complete": found.swiss_complete,
        "champion": None if champion is None else state.players[champion].name,
        "bracket": bracket_json(state),
        "final_standings": final_standings_json(state),
    }


def page_of(ids: list[str], limit: int | None, after: str | None) -> tuple[list[str], str | None]:
    """The ids after the id ``after`` (a ``NotFound`` when ``ids`` lacks it), at most ``limit``,
    and the ``after`` of the next page (``None``: none follows)."""
    start = 0
    if after is not None:
        if after not in ids:
            raise NotFound(f"no tournament {after!r} to page after", Code.UNKNOWN_TOURNAMENT)
        start = ids.index(after) + 1
    page = ids[start:] if limit is None else ids[start : start + limit]
    more = limit is not None and start + limit < len(ids)
    return page, (page[-1] if more and page else None)
