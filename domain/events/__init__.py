"""Domain events: past-tense facts, each recording a resolved outcome.

One frozen dataclass per event type (``domain.events.base``), grouped by topic in this package;
importing it registers them all. Events record outcomes (which cards were milled, which objects
were chosen, which ids were given), never requests, so folding them never needs hidden
information or chance. ``docs/events.md`` is the catalogue; its field reference is generated from
these classes (``domain.events.catalogue``) and checked by a test.
"""

from __future__ import annotations

from domain.events.base import (
    DomainEvent,
    Event,
    EventFormatError,
    EventHandlers,
    FieldSpec,
    event_class,
    event_classes,
)
from domain.events.battlefield import (
    AttackersDeclared,
    ControlChanged,
    ManaAdded,
    ManaPoolEmptied,
    PermanentEntered,
    PermanentLeft,
    PermanentTapped,
    PermanentUntapped,
    PowerToughnessModified,
)
from domain.events.counters_life import (
    CountersAdded,
    CountersRemoved,
    DamageDealt,
    LifeGained,
    LifeLost,
    Proliferated,
)
from domain.events.designations import DesignationChanged, DungeonCompleted, RoomEntered
from domain.events.game import GameStarted, StepBegan, TurnBegan
from domain.events.judging import (
    DeckChecked,
    JudgeCallAnswered,
    JudgeCallOpened,
    PenaltyGiven,
    ReportAcknowledged,
    ReportAwaitingAcknowledgement,
    ReportDisputed,
    TimeExtended,
)
from domain.events.record import ActionsReverted, GameEnded, NoteAdded, PlayerLost, TeamLost
from domain.events.stack import (
    AbilityActivated,
    SpellCast,
    StackObjectCountered,
    StackObjectResolved,
    TriggerPutOnStack,
    TriggersPending,
)
from domain.events.zones import CardsDrawn, CardsMilled, CardsMoved

# Stored type names, for code that reads stored records (which carry the name, not the class).
GAME_STARTED = GameStarted.TYPE
TURN_BEGAN = TurnBegan.TYPE
STEP_BEGAN = StepBegan.TYPE
TRIGGERS_PENDING = TriggersPending.TYPE
TRIGGER_PUT_ON_STACK = TriggerPutOnStack.TYPE
STACK_OBJECT_RESOLVED = StackObjectResolved.TYPE
STACK_OBJECT_COUNTERED = StackObjectCountered.TYPE
SPELL_CAST = SpellCast.TYPE
ABILITY_ACTIVATED = AbilityActivated.TYPE
COUNTERS_ADDED = CountersAdded.TYPE
COUNTERS_REMOVED = CountersRemoved.TYPE
LIFE_LOST = LifeLost.TYPE
LIFE_GAINED = LifeGained.TYPE
DAMAGE_DEALT = DamageDealt.TYPE
CARDS_MILLED = CardsMilled.TYPE
CARDS_DRAWN = CardsDrawn.TYPE
PROLIFERATED = Proliferated.TYPE
PERMANENT_ENTERED = PermanentEntered.TYPE
PERMANENT_LEFT = PermanentLeft.TYPE
PERMANENT_TAPPED = PermanentTapped.TYPE
PERMANENT_UNTAPPED = PermanentUntapped.TYPE
MANA_ADDED = ManaAdded.TYPE
MANA_POOL_EMPTIED = ManaPoolEmptied.TYPE
PLAYER_LOST = PlayerLost.TYPE
TEAM_LOST = TeamLost.TYPE
GAME_ENDED = GameEnded.TYPE
NOTE_ADDED = NoteAdded.TYPE
ACTIONS_REVERTED = ActionsReverted.TYPE
ATTACKERS_DECLARED = AttackersDeclared.TYPE
CONTROL_CHANGED = ControlChanged.TYPE
CARDS_MOVED = CardsMoved.TYPE
POWER_TOUGHNESS_MODIFIED = PowerToughnessModified.TYPE
DESIGNATION_CHANGED = DesignationChanged.TYPE
ROOM_ENTERED = RoomEntered.TYPE
DUNGEON_COMPLETED = DungeonCompleted.TYPE
JUDGE_CALL_OPENED = JudgeCallOpened.TYPE
JUDGE_CALL_ANSWERED = JudgeCallAnswered.TYPE
PENALTY_GIVEN = PenaltyGiven.TYPE
TIME_EXTENDED = TimeExtended.TYPE
DECK_CHECKED = DeckChecked.TYPE
REPORT_AWAITING_ACKNOWLEDGEMENT = ReportAwaitingAcknowledgement.TYPE
REPORT_ACKNOWLEDGED = ReportAcknowledged.TYPE
REPORT_DISPUTED = ReportDisputed.TYPE
#: Judge records: never reverted by a backup (domain.undo).
JUDGE_RECORD_TYPES = frozenset(
    {NOTE_ADDED, JUDGE_CALL_OPENED, JUDGE_CALL_ANSWERED, PENALTY_GIVEN, TIME_EXTENDED, DECK_CHECKED}
)

#: Every stored event type name, in catalogue order.
EVENT_TYPES: tuple[str, ...] = tuple(cls.TYPE for cls in event_classes())


def player_target(player_id: str) -> dict[str, str]:
    return {"player": player_id}


def permanent_target(permanent_id: str) -> dict[str, str]:
    return {"permanent": permanent_id}


__all__ = [
    "EVENT_TYPES",
    "AbilityActivated",
    "ActionsReverted",
    "AttackersDeclared",
    "CardsDrawn",
    "CardsMilled",
    "CardsMoved",
    "ControlChanged",
    "CountersAdded",
    "CountersRemoved",
    "DamageDealt",
    "DeckChecked",
    "DesignationChanged",
    "DomainEvent",
    "DungeonCompleted",
    "Event",
    "EventFormatError",
    "EventHandlers",
    "FieldSpec",
    "GameEnded",
    "GameStarted",
    "JudgeCallAnswered",
    "JudgeCallOpened",
    "LifeGained",
    "LifeLost",
    "ManaAdded",
    "ManaPoolEmptied",
    "NoteAdded",
    "PenaltyGiven",
    "PermanentEntered",
    "PermanentLeft",
    "PermanentTapped",
    "PermanentUntapped",
    "PlayerLost",
    "PowerToughnessModified",
    "Proliferated",
    "ReportAcknowledged",
    "ReportAwaitingAcknowledgement",
    "ReportDisputed",
    "RoomEntered",
    "SpellCast",
    "StackObjectCountered",
    "StackObjectResolved",
    "StepBegan",
    "TeamLost",
    "TimeExtended",
    "TriggerPutOnStack",
    "TriggersPending",
    "TurnBegan",
    "event_class",
    "event_classes",
    "permanent_target",
    "player_target",
]
