"""The OpenAPI document's answers of the match and webhook routes (``api.routes.matches``,
``api.routes.webhooks``; docs/api.md, docs/judges.md).

Each route names its model as ``response_model``, so FastAPI checks every answer against it (an
answer that drifts from its model is a 500 in the tests, not a silent change for clients) and
the document describes it. The fields are what the routes have always answered: required when
always there. The documents of the read models (a match's games, its open calls, a delivery)
are open (``extra="allow"``), so a field added there reaches clients as an addition, never
dropped by the model.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


# -- matches ---------------------------------------------------------------------------------
class MatchGame(_Open):
    game_id: str
    status: str = Field(description="`in_progress` or `finished`")
    winners: list[str]
    draw: bool
    started_at: str | None


class MatchOpenCall(_Open):
    game: str
    call: str
    called_by: str | None
    question: str | None


class MatchTimeExtension(_Open):
    game: str
    minutes: int
    reason: str | None


class MatchPenalty(_Open):
    player: str
    penalty: str
    game: str


class MatchResult(_Open):
    wins: dict[str, int] = Field(description="game wins by player id")
    draws: int
    score: str = Field(description="`2-1-0`: the players' wins in seat order, then draws")
    winner: str | None
    draw: bool
    complete: bool
    confirmed: bool
    source: Literal["games", "scorekeeper", "penalty", "intentional_draw", "tournament"]
    """`tournament`: the event is a tournament, and this is its one result (issue 38)."""


class MatchOut(_Open):
    """One match (docs/judges.md, Matches): its games, reports and result."""

    event: str
    round: str
    table: int | str
    best_of: int
    players: list[str]
    games: list[MatchGame]
    intentional_draw: list[str] = Field(description="the players who agreed to an intentional draw")
    confirmations: dict[str, str | None] = Field(description="the score each player confirmed")
    match_loss: MatchPenalty | None
    open_calls: list[MatchOpenCall]
    time_extensions: list[MatchTimeExtension]
    extra_minutes: int
    result: MatchResult


class RoundCall(MatchOpenCall):
    table: int | str


class RoundExtension(MatchTimeExtension):
    table: int | str


class RoundOut(BaseModel):
    event: str
    round: str
    tables: list[MatchOut]
    open_calls: list[RoundCall]
    time_extensions: list[RoundExtension]


class Confirmed(BaseModel):
    event: str
    round: str
    table: str
    confirmed_by: str = Field(description="the player id of the caller")
    score: str


class DrawAgreed(BaseModel):
    event: str
    round: str
    table: str
    agreed_by: str = Field(description="the player id of the caller")


class ResultEntered(BaseModel):
    event: str
    round: str
    table: str
    wins: dict[str, int]
    draws: int


class ResultRow(_Open):
    event: str
    round: str
    table: int | str
    player_a: str | None
    player_b: str | None
    a_wins: int
    b_wins: int
    draws: int
    result: Literal["a", "b", "draw", ""] = Field(description="empty while the match is not complete")
    complete: bool
    confirmed: bool


class ResultsOut(BaseModel):
    event: str
    round: str
    columns: list[str] = Field(description="the CSV export's columns, in order")
    results: list[ResultRow]


# -- webhooks --------------------------------------------------------------------------------
class WebhookCreated(BaseModel):
    id: str
    url: str
    events: list[str]
    secret: str = Field(description="the signing secret: shown once")


class WebhookOut(_Open):
    """A subscription as listed: never its secret."""

    id: str
    url: str
    events: list[str]
    created_at: str


class WebhookList(BaseModel):
    webhooks: list[WebhookOut]


class SecretRotated(BaseModel):
    id: str
    secret: str = Field(description="the new signing secret: shown once")
    rotated_at: str


class DeliveryOut(_Open):
    id: str = Field(description="the `X-Ledger-Delivery` of every attempt")
    subscription: str
    event: str
    status: Literal["pending", "delivered", "dead", "cancelled"]
    attempts: int
    last_error: str | None
    next_at: float = Field(description="Unix seconds of the next attempt of a pending one")
    delivered_at: str | None


class DeliveryList(BaseModel):
    subscription: str
    deliveries: list[DeliveryOut]


CSV_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "CSV with a header line"}
}
"""``responses`` of a route answering CSV (its ``response_model`` is ``None``)."""
NO_CONTENT: dict[int | str, dict[str, Any]] = {204: {"description": "done; no body"}}
"""``responses`` of a route answering 204."""
