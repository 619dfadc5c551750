"""The answers of the players' match reports (docs/api.md, Match results from the players)."""

from __future__ import annotations

from typing import Literal

from api.schemas_tournaments import Answer


class ReportPlayer(Answer):
    player_id: str
    name: str


class ReportShown(Answer):
    player: str
    """Who reported it."""
    wins: dict[str, int]
    """Games won, by player id."""
    draws: int
    disputed_by: str | None
    note: str | None


class ScoreOut(Answer):
    wins: dict[str, int]
    """Games won, by player id."""
    draws: int


class ReportGame(Answer):
    game_id: str
    status: str
    winners: list[str]


class MatchReportOut(Answer):
    """A match's report form: its state, the players' report, the result, the prefill."""

    tournament: str
    round: int
    table: int
    players: list[ReportPlayer]
    best_of: int
    state: Literal["open", "pending", "disputed", "final"]
    """`open`: nothing reported; `pending`: a player's report waits for the opponent; `disputed`:
    the opponent disputed it (staff settles); `final`: the tournament's result is recorded."""
    report: ReportShown | None
    result: ScoreOut | None
    """The tournament's result, once final."""
    prefill: ScoreOut
    """The score the match's finished games add up to (the form's suggestion)."""
    games: list[ReportGame]
    you: str | None
    """The caller's player id (a player's event link), else null."""
    can: list[Literal["report", "confirm", "dispute"]]
    """What the caller may do now."""
    version: int


class WaitingReportsOut(Answer):
    """The players' reports that wait for a confirmation or are disputed, disputes first."""

    reports: list[MatchReportOut]
    version: int
