"""Immutable game-state values.

``GameState`` is what the fold of a game's events gives. Every value is frozen; mappings are
never mutated after construction (a change builds a new mapping), so an old state stays valid
for replay and for undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

from domain.cards.model import Card

#: Kinds of "once each turn" memories kept about one object: a loyalty ability was activated
#: (CR 606.3), an ability that "triggers only once each turn" triggered, an ability's "do this
#: only once each turn" was done (CR 603.2h).
OBJECT_MEMORY_KINDS = ("loyalty", "once", "done")


def object_memory(kind: str, object_id: str, ability: str | None = None) -> str:
    """The ``turn_memory`` key of a "once each turn" fact about one object (and one ability)."""
    return f"{kind}:{object_id}" if ability is None else f"{kind}:{object_id}:{ability}"


def forget_object(memory: frozenset[str], object_id: str) -> frozenset[str]:
    """``memory`` less every fact about ``object_id``: an object that leaves the battlefield and
    comes back is a new object with no memory of its previous existence (CR 400.7), even when
    the report gives it the same id."""
    mine = tuple(prefix for kind in OBJECT_MEMORY_KINDS for prefix in (f"{kind}:{object_id}",))
    return frozenset(k for k in memory if not any(k == p or k.startswith(p + ":") for p in mine))


def _cards(raw: Any) -> tuple[Card, ...]:
    return tuple(Card.from_json(c) for c in raw or ())


Variant = Literal["two_player", "multiplayer", "two_headed_giant", "archenemy"]
VARIANTS: tuple[Variant, ...] = ("two_player", "multiplayer", "two_headed_giant", "archenemy")
TEAM_VARIANTS = frozenset({"two_headed_giant", "archenemy"})

#: Steps in turn order (CR 500.1); the two main phases have no steps and count as one here.
STEPS: tuple[str, ...] = (
    "untap",
    "upkeep",
    "draw",
    "precombat_main",
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "combat_damage",
    "end_of_combat",
    "postcombat_main",
    "end",
    "cleanup",
)
MANA_TYPES: tuple[str, ...] = ("W", "U", "B", "R", "G", "C")
EMPTY_POOL: Mapping[str, int] = {m: 0 for m in MANA_TYPES}
#: The current Comprehensive Rules edition this server implements (effective date).
CURRENT_EDITION = "2026-04-17"
#: War of the Spark's release: proliferate gives one counter of each kind from here on.
PROLIFERATE_EACH_KIND_SINCE = "2019-05-03"

Counts = Mapping[str, int]
_T = TypeVar("_T")
_FIELD_NAMES: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace`` for the kernel's frozen dataclasses (none has ``__post_init__``
    or a field left out of ``__init__``): the same new value, built field by field without
    ``__init__``'s per-call bookkeeping. The fold (``domain.evolve``) makes two or three per
    event, and this makes ``domain.fold`` about 40% faster (docs/performance.md)."""
    cls = type(obj)
    known = _FIELD_NAMES.get(cls)
    if known is None:
        names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
        known = _FIELD_NAMES[cls] = (names, frozenset(names))
    names, allowed = known
    if not allowed.issuperset(changes):
        raise TypeError(f"{cls.__qualname__} has no field(s) {sorted(set(changes) - allowed)}")
    new = object.__new__(cls)
    for name in names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


def with_count(counts: Counts, kind: str, delta: int) -> dict[str, int]:
    """A copy of ``counts`` with ``kind`` changed by ``delta``; kinds at zero are dropped."""
    out = dict(counts)
    value = out.get(kind, 0) + delta
    if value > 0:
        out[kind] = value
    else:
        out.pop(kind, None)
    return out


@dataclass(frozen=True, slots=True)
class Player:
    """One player: life, counters and the zones the server tracks."""

    id: str
    name: str
    team: str | None
    life: int
    """Own life; in Two-Headed Giant the team's shared total is authoritative (CR 810.9)."""
    counters: Counts = field(default_factory=dict)
    library: tuple[Card, ...] = ()
    """Known library cards, top first."""
    library_unknown: int = 0
    """How many unknown cards lie below the known ones (paper play)."""
    hand: tuple[Card, ...] = ()
    hand_unknown: int = 0
    graveyard: tuple[Card, ...] = ()
    exile: tuple[Card, ...] = ()
    mana_pool: Counts = field(default_factory=lambda: dict(EMPTY_POOL))
    lost: bool = False
    loss_reason: str | None = None
    drew_from_empty: bool = False
    """Set by a draw from an empty library; read by the next SBA check (CR 704.5b)."""
    lands_played: int = 0
    """Lands played this turn (CR 305.2)."""

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Player:
        """A player as ``GameStarted`` records it (the zones the server tracks)."""
        return Player(
            id=raw["id"],
            name=raw.get("name") or raw["id"],
            team=raw.get("team"),
            life=raw["life"],
            counters=dict(raw.get("counters") or {}),
            library=_cards(raw.get("library")),
            library_unknown=raw.get("library_unknown", 0),
            hand=_cards(raw.get("hand")),
            hand_unknown=raw.get("hand_unknown", 0),
            graveyard=_cards(raw.get("graveyard")),
            exile=_cards(raw.get("exile")),
        )

    @property
    def library_size(self) -> int:
        return len(self.library) + self.library_unknown

    @property
    def hand_size(self) -> int:
        return len(self.hand) + self.hand_unknown


@dataclass(frozen=True, slots=True)
class Team:
    """A team of a team variant. Life and poison are shared only in Two-Headed Giant."""

    id: str
    players: tuple[str, ...]
    life: int | None
    """Shared life (CR 810.9), or ``None`` when each player keeps their own."""
    counters: Counts = field(default_factory=dict)
    """Shared counters: poison in Two-Headed Giant (CR 810.10)."""
    lost: bool = False


@dataclass(frozen=True, slots=True)
class Permanent:
    """An object on the battlefield."""

    id: str
    card: Card
    owner: str
    controller: str
    tapped: bool = False
    counters: Counts = field(default_factory=dict)
    controlled_since_turn_began: bool = True
    """Under its controller's control continuously since their most recent turn began (302.6)."""
    token: bool = False
    damage: int = 0
    """Damage marked this turn (CR 120.3e); removed in the cleanup step (514.2)."""
    attached_to: str | None = None
    """The permanent this Aura enchants (CR 303.4), if any."""
    power_until_eot: int = 0
    """Power change from "gets +N/+N until end of turn" effects (layer 7c); ends at cleanup (514.2)."""
    toughness_until_eot: int = 0
    """Toughness change from "until end of turn" effects (layer 7c); ends at cleanup (514.2)."""
    controller_before_effects: str | None = None
    """Who controlled it before control-changing effects gave it to ``controller`` (``None``: no
    such effect applies). Those effects end when that player leaves the game (CR 800.4a)."""

    def to_json(self) -> dict[str, Any]:
        """The permanent as events record it (``PermanentEntered.permanent``, ``last_known``)."""
        out: dict[str, Any] = {
            "id": self.id,
            "card": self.card.to_json(),
            "owner": self.owner,
            "controller": self.controller,
            "tapped": self.tapped,
            "counters": dict(self.counters),
            "controlled_since_turn_began": self.controlled_since_turn_began,
            "token": self.token,
        }
        # Present only when set, so that the recorded shape of ordinary permanents doesn't change.
        if self.attached_to is not None:
            out["attached_to"] = self.attached_to
        if self.power_until_eot:
            out["power_until_eot"] = self.power_until_eot
        if self.toughness_until_eot:
            out["toughness_until_eot"] = self.toughness_until_eot
        if self.controller_before_effects is not None:
            out["controller_before_effects"] = self.controller_before_effects
        return out

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Permanent:
        """The permanent of ``to_json`` (marked damage is the serialised state's, not the event's)."""
        return Permanent(
            id=raw["id"],
            card=Card.from_json(raw["card"]),
            owner=raw["owner"],
            controller=raw["controller"],
            tapped=bool(raw.get("tapped", False)),
            counters=dict(raw.get("counters") or {}),
            controlled_since_turn_began=bool(raw.get("controlled_since_turn_began", False)),
            token=bool(raw.get("token", False)),
            attached_to=raw.get("attached_to"),
            power_until_eot=int(raw.get("power_until_eot", 0)),
            toughness_until_eot=int(raw.get("toughness_until_eot", 0)),
            controller_before_effects=raw.get("controller_before_effects"),
        )

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def summoning_sick(self) -> bool:
        """A creature that can't use {T}/{Q} abilities or attack yet (CR 302.6)."""
        return self.card.is_creature and not self.controlled_since_turn_began and not self.card.has_keyword("haste")

    def toughness(self) -> int | None:
        """Toughness with +1/+1 and -1/-1 counters (CR 122.1a) and until-end-of-turn changes,
        ``None`` if not a number."""
        base = self.card.int_stat(self.card.toughness)
        if base is None:
            return None
        return base + self.counters.get("+1/+1", 0) - self.counters.get("-1/-1", 0) + self.toughness_until_eot

    def power(self) -> int | None:
        """Power with +1/+1 and -1/-1 counters and until-end-of-turn changes, ``None`` if not a number."""
        base = self.card.int_stat(self.card.power)
        if base is None:
            return None
        return base + self.counters.get("+1/+1", 0) - self.counters.get("-1/-1", 0) + self.power_until_eot


@dataclass(frozen=True, slots=True)
class StackObject:
    """A spell, activated ability or triggered ability on the stack (or waiting to go there)."""

    id: str
    kind: Literal["trigger", "ability", "spell"]
    controller: str
    source: str | None
    """The source permanent's id, a card name for spells, or ``None`` (the rad trigger)."""
    description: str
    effect: str
    """Key of the resolution routine (``domain.rules.effects``); ``described`` does nothing."""
    params: Mapping[str, Any] = field(default_factory=dict)
    card: Card | None = None
    """The spell's card, or the source's card for abilities (last-known information)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "controller": self.controller,
            "source": self.source,
            "description": self.description,
            "effect": self.effect,
            "params": dict(self.params),
            "card": self.card.to_json() if self.card else None,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> StackObject:
        card = data.get("card")
        return StackObject(
            id=data["id"],
            kind=data["kind"],
            controller=data["controller"],
            source=data.get("source"),
            description=data["description"],
            effect=data["effect"],
            params=dict(data.get("params") or {}),
            card=Card.from_json(card) if card else None,
        )


@dataclass(frozen=True, slots=True)
class PendingGroup:
    """Triggers of one controller (or team) waiting for that side to choose their order."""

    controller: str
    triggers: tuple[StackObject, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    number: int
    active_player: str
    active_team: str | None
    step: str


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[str, ...]
    draw: bool


@dataclass(frozen=True, slots=True)
class Judging:
    """The judge records of a game (``domain.events.judging``): never reverted by a backup, so a
    revert's restored state keeps the head's (``domain.judging.with_judging``). Each record is
    its event's JSON data."""

    calls: tuple[Mapping[str, Any], ...] = ()
    """Judge calls, oldest first, each with ``open`` and, once answered, ``ruling``."""
    penalties: tuple[Mapping[str, Any], ...] = ()
    time_extensions: tuple[Mapping[str, Any], ...] = ()
    deck_checks: tuple[Mapping[str, Any], ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.calls or self.penalties or self.time_extensions or self.deck_checks)


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole state of one game at one version."""

    game_id: str
    variant: Variant
    rules_edition: str
    tournament: Mapping[str, Any] | None
    players: Mapping[str, Player]
    """Players in seating (and turn) order."""
    teams: Mapping[str, Team]
    battlefield: Mapping[str, Permanent]
    turn: Turn
    stack: tuple[StackObject, ...] = ()
    """Bottom first; the last object is the top."""
    pending: tuple[PendingGroup, ...] = ()
    """Trigger groups waiting for an order, in APNAP order; the first one is asked now."""
    status: Literal["in_progress", "finished"] = "in_progress"
    result: Result | None = None
    next_seq: int = 1
    """Next number for server-chosen object ids (stack objects, tokens)."""
    judging: Judging = Judging()
    """Judge calls, penalties, time extensions and deck checks (never reverted, IPG 1.4)."""
    reports: tuple[Mapping[str, Any], ...] = ()
    """Players' reports still unacknowledged by an affected player (``domain.judging``)."""
    turn_memory: frozenset[str] = frozenset()
    """What happened this turn that "only once each turn" abilities ask about; emptied as each
    turn begins. Keys about one object are ``object_memory`` keys, forgotten when it leaves."""

    # -- small read helpers used across the rules ------------------------------------------
    @property
    def shares_life(self) -> bool:
        """Two-Headed Giant: one life total and one poison count per team (CR 810.9, 810.10)."""
        return self.variant == "two_headed_giant"

    @property
    def shared_turns(self) -> bool:
        """Team variants take shared team turns (CR 805.4)."""
        return self.variant in TEAM_VARIANTS

    def player(self, player_id: str) -> Player:
        return self.players[player_id]

    def in_game(self) -> list[Player]:
        """Players who have not lost or left, in turn order."""
        return [p for p in self.players.values() if not p.lost]

    def life_of(self, player_id: str) -> int:
        """The life total rules read for a player (the team's in Two-Headed Giant)."""
        player = self.players[player_id]
        if self.shares_life and player.team is not None:
            team_life = self.teams[player.team].life
            if team_life is not None:
                return team_life
        return player.life

    def counters_of_player(self, player_id: str) -> dict[str, int]:
        """Counters a player has, including shared team counters (CR 810.10d)."""
        player = self.players[player_id]
        counts = dict(player.counters)
        if self.shares_life and player.team is not None:
            for kind, n in self.teams[player.team].counters.items():
                counts[kind] = counts.get(kind, 0) + n
        return counts

    def active_players(self) -> list[str]:
        """The active player, or every player of the active team in shared team turns."""
        if self.turn.active_team is not None:
            return [pid for pid in self.teams[self.turn.active_team].players if not self.players[pid].lost]
        if self.players[self.turn.active_player].lost:
            return []  # 800.4j: the turn of a player who left goes on without an active player
        return [self.turn.active_player]

    def apnap_sides(self) -> list[str]:
        """Sides in APNAP order (CR 101.4): players, or teams in shared team turns (805.7)."""
        if self.shared_turns:
            order = list(self.teams)
            start = order.index(self.turn.active_team) if self.turn.active_team in order else 0
            return order[start:] + order[:start]
        order = list(self.players)
        start = order.index(self.turn.active_player)
        return order[start:] + order[:start]

    def side_of(self, player_id: str) -> str:
        """The side a player's triggers are grouped under when ordering (805.7)."""
        team = self.players[player_id].team
        return team if self.shared_turns and team is not None else player_id

    @property
    def edition_before_war(self) -> bool:
        """Pinned to an edition before War of the Spark: proliferate chooses one kind."""
        return self.rules_edition < PROLIFERATE_EACH_KIND_SINCE
