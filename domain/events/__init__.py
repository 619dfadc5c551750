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
    find_event_class,
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
from domain.events.game import FirstPlayerChosen, GameStarted, HandKept, MulliganTaken, StepBegan, TurnBegan
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

#: Judge records: a judge's work, not a game action. A backup never reverts them, and the state
#: it restores keeps what they recorded (``domain.undo``, ``GameState.judging``).
JUDGE_RECORDS: frozenset[type[DomainEvent]] = frozenset(
    {NoteAdded, JudgeCallOpened, JudgeCallAnswered, PenaltyGiven, TimeExtended, DeckChecked}
)
#: A player's answer to a report: not a game action either, but reverted with the report it
#: answers by a backup past it (``domain.undo``).
REPORT_ANSWERS: frozenset[type[DomainEvent]] = frozenset({ReportAcknowledged, ReportDisputed})

#: Every stored event type name, in catalogue order.
EVENT_TYPES: tuple[str, ...] = tuple(cls.TYPE for cls in event_classes())


def player_target(player_id: str) -> dict[str, str]:
    return {"player": player_id}


def permanent_target(permanent_id: str) -> dict[str, str]:
    return {"permanent": permanent_id}


__all__ = [
    "EVENT_TYPES",
    "JUDGE_RECORDS",
    "REPORT_ANSWERS",
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
    "FirstPlayerChosen",
    "GameEnded",
    "GameStarted",
    "HandKept",
    "JudgeCallAnswered",
    "JudgeCallOpened",
    "LifeGained",
    "LifeLost",
    "ManaAdded",
    "ManaPoolEmptied",
    "MulliganTaken",
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
    "find_event_class",
    "permanent_target",
    "player_target",
]
