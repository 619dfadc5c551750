"""Request and response models for the OpenAPI document, kept apart from domain objects.

Bodies are parsed by the kernel (``domain.commands``), which owns the validation and its stable
error codes; these models describe the same shapes for ``/openapi.json`` and ``/docs``, with an
example for every action type.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

CardRef = str | dict[str, Any]
"""A catalog name, or an object ``{"name", "type_line", "power"?, "toughness"?, "mana_cost"?, "oracle_text"?}``."""


class PlayerTarget(BaseModel):
    player: str


class PermanentTarget(BaseModel):
    permanent: str


Target = PlayerTarget | PermanentTarget


class ProliferateChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: str | None = None
    permanent: str | None = None
    kind: str | None = Field(None, description="only in games pinned to an edition before 2019-05-03")


class _Action(BaseModel):
    model_config = ConfigDict(extra="allow")


class Advance(_Action):
    type: Literal["advance"]
    to: str | None = Field(None, description="a step name or `next_turn`")


class Choices(BaseModel):
    cards: list[CardRef] | None = None
    proliferate: list[ProliferateChoice] | list[list[ProliferateChoice]] | None = Field(
        None, description="one list, or one list per proliferate when the effect proliferates more than once"
    )
    replacement_order: list[str] | None = Field(
        None, description="permanent ids of replacement effects, first applied first (CR 616.1)"
    )
    targets: list[Any] | None = None
    x: int | None = None
    mode: Any = None
    may: bool | None = None


class Resolve(_Action):
    type: Literal["resolve"]
    choices: Choices | None = None


class OrderTriggers(_Action):
    type: Literal["order_triggers"]
    resolve_first: list[str]


class AddCounters(_Action):
    type: Literal["add_counters"]
    target: Target
    kind: str
    amount: Annotated[int, Field(ge=1)]
    source: str | None = None
    replacement_order: list[str] | None = Field(
        None, description="permanent ids of replacement effects, first applied first (CR 616.1)"
    )


class RemoveCounters(_Action):
    type: Literal["remove_counters"]
    target: Target
    kind: str
    amount: Annotated[int, Field(ge=1)]
    up_to: bool = False
    source: str | None = None


class LoseLife(_Action):
    type: Literal["lose_life"]
    player: str
    amount: Annotated[int, Field(ge=1)]
    source: str | None = None


class GainLife(_Action):
    type: Literal["gain_life"]
    player: str
    amount: Annotated[int, Field(ge=1)]
    source: str | None = None


class PayLife(_Action):
    type: Literal["pay_life"]
    player: str
    amount: Annotated[int, Field(ge=0)]
    source: str | None = None


class Damage(_Action):
    type: Literal["damage"]
    target: Target
    amount: Annotated[int, Field(ge=1)]
    source: str | None = None
    infect: bool = False
    toxic: Annotated[int, Field(ge=0)] = 0
    combat: bool = Field(False, description="combat damage: 'deals combat damage' abilities trigger (CR 510)")


class Mill(_Action):
    type: Literal["mill"]
    player: str
    count: Annotated[int, Field(ge=1)]
    cards: list[CardRef] | None = None
    source: str | None = None


class Draw(_Action):
    type: Literal["draw"]
    player: str
    count: Annotated[int, Field(ge=1)] = 1
    cards: list[CardRef] | None = None


class Proliferate(_Action):
    type: Literal["proliferate"]
    player: str
    choose: list[ProliferateChoice] = []
    source: str | None = None
    replacement_order: list[str] | None = Field(
        None, description="permanent ids of replacement effects, first applied first (CR 616.1)"
    )


class Move(_Action):
    type: Literal["move"]
    permanent: str
    to: Literal["graveyard", "exile", "hand", "library_top", "library_bottom"]


class Sacrifice(_Action):
    type: Literal["sacrifice"]
    permanent: str


class Tap(_Action):
    type: Literal["tap"]
    permanent: str


class Untap(_Action):
    type: Literal["untap"]
    permanent: str


class Enter(_Action):
    type: Literal["enter"]
    id: str | None = None
    card: CardRef
    controller: str
    counters: dict[str, int] | None = None
    tapped: bool = False
    token: bool = False
    x: Annotated[int, Field(ge=0)] = 0
    replacement_order: list[str] | None = Field(
        None, description="permanent ids of replacement effects, first applied first (CR 616.1)"
    )


class Concede(_Action):
    type: Literal["concede"]
    player: str


class Counter(_Action):
    """A spell or ability is countered (CR 701.6a): it leaves the stack without resolving."""

    type: Literal["counter"]
    object: str = Field(description="the stack object's id")
    source: str | None = None


class Note(_Action):
    type: Literal["note"]
    text: str


class Cast(_Action):
    type: Literal["cast"]
    player: str
    card: CardRef
    x: Annotated[int, Field(ge=0)] = 0
    targets: list[Any] | None = None
    from_: str | None = Field(None, alias="from")


class PlayLand(_Action):
    type: Literal["play_land"]
    player: str
    card: CardRef


class ActivateCosts(BaseModel):
    tap: bool = False
    untap: bool = False
    sacrifice: list[str] = []
    remove_counters: dict[str, int] = {}
    pay_life: Annotated[int, Field(ge=0)] = 0


class Activate(_Action):
    type: Literal["activate"]
    player: str
    permanent: str
    ability: Annotated[int, Field(ge=0)] = 0
    x: Annotated[int, Field(ge=0)] = 0
    costs: ActivateCosts | None = None
    targets: list[Any] | None = None
    mana: str | None = None


class Attacker(BaseModel):
    permanent: str
    attacks: Target


class Attack(_Action):
    """Declared attackers (CR 508.1): triggers "whenever ... attacks" of automated cards."""

    type: Literal["attack"]
    player: str
    attackers: list[Attacker]


Action = Annotated[
    Advance
    | Resolve
    | OrderTriggers
    | AddCounters
    | RemoveCounters
    | LoseLife
    | GainLife
    | PayLife
    | Damage
    | Mill
    | Draw
    | Proliferate
    | Move
    | Sacrifice
    | Tap
    | Untap
    | Enter
    | Concede
    | Note
    | Counter
    | Cast
    | PlayLand
    | Activate
    | Attack,
    Field(discriminator="type"),
]

ACTION_EXAMPLES: dict[str, dict[str, Any]] = {
    "advance": {"type": "advance", "to": "precombat_main"},
    "resolve": {"type": "resolve", "choices": {"proliferate": [{"player": "P2"}, {"permanent": "hydra"}]}},
    "order_triggers": {"type": "order_triggers", "resolve_first": ["s3", "s2"]},
    "add_counters": {"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 2},
    "remove_counters": {"type": "remove_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1},
    "lose_life": {"type": "lose_life", "player": "P1", "amount": 3, "source": "Lightning Bolt"},
    "gain_life": {"type": "gain_life", "player": "P1", "amount": 3},
    "pay_life": {"type": "pay_life", "player": "P1", "amount": 2},
    "damage": {"type": "damage", "target": {"player": "P2"}, "amount": 2, "infect": True},
    "mill": {"type": "mill", "player": "P1", "count": 3},
    "draw": {"type": "draw", "player": "P1", "count": 1},
    "proliferate": {"type": "proliferate", "player": "P1", "choose": [{"player": "P2"}, {"permanent": "hydra"}]},
    "move": {"type": "move", "permanent": "hydra", "to": "graveyard"},
    "sacrifice": {"type": "sacrifice", "permanent": "thopter"},
    "tap": {"type": "tap", "permanent": "hydra"},
    "untap": {"type": "untap", "permanent": "hydra"},
    "enter": {"type": "enter", "card": "Feral Hydra", "controller": "P1", "x": 3},
    "concede": {"type": "concede", "player": "P2"},
    "counter": {"type": "counter", "object": "s4", "source": "Counterspell"},
    "note": {"type": "note", "text": "L2 ruling: Bolt was cast before the trigger resolved"},
    "cast": {"type": "cast", "player": "P1", "card": "Feral Hydra", "x": 4},
    "play_land": {"type": "play_land", "player": "P1", "card": "Forest"},
    "attack": {"type": "attack", "player": "P1", "attackers": [{"permanent": "moth", "attacks": {"player": "P2"}}]},
    "activate": {
        "type": "activate",
        "player": "P1",
        "permanent": "throne",
        "ability": 0,
        "costs": {"sacrifice": ["thopter"]},
    },
}


class Tournament(BaseModel):
    event: str | None = None
    round: int | None = None
    table: int | None = None


class PlayerSetup(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    name: str | None = None
    team: str | None = None
    life: int | None = None
    counters: dict[str, int] | None = None
    library: list[CardRef] | None = None
    library_size: int | None = None
    hand: list[CardRef] | None = None
    hand_size: int | None = None
    graveyard: list[CardRef] | None = None


class PermanentSetup(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    card: CardRef
    controller: str
    owner: str | None = None
    counters: dict[str, int] | None = None
    tapped: bool = False
    entered_this_turn: bool = False
    token: bool = False


class TurnSetup(BaseModel):
    number: int = 1
    active_player: str | None = None
    step: str = "untap"


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="allow")
    game_id: str | None = None
    variant: Literal["two_player", "multiplayer", "two_headed_giant", "archenemy"]
    rules_edition: str | None = None
    tournament: Tournament | None = None
    players: list[PlayerSetup]
    teams: dict[str, Any] | None = None
    battlefield: list[PermanentSetup] | None = None
    turn: TurnSetup | None = None


GAME_CREATE_EXAMPLE: dict[str, Any] = {
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


class Undo(BaseModel):
    to_version: Annotated[int, Field(ge=1)] | None = None
    actions: Annotated[int, Field(ge=1)] | None = None
    reason: str


class TokenCreate(BaseModel):
    name: str
    role: Literal["spectator", "player", "scorekeeper", "judge", "admin"]
    game_id: str | None = None
    player_id: str | None = None


class TokenCreated(BaseModel):
    token: str
    name: str
    role: str
    game_id: str | None = None
    player_id: str | None = None


class Actor(BaseModel):
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
    mana_pool: dict[str, int]


class TeamState(_Open):
    players: list[str]
    life: int | None
    counters: dict[str, int]
    lost: bool


class PermanentState(_Open):
    name: str
    card: dict[str, Any]
    owner: str
    controller: str
    tapped: bool
    counters: dict[str, int]
    summoning_sick: bool
    token: bool


class StackItem(_Open):
    id: str
    kind: Literal["trigger", "ability", "spell"]
    controller: str
    source: str | None
    description: str
    needs: list[str] = Field(description="choices `resolve` must carry for this object")


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


class GameOut(BaseModel):
    game_id: str
    version: int
    state: State


class ActionOut(BaseModel):
    action_id: str
    version: int
    events: list[EventOut]
    state: State


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


class CardOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    type_line: str
    implemented: bool


def component_schemas() -> dict[str, Any]:
    """JSON schemas of the request bodies the routes read raw, for ``components.schemas``."""
    out: dict[str, Any] = {}
    models: tuple[tuple[str, Any], ...] = (("Action", Action), ("GameCreate", GameCreate), ("Undo", Undo))
    for name, model in models:
        adapter: TypeAdapter[Any] = TypeAdapter(model)
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
