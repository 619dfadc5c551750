"""The body of ``POST /v1/games``: a game's starting position (docs/api.md, Games).

This model checks each field on its own; the rules that tie fields together (two players in a
two-player game, teams by variant, ids used once, starting life, CR 103 and 119.1) are
``domain.setup.game_started``'s.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, PlainValidator, WithJsonSchema

from domain.commands.bodies.fields import MAX_TEXT as _MAX_TEXT
from domain.commands.bodies.fields import (
    Body,
    CardRef,
    CounterMap,
    CustomKind,
    EventName,
    Life,
    SetupId,
    Size,
    Step,
    Text,
    TurnNumber,
    Variant,
    example,
    refuse,
    shown,
)


def _game_id(value: Any) -> str:
    if not isinstance(value, str):
        raise refuse("invalid_game_id", f"must be a string, got {shown(value)}")
    return value


GameId = Annotated[
    str,
    PlainValidator(_game_id),
    WithJsonSchema(
        {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$", "description": "a client-chosen id"}
    ),
]


def _name(value: str) -> str:
    if len(value) > _MAX_TEXT:
        raise refuse("invalid_field", f"must be at most {_MAX_TEXT} characters, got {len(value)}")
    return value


Name = Annotated[str, AfterValidator(_name)]
"""A string that may be empty: a display name (empty: use the id) or an edition (empty: the current)."""


class TournamentSetup(Body):
    """Where the game is played; each field optional."""

    event: EventName | None = None
    round: Size | None = None
    table: Size | None = None
    rel: Literal["regular", "competitive", "professional"] | None = Field(
        None, description="Rules Enforcement Level (default regular); at competitive a backup needs the head judge"
    )
    best_of: Literal[1, 3, 5] | None = Field(None, description="games of the match: best of 1, 3 (default) or 5")


class PlayerSetup(Body):
    """One player: zones top first; ``library_size`` alone means an unknown library. A player with
    neither ``library`` nor ``library_size`` starts as at a paper table: an unknown library of
    their deck less the opening hand (seven unknown cards unless ``hand``/``hand_size`` say
    otherwise) and the cards the game starts with elsewhere."""

    id: SetupId
    name: Name | None = None
    team: Text | None = Field(None, description="required for two_headed_giant and archenemy")
    life: Life | None = Field(None, description="default by variant (CR 119.1); not in two_headed_giant")
    counters: CounterMap | None = None
    deck_size: Size | None = Field(
        None,
        description="this player's deck, for a paper start (no `library` nor `library_size`); "
        "default: the game's `deck_size`",
    )
    library: list[CardRef] | None = Field(
        None, description="the known cards, top first; `[]` (or `library_size: 0`) is an empty library"
    )
    library_size: Size | None = Field(None, description="known and unknown cards; default: the known ones")
    hand: list[CardRef] | None = None
    hand_size: Size | None = Field(
        None, description="known and unknown cards; default: the known ones, or 7 in a paper start (CR 103.5)"
    )
    graveyard: list[CardRef] | None = None
    exile: list[CardRef] | None = None
    commanders: list[CardRef] | None = Field(
        None, description="commander only: one commander, or two (partner, friends forever, a background); CR 903.3"
    )


class TeamSetup(Body):
    """A team's shared life and counters (two_headed_giant, CR 810.9, 810.10)."""

    life: Life | None = None
    counters: CounterMap | None = None


class PermanentSetup(Body):
    """A permanent on the battlefield at the start."""

    id: SetupId
    card: CardRef
    controller: Text
    owner: Text | None = Field(None, description="default: the controller")
    counters: CounterMap | None = None
    tapped: bool = False
    entered_this_turn: bool = Field(False, description="summoning sick (CR 302.6)")
    token: bool = False


class TurnSetup(Body):
    """Where the game starts: default turn 1, the first player (the archenemy) active, untap."""

    number: TurnNumber = 1
    active_player: Text | None = None
    step: Step = "untap"


class GameCreateBody(Body):
    """A game's starting position; only ``variant`` and each player's ``id`` are required."""

    model_config = example(
        {
            "variant": "two_player",
            "tournament": {"event": "GP-Vegas", "round": 3, "table": 12},
            "players": [
                {
                    "id": "P1",
                    "name": "Alice",
                    "counters": {"rad": 3},
                    "library": ["Forest", {"name": "Lightning Bolt", "type_line": "Instant"}],
                    "library_size": 53,
                },
                {"id": "P2", "name": "Bob"},
            ],
            "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 7}}],
            "turn": {"number": 1, "active_player": "P1", "step": "draw"},
        }
    )
    game_id: GameId | None = None
    variant: Variant
    rules_edition: Name | None = Field(None, description="a date, YYYY-MM-DD; default (or empty): the current edition")
    tournament: TournamentSetup | None = None
    players: list[PlayerSetup] = Field(min_length=1)
    deck_size: Size | None = Field(
        None,
        description="each deck's size, for players given neither `library` nor `library_size` (a paper "
        "start): default 60, or 100 in a commander game (40 for Limited)",
    )
    teams: dict[Text, TeamSetup] | None = None
    battlefield: list[PermanentSetup] | None = None
    turn: TurnSetup | None = None
    custom_kind: CustomKind = False
