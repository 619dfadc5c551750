"""The answer of an event link's own view, ``GET /v1/tournaments/{tid}/me`` (docs/api.md,
Tournaments; docs/tournaments.md, The player's link)."""

from __future__ import annotations

from typing import Literal

from api.schemas_tournaments import Answer, ClockOut, PlayerOut, ResultOut


class Opponent(Answer):
    player_id: str
    name: str


class MyMatch(Answer):
    """The player's match of one round."""

    round: int
    top_cut: bool
    table: int
    opponents: list[Opponent]
    status: Literal["pending", "featured", "extended", "reported"]
    result: ResultOut | None
    games: list[str]
    """The match's game ids, first to last."""
    game_id: str | None
    """The game to play now: the match's latest game (open it with the same event link)."""


class MeOut(Answer):
    tournament_id: str
    name: str
    """The event's name."""
    version: int
    player: PlayerOut
    round: int | None
    """The event's latest round (``null`` before round 1 is paired)."""
    clock: ClockOut | None
    match: MyMatch | None
    """The player's match of that round (``null``: a bye, not paired in it, or no round yet)."""
    bye: bool
    matches: list[MyMatch]
    """Every match of the player so far, first round first."""
