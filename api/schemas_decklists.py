"""The answers of the decklist routes (issue 42), for the OpenAPI schema (docs/api.md,
Decklists); ``tests/api/test_decklists_http.py`` validates real answers against them."""

from __future__ import annotations

from api.schemas_tournaments import Answer


class LineOut(Answer):
    count: int
    name: str


class DecklistOut(Answer):
    player: str
    name: str
    main: list[LineOut]
    sideboard: list[LineOut]
    commander: list[LineOut]
    main_count: int
    sideboard_count: int
    text: str
    submitted_at: str
    submitted_by: str
    submissions: int
    version: int
    """The tournament version that stored this list."""


class DecklistWritten(DecklistOut):
    warnings: list[str]
    """Cards the catalog has no legality for in the event's format (not refused)."""


class SettingsOut(Answer):
    deadline: str | None
    locked: bool
    published: bool
    published_scope: str | None
    submitted: list[str]
    version: int


class PlayerListed(Answer):
    player: str
    name: str
    submitted: bool


class DecklistsOut(Answer):
    deadline: str | None
    locked: bool
    published: bool
    published_scope: str | None
    submitted: list[str]
    format: str | None
    players: list[PlayerListed]
    me: str | None
    """The caller's player id when it is a player's event link (the page's own list)."""
    decklists: list[DecklistOut]
    version: int


class PublicDecklistsOut(Answer):
    published: bool
    scope: str | None
    decklists: list[DecklistOut]


class PublishedOut(PublicDecklistsOut):
    version: int


class CheckPlayer(Answer):
    player: str
    name: str
    decklist: bool


class TableCheck(Answer):
    table: int
    players: list[CheckPlayer]
    game_id: str
    deck_checks: list[dict[str, object]]
    """The deck checks the table's games recorded (``POST /v1/games/{id}/deck-checks``)."""


class PickOut(Answer):
    round: int
    how: str
    seed: int | None
    tables: list[TableCheck]
    version: int


class PickListed(Answer):
    round: int
    how: str
    seed: int | None
    by: str
    tables: list[TableCheck]


class DeckChecksOut(Answer):
    picks: list[PickListed]


class MismatchOut(Answer):
    game_id: str
    version: int
    """The game version whose event showed the card."""
    player: str
    name: str
    card: str
    what: str
    round: int
    table: int
    call: str | None = None
    """The judge call it opened in the game (``None`` until it is)."""


class MismatchesOut(Answer):
    mismatches: list[MismatchOut]
