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
    rounds: int
    """Rounds on the player's record (byes and missed rounds included): 0, no match played yet,
    and the tiebreakers are only MTR Appendix C's floor (the pages show none)."""


class StandingsOut(Answer):
    round: int
    standings: list[StandingOut]


Stage = Literal["registration", "swiss", "swiss_finished", "top_cut", "finished"]
Action = Literal[
    "register",
    "pair_round",
    "pair_top_cut",
    "start_clock",
    "pause_clock",
    "resume_clock",
    "end_round",
    "drop",
    "report_results",
]


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
    stage: Stage
    """Where the event stands (docs/tournaments.md, The event's stages)."""
    actions: list[Action]
    """The scorekeeper's actions the server accepts now; the event page shows only these."""
    swiss_complete: int
    """Swiss rounds with every result in: the standings are "after round N" of these."""


class SummaryOut(Answer):
    id: str
    name: str
    format: str
    kind: str
    players: int
    round: int
    stage: Stage
    champion: str | None
    """The champion's name once the final is decided."""


class TournamentList(Answer):
    tournaments: list[SummaryOut]
    next: str | None
    """The ``after`` of the next page (``None``: this is the last one)."""


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
    dropped: bool


class PublicBracketTable(Answer):
    table: int
    names: list[str]
    """Higher seed first."""
    wins: list[int] | None
    """Games won by seat, once reported."""
    winner: str | None


class PublicBracketRound(Answer):
    round: int
    cut: int | None
    """Players in the bracket at this round: 8 quarterfinals, 4 semifinals, 2 the final."""
    tables: list[PublicBracketTable]


class PublicPlacing(Answer):
    place: int
    name: str
    points: int
    matches: str
    """Swiss record, wins-losses-draws."""
    reached: int | None
    """The last playoff round's size the player was in (1: champion); ``None`` outside the cut."""
    dropped: bool


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
    stage: Stage
    swiss_complete: int
    champion: str | None
    bracket: list[PublicBracketRound]
    final_standings: list[PublicPlacing]
    """Empty until the top cut is paired; then every player, by the bracket then Swiss."""


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
