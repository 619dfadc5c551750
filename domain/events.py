"""Domain events: past-tense facts, each recording a resolved outcome.

An event is a type name, a JSON-native ``data`` mapping and, where a rule made it happen, the rule
(``CR 728.1``). Events record outcomes (which cards were milled, which objects were chosen, which
ids were given), never requests, so folding them never needs hidden information or chance. The
catalogue with every field is ``docs/events.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

GAME_STARTED = "GameStarted"
TURN_BEGAN = "TurnBegan"
STEP_BEGAN = "StepBegan"
TRIGGERS_PENDING = "TriggersPending"
TRIGGER_PUT_ON_STACK = "TriggerPutOnStack"
STACK_OBJECT_RESOLVED = "StackObjectResolved"
STACK_OBJECT_COUNTERED = "StackObjectCountered"
SPELL_CAST = "SpellCast"
ABILITY_ACTIVATED = "AbilityActivated"
COUNTERS_ADDED = "CountersAdded"
COUNTERS_REMOVED = "CountersRemoved"
LIFE_LOST = "LifeLost"
LIFE_GAINED = "LifeGained"
DAMAGE_DEALT = "DamageDealt"
CARDS_MILLED = "CardsMilled"
CARDS_DRAWN = "CardsDrawn"
PROLIFERATED = "Proliferated"
PERMANENT_ENTERED = "PermanentEntered"
PERMANENT_LEFT = "PermanentLeft"
PERMANENT_TAPPED = "PermanentTapped"
PERMANENT_UNTAPPED = "PermanentUntapped"
MANA_ADDED = "ManaAdded"
MANA_POOL_EMPTIED = "ManaPoolEmptied"
PLAYER_LOST = "PlayerLost"
TEAM_LOST = "TeamLost"
GAME_ENDED = "GameEnded"
NOTE_ADDED = "NoteAdded"
ACTIONS_REVERTED = "ActionsReverted"
# Extra vocabulary (the API allows more than its minimum), used by automated cards:
ATTACKERS_DECLARED = "AttackersDeclared"
CONTROL_CHANGED = "ControlChanged"
CARDS_MOVED = "CardsMoved"
POWER_TOUGHNESS_MODIFIED = "PowerToughnessModified"

#: Every event type the kernel emits (``ActionsReverted`` is folded by the projections).
EVENT_TYPES: tuple[str, ...] = (
    GAME_STARTED,
    TURN_BEGAN,
    STEP_BEGAN,
    TRIGGERS_PENDING,
    TRIGGER_PUT_ON_STACK,
    STACK_OBJECT_RESOLVED,
    STACK_OBJECT_COUNTERED,
    SPELL_CAST,
    ABILITY_ACTIVATED,
    COUNTERS_ADDED,
    COUNTERS_REMOVED,
    LIFE_LOST,
    LIFE_GAINED,
    DAMAGE_DEALT,
    CARDS_MILLED,
    CARDS_DRAWN,
    PROLIFERATED,
    PERMANENT_ENTERED,
    PERMANENT_LEFT,
    PERMANENT_TAPPED,
    PERMANENT_UNTAPPED,
    MANA_ADDED,
    MANA_POOL_EMPTIED,
    PLAYER_LOST,
    TEAM_LOST,
    GAME_ENDED,
    NOTE_ADDED,
    ACTIONS_REVERTED,
    ATTACKERS_DECLARED,
    CONTROL_CHANGED,
    CARDS_MOVED,
    POWER_TOUGHNESS_MODIFIED,
)


@dataclass(frozen=True, slots=True)
class Event:
    """One domain fact."""

    type: str
    """One of ``EVENT_TYPES``."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """JSON-native fields (see docs/events.md)."""
    rule: str | None = None
    """The rule that made it happen, e.g. ``CR 704.5a``; ``None`` for reported facts."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "data": dict(self.data)}
        if self.rule is not None:
            out["rule"] = self.rule
        return out

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> Event:
        return Event(type=raw["type"], data=dict(raw.get("data") or {}), rule=raw.get("rule"))


def player_target(player_id: str) -> dict[str, str]:
    return {"player": player_id}


def permanent_target(permanent_id: str) -> dict[str, str]:
    return {"permanent": permanent_id}
