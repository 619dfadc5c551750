"""What the tournament's readers see: the scorekeeper's view, the standings, the round clock and
the public view (docs/api.md, Tournaments), built from the folded state at read time.

Nothing here is stored: the remaining time is computed from the clock's events and the time of
the read, the standings from the results (``domain.tournament.standings``), the per-table time
extensions from the judges' ``TimeExtended`` events in the games (the matches read model).
Percentages are numbers from 0 to 1 rounded to 4 places; rounds and tables are integers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from domain.tournament import Standing, TournamentState, standings
from domain.tournament.progress import progress
from domain.tournament.state import TOP_CUT, Round, RoundClock, Table
from ledger.tournament_final import progress_json, public_progress_json

TURNS_AFTER_TIME = 5
"""MTR 2.5: at the end of the round the active player finishes their turn, then five more turns."""


@dataclass(frozen=True, slots=True)
class TableExtras:
    """What the games of one match add to its table: their ids and the judges' extensions."""

    games: tuple[str, ...] = ()
    extension_minutes: int = 0


@dataclass(frozen=True, slots=True)
class RoundExtras:
    """Per table number, what the matches read model knows of a round's games."""

    tables: Mapping[int, TableExtras] = field(default_factory=dict)


def percent(value: Fraction) -> float:
    return round(float(value), 4)


def standing_json(line: Standing) -> dict[str, Any]:
    return {
        "rank": line.rank,
        "player_id": line.player,
        "name": line.name,
        "points": line.match_points,
        "matches": f"{line.wins}-{line.losses}-{line.draws}",
        "omw": percent(line.omwp),
        "gw": percent(line.gwp),
        "ogw": percent(line.ogwp),
        "dropped": line.dropped,
        "rounds": line.rounds,
    }


def standings_json(state: TournamentState) -> list[dict[str, Any]]:
    return [standing_json(line) for line in standings(state)]


def result_json(table: Table) -> dict[str, Any] | None:
    if table.result is None:
        return None
    return {
        "wins": dict(zip(table.players, table.result.games, strict=True)),
        "draws": table.result.draws,
        "intentional_draw": table.result.intentional,
    }


def table_status(table: Table, extras: TableExtras) -> str:
    if table.result is not None:
        return "reported"
    # A featured table stays `featured` while extended: the floor watches it either way.
    if table.featured:
        return "featured"
    return "extended" if extras.extension_minutes > 0 else "pending"


def table_json(state: TournamentState, table: Table, extras: TableExtras) -> dict[str, Any]:
    return {
        "table": table.number,
        "players": list(table.players),
        "names": [state.players[p].name for p in table.players],
        "status": table_status(table, extras),
        "result": result_json(table),
        "corrections": table.corrections,
        "games": list(extras.games),
        "extension_minutes": extras.extension_minutes,
        "featured": table.featured,
    }


def round_json(state: TournamentState, rnd: Round, extras: RoundExtras | None = None) -> dict[str, Any]:
    known = extras.tables if extras is not None else {}
    return {
        "round": rnd.number,
        "top_cut": rnd.stage == TOP_CUT,
        "seed": rnd.seed,
        "cut": rnd.cut,
        "tables": [table_json(state, t, known.get(t.number, TableExtras())) for t in rnd.tables],
        "byes": list(rnd.byes),
    }


def _stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def clock_json(rnd: Round | None, now: datetime) -> dict[str, Any] | None:
    """The round clock as read at ``now``: its state, end and remaining seconds (negative past
    time), and the MTR 2.5 turns after time."""
    if rnd is None:
        return None
    clock: RoundClock = rnd.clock
    if clock.started_at is None or clock.minutes is None:
        state, ends_at, remaining = "not_started", None, None
    else:
        left = clock.remaining(now)
        assert left is not None  # started, with its minutes
        state = "ended" if clock.ended_at else "paused" if clock.paused_at else "running"
        paused = clock.paused_for + (now - clock.paused_at if clock.paused_at is not None else timedelta(0))
        ends_at = clock.started_at + timedelta(minutes=clock.minutes) + paused
        remaining = int(left.total_seconds())
    return {
        "round": rnd.number,
        "state": state,
        "minutes": clock.minutes,
        "started_at": _stamp(clock.started_at),
        "ends_at": _stamp(ends_at) if state in ("running", "paused") else _stamp(clock.ended_at),
        "remaining_seconds": remaining,
        "turns_after_time": TURNS_AFTER_TIME,
    }


def player_json(state: TournamentState, key: str) -> dict[str, Any]:
    entry = state.players[key]
    status = "active" if entry.active else "no_show" if entry.drop_reason == "no_show" else "dropped"
    return {
        "player_id": entry.key,
        "name": entry.name,
        "wizards_id": entry.wizards_id,
        "status": status,
        "drop_reason": entry.drop_reason,
        "dropped_after": entry.dropped_after,
        "late_entry_rounds": entry.missed_rounds,
    }


def tournament_json(
    tournament_id: str,
    state: TournamentState,
    version: int,
    now: datetime,
    extras: Mapping[int, RoundExtras],
    *,
    standings: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The scorekeeper's and judges' view (docs/api.md, Tournaments)."""
    settings = state.settings
    assert settings is not None  # a loaded tournament was created
    players = sorted(state.players.values(), key=lambda p: p.index)
    return {
        "id": tournament_id,
        "name": settings.name,
        "format": settings.format,
        "rel": settings.rel,
        "kind": settings.kind,
        "best_of": settings.best_of,
        "round_minutes": settings.round_minutes,
        "rounds_planned": state.rounds_planned,
        "top_cut": settings.top_cut,
        "points": {"win": settings.win_points, "draw": settings.draw_points},
        "version": version,
        "champion": state.champion,
        "players": [player_json(state, p.key) for p in players],
        "rounds": [round_json(state, r, extras.get(r.number)) for r in state.rounds],
        "clock": clock_json(state.current_round, now),
        "standings": standings_json(state) if standings is None else standings,
        **progress_json(state),
    }


def summary_json(tournament_id: str, state: TournamentState) -> dict[str, Any]:
    """One line of ``GET /v1/tournaments``."""
    settings = state.settings
    assert settings is not None
    return {
        "id": tournament_id,
        "name": settings.name,
        "format": settings.format,
        "kind": settings.kind,
        "players": len(state.players),
        "round": len(state.rounds),
        "stage": progress(state).stage,
        "champion": None if state.champion is None else state.players[state.champion].name,
    }


def public_json(tournament_id: str, state: TournamentState, now: datetime | None) -> dict[str, Any]:
    """What players and spectators see: names only (no Wizards ids, no player ids, no tokens).
    ``now`` ``None``: the clock is left out (the caller adds it at the time of the read)."""
    settings = state.settings
    assert settings is not None
    rnd = state.current_round
    names = {p.key: p.name for p in state.players.values()}
    return {
        "id": tournament_id,
        "name": settings.name,
        "format": settings.format,
        "kind": settings.kind,
        "round": 0 if rnd is None else rnd.number,
        "rounds_planned": state.rounds_planned,
        "top_cut": rnd is not None and rnd.stage == TOP_CUT,
        "clock": None if now is None else clock_json(rnd, now),
        "pairings": []
        if rnd is None
        else [
            {"table": t.number, "names": [names[p] for p in t.players], "reported": t.result is not None}
            for t in rnd.tables
        ],
        "byes": [] if rnd is None else [names[p] for p in rnd.byes],
        "standings": [
            {
                "rank": s.rank,
                "name": s.name,
                "points": s.match_points,
                "matches": f"{s.wins}-{s.losses}-{s.draws}",
                "dropped": s.dropped,
            }
            for s in standings(state)
        ],
        **public_progress_json(state),
    }
