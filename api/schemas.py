"""The OpenAPI document's models: response shapes here, request bodies from the models that parse them.

Request bodies are not described twice: the schema of each action, of the create body, of undo
and of tokens is the JSON schema of the very model that validates it (``domain.commands.bodies``,
``api.bodies``), with its example. Responses are described here, apart from domain objects.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from api.bodies import TokenCreateBody, UndoBody
from domain.commands import ACTION_BODIES
from domain.commands.bodies.create import GameCreateBody
from domain.commands.parse import ACTION_ADAPTER


class TokenCreated(BaseModel):
    token: str
    id: str
    name: str
    role: str
    game_id: str | None = None
    player_id: str | None = None
    expires_at: str | None = None


class TokenOut(BaseModel):
    """A stored token as ``GET /v1/tokens`` lists it: never its secret."""

    id: str
    name: str
    role: str
    game_id: str | None = None
    player_id: str | None = None
    issued_at: str
    expires_at: str | None = None
    revoked_at: str | None = None
    last_used_at: str | None = None


class TokenList(BaseModel):
    tokens: list[TokenOut]


class Actor(BaseModel):
    """Who recorded an action: the token's name and role and, where recorded (issue 38), ``token``:
    its public id (no key at all in older records and for the environment's admin token)."""

    model_config = ConfigDict(extra="allow")

    name: str
    role: str


class EventOut(BaseModel):
    version: int
    type: str
    data: dict[str, Any]
    action_id: str
    actor: Actor
    recorded_at: str
    rule: str | None = None
    hash: str
    prev_hash: str
    reverted: bool
    sentence: str
    """The event as one readable line (never naming hidden cards)."""
    redacted: bool = False
    """True when hidden parts of ``data`` were left out for this reader."""


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class TurnState(_Open):
    number: int
    active_player: str
    active_team: str | None
    step: str


class ResultState(_Open):
    winners: list[str]
    draw: bool


class PlayerState(_Open):
    name: str
    team: str | None
    life: int = Field(description="the team's shared life in two_headed_giant")
    counters: dict[str, int] = Field(description="only kinds with a count above zero")
    lost: bool
    loss_reason: str | None
    library_size: int
    library: list[dict[str, Any]] | None = Field(description="known cards, top first; judge and admin only")
    hand_size: int
    graveyard: list[dict[str, Any]]
    graveyard_unnamed: int = Field(
        0, description="cards milled into the graveyard without being named (an unknown library, CR 728.1)"
    )
    mulligans: int = Field(0, description="mulligans this player took (CR 103.5)")
    hand_kept: bool = Field(False, description="whether this player kept their opening hand (CR 103.5)")
    mana_pool: dict[str, int]
    command: list[dict[str, Any]] = Field(description="the player's cards in the command zone (CR 903.6)")
    commanders: list[str] = Field(description="names of the player's commanders (commander variant)")
    commander_tax: dict[str, int] = Field(
        description="each commander's name -> generic mana added to its cost from the command zone (CR 903.8)"
    )
    commander_damage: dict[str, int] = Field(
        description='"OWNER:Commander Name" -> combat damage that commander dealt this player (CR 903.10a); '
        "above zero only"
    )
    dungeon: dict[str, str] | None = Field(description='`{"name": "Undercity", "room": ROOM}` or null (CR 309, 701.49)')
    city_blessing: bool = Field(description="the city's blessing (CR 702.131)")


class TeamState(_Open):
    players: list[str]
    life: int | None
    counters: dict[str, int]
    lost: bool


class DamageEffects(_Open):
    """What damage the permanent deals to a player does, as the server applies it."""

    infect: bool = Field(description="it gives poison counters instead of life loss (CR 702.90b)")
    lifelink: bool = Field(description="its controller gains that much life (CR 702.15b)")
    commander_key: str | None = Field(
        description="a commander's `commander_damage` key (`OWNER:Name`) its combat damage adds to (CR 903.10a)"
    )


class PermanentState(_Open):
    name: str
    card: dict[str, Any]
    owner: str
    controller: str
    tapped: bool
    counters: dict[str, int]
    summoning_sick: bool
    token: bool
    damage_effects: DamageEffects | None = None


class StackItem(_Open):
    id: str
    kind: Literal["trigger", "ability", "spell"]
    controller: str
    source: str | None
    description: str
    needs: list[str] = Field(description="choices `resolve` must carry for this object")
    card_count: int | None = Field(None, description="how many cards `choices.cards` must name (where counted)")
    alternatives: dict[str, list[str]] | None = Field(
        None, description='choices that may stand in for a need: `{"cards": ["nonland_count"]}` (CR 728.1)'
    )


class PendingTrigger(BaseModel):
    id: str
    description: str


class PendingOrder(BaseModel):
    controller: str
    triggers: list[PendingTrigger]


class State(_Open):
    """The game state (docs/api.md, State)."""

    variant: str
    rules_edition: str
    status: Literal["in_progress", "finished"]
    result: ResultState | None
    turn: TurnState
    players: dict[str, PlayerState]
    teams: dict[str, TeamState]
    battlefield: dict[str, PermanentState]
    exile: list[dict[str, Any]]
    stack: list[StackItem] = Field(description="bottom first; the last entry is the top")
    pending_order: PendingOrder | None
    first_player: dict[str, str] | None = Field(
        None, description='`{"player", "method": "random" | "chosen"}` once the first player is chosen (CR 103.1)'
    )
    monarch: str | None = Field(description="the player who is the monarch (CR 725), or null")
    initiative: str | None = Field(description="the player who has the initiative (CR 726), or null")
    day_night: Literal["day", "night"] | None = Field(description="day or night (CR 731), or null while neither")
    unacknowledged: list[dict[str, Any]] = Field(
        default_factory=list, description="players' reports still waiting for an affected player (docs/judges.md)"
    )
    judging: dict[str, Any] | None = Field(
        None,
        description="calls (open ones, the latest 20 closed), closed_call_count, open_calls, penalties, "
        "time_extensions, extra_minutes, deck_checks",
    )


class GameOut(BaseModel):
    game_id: str
    version: int
    state: State


class ActionOut(BaseModel):
    action_id: str
    version: int
    events: list[EventOut]
    state: State | None = Field(
        None, description="the game's state after the action; left out when the request says `Prefer: return=minimal`"
    )


class GameSummaryOut(_Open):
    game_id: str
    variant: str
    status: str
    winners: list[str]
    event: str | None = None
    round: int | None = None
    table: int | None = None
    version: int
    updated_at: str


class GameList(BaseModel):
    games: list[GameSummaryOut]


class TimelineLine(_Open):
    version: int
    type: str
    text: str
    reverted: bool


class TimelineGroup(_Open):
    turn: int | None
    step: str | None
    lines: list[TimelineLine]


class TimelineOut(BaseModel):
    game_id: str
    timeline: list[TimelineGroup]
    next_after: int | None = None
    """Where the next page starts (``?after=``), or ``None`` at the head."""


class WhoAmI(BaseModel):
    name: str
    role: str
    game_id: str | None
    player_id: str | None


class EventPage(BaseModel):
    events: list[EventOut]
    next_after: int | None


class VerifyOut(BaseModel):
    ok: bool
    events: int
    head: str | None
    first_bad_version: int | None
    checked_from: int = 1
    """The first version recomputed by this call (1: the whole chain)."""


class CardOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    type_line: str
    implemented: bool


REQUEST_BODIES: tuple[tuple[str, TypeAdapter[Any]], ...] = (
    ("Action", ACTION_ADAPTER),
    ("GameCreate", TypeAdapter(GameCreateBody)),
    ("Undo", TypeAdapter(UndoBody)),
    ("TokenCreate", TypeAdapter(TokenCreateBody)),
)
"""The request bodies the routes read raw, by their component name."""


def example_of(model: type[BaseModel]) -> dict[str, Any]:
    """A body model's example (``domain.commands.bodies.fields.example``)."""
    extra = model.model_config.get("json_schema_extra")
    assert isinstance(extra, dict), f"{model.__name__} has no example"
    examples = extra["examples"]
    assert isinstance(examples, list) and isinstance(examples[0], dict)
    return dict(examples[0])


ACTION_EXAMPLES: dict[str, dict[str, Any]] = {kind: example_of(model) for kind, model in ACTION_BODIES.items()}
"""One example per action type, from the action's own model."""


def component_schemas() -> dict[str, Any]:
    """JSON schemas of the request bodies, for ``components.schemas``."""
    out: dict[str, Any] = {}
    for name, adapter in REQUEST_BODIES:
        schema = adapter.json_schema(ref_template="#/components/schemas/{model}")
        out.update(schema.pop("$defs", {}))
        out[name] = schema
    return out


def body_doc(schema: str, examples: dict[str, Any] | None = None) -> dict[str, Any]:
    """``openapi_extra`` documenting a raw JSON body by its component schema and examples."""
    content: dict[str, Any] = {"schema": {"$ref": f"#/components/schemas/{schema}"}}
    if examples:
        content["examples"] = {k: {"summary": k, "value": v} for k, v in examples.items()}
    return {"requestBody": {"required": True, "content": {"application/json": content}}}


def model_body_doc(model: type[BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` documenting a raw JSON body (read by ``api.deps.read_body``) by the
    schema of the model that parses it, inline (for bodies without ``$defs``)."""
    schema = model.model_json_schema()
    assert "$defs" not in schema, f"{model.__name__}: name it in REQUEST_BODIES and use body_doc"
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}
