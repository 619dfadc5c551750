"""The players' report of a match waiting at a table (issue 38): who reported what, and who
disputed it. A value of ``Table.report``; folded by ``domain.tournament.report_folds``."""

from __future__ import annotations

from dataclasses import dataclass

OPEN = "open"
PENDING = "pending"
DISPUTED = "disputed"
FINAL = "final"
"""A match's report states: no result and no report; a report waiting for the opponent; a report
the opponent disputed (staff settles it); the tournament's result recorded."""


@dataclass(frozen=True, slots=True)
class PlayerResultReport:
    """A player's report: games won per seat and drawn games, waiting for the opponent."""

    player: str
    games: tuple[int, ...]
    draws: int
    disputed_by: str | None = None
    note: str | None = None
