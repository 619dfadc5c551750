"""Which abilities an event triggers (CR 603.2), inherent ones and those of automated cards."""

from __future__ import annotations

from collections.abc import Iterator

from domain import events as ev
from domain.cards.behaviour import TriggerSpec, behaviour_of
from domain.cards.model import chapter_numbers
from domain.rules.radiation import radiation_triggers
from domain.state import GameState, Permanent

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII"}


def detect_triggers(before: GameState, event: ev.Event, after: GameState) -> list[TriggerSpec]:
    """Every ability that triggers on ``event``, in battlefield order (inherent ones first)."""
    found: list[TriggerSpec] = []
    if event.type == ev.STEP_BEGAN and event.data["step"] == "precombat_main":
        found.extend(radiation_triggers(after))
    found.extend(_saga_chapters(before, event, after))
    for perm in _watching_permanents(before, event, after):
        behaviour = behaviour_of(perm.card.name)
        if behaviour is None:
            continue
        for watcher in behaviour.watchers:
            found.extend(watcher(perm, before, event, after))
    return found


def _watching_permanents(before: GameState, event: ev.Event, after: GameState) -> Iterator[Permanent]:
    yield from after.battlefield.values()
    if event.type == ev.PERMANENT_LEFT:
        # Leaves-the-battlefield abilities "look back in time" (CR 603.10a): last-known information.
        left = before.battlefield.get(event.data["permanent"])
        if left is not None:
            yield left


def _saga_chapters(before: GameState, event: ev.Event, after: GameState) -> list[TriggerSpec]:
    """A chapter ability triggers as lore counters reach its number (CR 714.2b)."""
    if event.type == ev.COUNTERS_ADDED and event.data["kind"] == "lore":
        perm_id = event.data["target"].get("permanent")
        if perm_id is None:
            return []
        old = before.battlefield[perm_id].counters.get("lore", 0)
    elif event.type == ev.PERMANENT_ENTERED:
        perm_id = event.data["permanent"]["id"]
        old = 0
    else:
        return []
    perm = after.battlefield.get(perm_id)
    if perm is None or not perm.card.is_saga:
        return []
    new = perm.counters.get("lore", 0)
    behaviour = behaviour_of(perm.card.name)
    specs = []
    for number in chapter_numbers(perm.card):
        if old < number <= new:
            chapter = behaviour.chapters.get(number) if behaviour else None
            specs.append(
                TriggerSpec(
                    controller=perm.controller,
                    source=perm.id,
                    description=chapter.description
                    if chapter
                    else f"{perm.card.name}, chapter {ROMAN.get(number, number)} (reported by hand)",
                    effect=chapter.effect if chapter else "described",
                    params={"chapter": number},
                )
            )
    return specs
