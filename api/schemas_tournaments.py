"""The answers of the tournament routes, for the OpenAPI schema (docs/api.md, Tournaments).

The routes render their answers with orjson (``api.presenters.AnswerResponse``), so these models
describe the answers rather than re-validating each one on the way out; ``tests/api/
test_tournament_answers.py`` validates real answers of a whole event against them, so the schema
and the answers cannot drift apart.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PointsOut(Answer):
    win: int
    draw: int


class PlayerOut(Answer):
    player_id: str
    name: str
    wizards_id: str | None
    status: Literal["active", "dropped", "no_show"]
    drop_reason: str | None
    dropped_after: int | None
    late_entry_rounds: int
    """Swiss rounds paired before the player entered (each a loss, MTR 2.6)."""


class PlayerWritten(PlayerOut):
    version: int
    """The tournament's record version after the write."""


class ResultOut(Answer):
    wins: dict[str, int]
    """Games won, by player id."""
    draws: int
    intentional_draw: bool


class TableOut(Answer):
    table: int
    players: list[str]
    names: list[str]
    status: Literal["pending", "featured", "extended", "reported"]
    result: ResultOut | None
    corrections: int
    games: list[str]
    """The match's game ids, first to last."""
    extension_minutes: int
    featured: bool


class TableWritten(TableOut):
    round: int
    version: int


class NextGameOut(TableWritten):
    game_id: str
    game: int
    """The new game's number in the match (2 for the second game)."""


class RoundOut(Answer):
    round: int
    top_cut: bool
    seed: int | None
    cut: int | None
    tables: list[TableOut]
    byes: list[str]


class RoundWritten(RoundOut):
    version: int


class ClockOut(Answer):
    round: int
    state: Literal["not_started", "running", "paused", "ended"]
    minutes: int | None
    started_at: str | None
    ends_at: str | None
    remaining_seconds: int | None
    turns_after_time: int


class ClockWritten(ClockOut):
    version: int


class StandingOut(Answer):
    rank: int
    player_id: str
    name: str
    points: int
    matches: str
    """Wins-losses-draws."""
    omw: float
    gw: float
    ogw: float
    dropped: bool


class StandingsOut(Answer):
    round: int
    standings: list[StandingOut]


class TournamentOut(Answer):
    id: str
    name: str
    format: str
    rel: str
    kind: Literal["two_player", "commander"]
    best_of: int
    round_minutes: int
    rounds_planned: int | None
    top_cut: int | None
    points: PointsOut
    version: int
    champion: str | None
    players: list[PlayerOut]
    rounds: list[RoundOut]
    clock: ClockOut | None
    standings: list[StandingOut]


class SummaryOut(Answer):
    id: str
    name: str
    format: str
    kind: str
    players: int
    round: int


class TournamentList(Answer):
    tournaments: list[SummaryOut]


class RegisteredOut(Answer):
    registered: int
    version: int


class LinkOut(Answer):
    url: str
    token: str
    player_id: str
    name: str


class PublicPairing(Answer):
    table: int
    names: list[str]
    reported: bool


class PublicStanding(Answer):
    rank: int
    name: str
    points: int
    matches: str


class PublicOut(Answer):
    id: str
    name: str
    format: str
    kind: str
    round: int
    rounds_planned: int | None
    top_cut: bool
    clock: ClockOut | None
    pairings: list[PublicPairing]
    byes: list[str]
    standings: list[PublicStanding]


class RecordOut(Answer):
    version: int
    type: str
    data: dict[str, object]
    action_id: str
    actor: dict[str, str]
    recorded_at: str
    prev_hash: str
    hash: str


class VerifyOut(Answer):
    ok: bool
    events: int
    head: str | None
    first_bad_version: int | None
