"""``Builder``: collects the events of one command while keeping a working state.

``decide`` is pure: it never stores anything. It runs the rules against a working copy of the
state; each fact is emitted as an event and folded at once (so later rules see it), and the
triggers each event causes are collected for the next time a player would receive priority.

Trigger detection is handed in (``domain.decide`` passes ``domain.rules.triggers``): the rules
and card modules emit through a builder, and trigger detection reads the card behaviours, so a
builder that imported the detector itself would close an import loop through every card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from domain.cards.behaviour import TriggerSpec
from domain.events import DomainEvent, Event
from domain.evolve import evolve
from domain.state import GameState, StackObject


class TriggerContext(Protocol):
    """What the command being decided has produced so far (a ``Builder``)."""

    events: list[Event]
    fired: list[StackObject]


#: Every ability that triggers on one event: state before, the event, state after, the builder.
TriggerDetector = Callable[[GameState, Event, GameState, TriggerContext], Iterable[TriggerSpec]]


class Builder:
    """The working state and the events of one command, in order."""

    def __init__(self, state: GameState, detect: TriggerDetector) -> None:
        self.state = state
        self.events: list[Event] = []
        self.fired: list[StackObject] = []
        """Triggered abilities waiting to be put on the stack (CR 603.3)."""
        self.replacement_order: tuple[str, ...] = ()
        """Ids of replacement-effect sources in the order the affected side chose to apply them,
        where several apply to one event (CR 616.1); empty: the server's default."""
        self._detect = detect
        self._seq = state.next_seq

    def emit(self, payload: DomainEvent, rule: str | None = None) -> Event:
        """Record one event, fold it, and collect what it triggers."""
        event = Event(payload, rule)
        before = self.state
        self.state = evolve(before, event)
        self.events.append(event)
        for spec in self._detect(before, event, self.state, self):
            self.fired.append(self.stack_object(spec))
        return event

    def next_seq(self) -> int:
        """A fresh number for a server-chosen id; events carry it as ``seq``."""
        seq = max(self._seq, self.state.next_seq)
        self._seq = seq + 1
        return seq

    def stack_object(self, spec: TriggerSpec) -> StackObject:
        seq = self.next_seq()
        params = dict(spec.params)
        params["seq"] = seq
        return StackObject(
            id=f"s{seq}",
            kind="trigger",
            controller=spec.controller,
            source=spec.source,
            description=spec.description,
            effect=spec.effect,
            params=params,
        )
