"""The objects a game state is made of: players, teams, permanents, stack objects, pending
trigger groups, the turn and the result. Each is frozen and serialises itself where events record
it (``Player.from_json``, ``Permanent.to_json``/``from_json``, ``StackObject``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.cards.model import Card
from domain.values import Counts

MANA_TYPES: tuple[str, ...] = ("W", "U", "B", "R", "G", "C")
EMPTY_POOL: Mapping[str, int] = {m: 0 for m in MANA_TYPES}


def _cards(raw: Any) -> tuple[Card, ...]:
    return tuple(Card.from_json(c) for c in raw or ())


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
    graveyard_unnamed: int = 0
    """Cards in the graveyard nobody named: milled from the unknown part of the library with only
    their nonland count reported (CR 701.17, 728.1); ``graveyard`` lists the named ones."""
    exile: tuple[Card, ...] = ()
    mana_pool: Counts = field(default_factory=lambda: dict(EMPTY_POOL))
    lost: bool = False
    loss_reason: str | None = None
    drew_from_empty: bool = False
    """Set by a draw from an empty library; read by the next SBA check (CR 704.5b)."""
    lands_played: int = 0
    """Lands played this turn (CR 305.2)."""
    commanders: tuple[str, ...] = ()
    """Names of the player's commanders (CR 903.3: the designation stays with the card)."""
    command: tuple[Card, ...] = ()
    """The player's cards in the command zone (their commanders there, CR 903.6)."""
    commander_casts: Counts = field(default_factory=dict)
    """Times each commander was cast from the command zone: its tax is 2 each (CR 903.8)."""
    commander_damage: Counts = field(default_factory=dict)
    """Combat damage dealt to this player by each commander, keyed ``OWNER:Name`` (CR 903.10a)."""
    dungeon: str | None = None
    """The dungeon the player's venture marker is in (CR 309, 701.49), if any."""
    room: str | None = None
    """The room of ``dungeon`` the venture marker is on."""
    city_blessing: bool = False
    """The city's blessing, kept for the rest of the game (CR 702.131)."""
    spells_cast: int = 0
    """Spells cast this turn (read by the day/night check, CR 731.2)."""
    mulligans: int = 0
    """Mulligans taken before the game's first turn (CR 103.5)."""
    hand_kept: bool = False
    """The player kept their opening hand (CR 103.5): no further mulligans."""

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Player:
        """A player as ``GameStarted`` records it (the zones the server tracks), or as the
        serialised state holds it (``domain.serialize``: the fields after ``exile``, each only
        when it differs from its default)."""
        commanders = tuple(c if isinstance(c, str) else Card.from_json(c).name for c in raw.get("commanders") or ())
        # GameStarted lists the commanders as cards, all in the command zone (903.6); a
        # serialised state names them and lists the command zone apart.
        command = _cards(raw["command"]) if "command" in raw else _cards(raw.get("commanders"))
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
            commanders=commanders,
            command=command,
            commander_casts=dict(raw.get("commander_casts") or {}),
            commander_damage=dict(raw.get("commander_damage") or {}),
            dungeon=raw.get("dungeon"),
            room=raw.get("room"),
            city_blessing=bool(raw.get("city_blessing", False)),
            spells_cast=int(raw.get("spells_cast", 0)),
            graveyard_unnamed=int(raw.get("graveyard_unnamed", 0)),
            mulligans=int(raw.get("mulligans", 0)),
            hand_kept=bool(raw.get("hand_kept", False)),
        )

    def commander_tax(self, name: str) -> int:
        """Generic mana added to the cost of casting commander ``name`` from the command zone (903.8)."""
        return 2 * self.commander_casts.get(name, 0)

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
