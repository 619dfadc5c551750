"""The tournament's CSV files: the roster (import and export), the standings and the results
(one row per match), with the columns docs/api.md lists.

Every cell that a spreadsheet would read as a formula (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return) is written with a leading ``'``: a player's name is typed by anyone,
and a CSV opened in a spreadsheet must not run it (OWASP, CSV injection).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from domain.commands.bodies.text import check_string, line_break_or_tab
from domain.errors import Code, InvalidCommand, LimitExceeded
from domain.tournament import TournamentState, standings
from domain.tournament.state import TOP_CUT
from ledger.csv_cells import to_csv as to_csv  # the one CSV writer of the server (issue 33, finding 7)
from ledger.tournament_views import percent

MAX_ROSTER = 5000
"""Players one roster file may register."""
MAX_FIELD = 200
"""Longest name or Wizards id (the API's text limit)."""

ROSTER_COLUMNS = ("player_id", "name", "wizards_id", "status", "late_entry_rounds")
STANDINGS_COLUMNS = (
    "rank",
    "player_id",
    "name",
    "points",
    "matches",
    "wins",
    "losses",
    "draws",
    "byes",
    "omw",
    "gw",
    "ogw",
    "dropped",
)
RESULTS_COLUMNS = (
    "tournament",
    "round",
    "stage",
    "table",
    "player1_id",
    "player1_name",
    "player1_wins",
    "player2_id",
    "player2_name",
    "player2_wins",
    "draws",
    "result",
    "winner_id",
    "winner_name",
    "intentional_draw",
    "corrections",
    "others",
)


def roster_rows(state: TournamentState) -> list[dict[str, Any]]:
    rows = []
    for p in sorted(state.players.values(), key=lambda p: p.index):
        status = "active" if p.active else ("no_show" if p.drop_reason == "no_show" else "dropped")
        rows.append(
            {
                "player_id": p.key,
                "name": p.name,
                "wizards_id": p.wizards_id,
                "status": status,
                "late_entry_rounds": p.missed_rounds,
            }
        )
    return rows


def standings_rows(state: TournamentState) -> list[dict[str, Any]]:
    return [
        {
            "rank": s.rank,
            "player_id": s.player,
            "name": s.name,
            "points": s.match_points,
            "matches": f"{s.wins}-{s.losses}-{s.draws}",
            "wins": s.wins,
            "losses": s.losses,
            "draws": s.draws,
            "byes": s.byes,
            "omw": percent(s.omwp),
            "gw": percent(s.gwp),
            "ogw": percent(s.ogwp),
            "dropped": s.dropped,
        }
        for s in standings(state)
    ]


def results_rows(tournament_id: str, state: TournamentState) -> list[dict[str, Any]]:
    """One row per match (and per bye), round by round: seats 1 and 2 in their columns, further
    seats of a pod in ``others`` as ``id:name:wins`` separated by ``;``."""
    names = {p.key: p.name for p in state.players.values()}
    rows: list[dict[str, Any]] = []
    for rnd in state.rounds:
        stage = "top_cut" if rnd.stage == TOP_CUT else "swiss"
        for table in rnd.tables:
            result = table.result
            wins = list(result.games) if result is not None else [None] * len(table.players)
            seats = list(zip(table.players, wins, strict=True))
            winner = table.winner()
            outcome = "" if result is None else ("win" if winner is not None else "draw")
            rows.append(
                {
                    "tournament": tournament_id,
                    "round": rnd.number,
                    "stage": stage,
                    "table": table.number,
                    "player1_id": seats[0][0],
                    "player1_name": names[seats[0][0]],
                    "player1_wins": seats[0][1],
                    "player2_id": seats[1][0] if len(seats) > 1 else None,
                    "player2_name": names[seats[1][0]] if len(seats) > 1 else None,
                    "player2_wins": seats[1][1] if len(seats) > 1 else None,
                    "draws": None if result is None else result.draws,
                    "result": outcome,
                    "winner_id": winner,
                    "winner_name": names[winner] if winner is not None else None,
                    "intentional_draw": result is not None and result.intentional,
                    "corrections": table.corrections,
                    "others": ";".join(f"{p}:{names[p]}:{'' if w is None else w}" for p, w in seats[2:]),
                }
            )
        for bye in rnd.byes:
            rows.append(
                {
                    "tournament": tournament_id,
                    "round": rnd.number,
                    "stage": stage,
                    "table": None,
                    "player1_id": bye,
                    "player1_name": names[bye],
                    "player1_wins": 2,
                    "player2_wins": 0,
                    "draws": 0,
                    "result": "bye",
                    "winner_id": bye,
                    "winner_name": names[bye],
                    "intentional_draw": False,
                    "corrections": 0,
                    "others": "",
                }
            )
    return rows


def parse_roster(text: str) -> list[tuple[str, str | None]]:
    """``(name, wizards_id)`` of each row of a roster file: a ``name`` column, an optional
    ``wizards_id`` column; ``400`` naming the first bad line, so a bad file registers no one.

    Line ends may be CRLF, LF or CR alone (old Excel's "CSV (Macintosh)"): the rows are read with
    ``newline=""``, so the csv module sees every line end itself. A cell is checked exactly as a
    JSON body's string is (``check_string``: no C0 or C1 control character, no lone surrogate;
    issue 40), and holds no tab or line break either (a name is one line). What the csv module
    itself can't read (a field over its 131,072-character limit) is ``400 invalid_body``
    naming the line, never a 500."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        return _roster_rows(reader)
    except csv.Error as err:
        raise InvalidCommand(
            f"line {reader.line_num}: not a CSV file the server can read ({err})", Code.INVALID_BODY
        ) from None


def _roster_rows(reader: Any) -> list[tuple[str, str | None]]:
    header = next(reader, None)
    columns = [c.strip().lower() for c in header or ()]
    if "name" not in columns or not set(columns) <= {"name", "wizards_id"}:
        shown = header if header is None or len(repr(header)) <= MAX_FIELD else f"{repr(header)[:MAX_FIELD]}…"
        raise InvalidCommand(
            f"a roster file's header is `name,wizards_id` (wizards_id optional), got {shown!r}", Code.INVALID_BODY
        )
    at_name = columns.index("name")
    at_id = columns.index("wizards_id") if "wizards_id" in columns else None
    out: list[tuple[str, str | None]] = []
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(columns):
            raise InvalidCommand(f"line {line}: {len(columns)} cells expected, got {len(row)}", Code.INVALID_BODY)
        name = row[at_name].strip()
        wizards_id = row[at_id].strip() or None if at_id is not None else None
        for column, value in (("name", name), ("wizards_id", wizards_id or "")):
            if len(value) > MAX_FIELD:
                raise InvalidCommand(f"line {line}: {column} over {MAX_FIELD} characters", Code.INVALID_FIELD)
            check_string(value, f"line {line}: {column}", MAX_FIELD)
            bad = line_break_or_tab(value)
            if bad is not None:
                raise InvalidCommand(f"line {line}: {column}: {bad} is not allowed in a name", Code.INVALID_CHARACTER)
        if not name:
            raise InvalidCommand(f"line {line}: a player needs a name", Code.MISSING_FIELD)
        out.append((name, wizards_id))
        if len(out) > MAX_ROSTER:
            raise LimitExceeded(f"a roster file registers at most {MAX_ROSTER} players", Code.LIMIT_EXCEEDED)
    if not out:
        raise InvalidCommand("the roster file has no player", Code.INVALID_BODY)
    return out
