"""Which abilities an event triggers (CR 603.2), inherent ones and those of automated cards.

- Inherent: the rad trigger (728.1), Saga chapters (714.2b), the monarch's and the initiative's
  triggers (725.2, 726.2) and dungeon room abilities (309.4c).
- Cards on the battlefield: each ``Behaviour.watchers`` entry sees every event.
- Leaves-the-battlefield abilities "look back in time" (603.10a): the permanent that just left
  is asked too, as it last existed, and so is every permanent that left in the same batch of
  simultaneous departures (for example creatures destroyed by one state-based action check):
  when Feral Ghoul dies together with another creature, its "whenever another creature you
  control dies" still triggers. A batch is the run of consecutive ``PermanentLeft`` events.
- Cards in graveyards: ``Behaviour.graveyard_watchers`` (Infesting Radroach).
- "This ability triggers only once each turn": a trigger whose params carry ``once_per_turn``
  is dropped when that key is already in ``GameState.turn_memory`` or among the triggers
  waiting to be put on the stack.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from domain import events as ev
from domain.builder import TriggerContext
from domain.cards.behaviour import TriggerSpec, behaviour_of
from domain.cards.model import chapter_numbers
from domain.rules.designations import designation_triggers
from domain.rules.dungeons import room_triggers
from domain.rules.radiation import radiation_triggers
from domain.state import GameState, Permanent, StackObject

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII"}


def detect_triggers(
    before: GameState, event: ev.Event, after: GameState, context: TriggerContext | None = None
) -> list[TriggerSpec]:
    """Every ability that triggers on ``event``, in battlefield order (inherent ones first)."""
    found: list[TriggerSpec] = []
    if isinstance(event.payload, ev.StepBegan) and event.payload.step == "precombat_main":
        found.extend(radiation_triggers(after))
    found.extend(_saga_chapters(before, event, after))
    found.extend(designation_triggers(before, event, after, context))
    found.extend(room_triggers(event))
    for perm in _watching_permanents(before, event, after, context):
        behaviour = behaviour_of(perm.card.name)
        if behaviour is None:
            continue
        for watcher in behaviour.watchers:
            found.extend(watcher(perm, before, event, after))
    for player in after.players.values():
        for card in player.graveyard:
            behaviour = behaviour_of(card.name)
            if behaviour is None:
                continue
            for gy_watcher in behaviour.graveyard_watchers:
                found.extend(gy_watcher(card, player.id, before, event, after))
    return _once_each_turn(found, after, context.fired if context is not None else ())


def _once_each_turn(found: list[TriggerSpec], after: GameState, waiting: Sequence[StackObject]) -> list[TriggerSpec]:
    used = set(after.turn_memory)
    used.update(str(o.params["once_per_turn"]) for o in waiting if o.params.get("once_per_turn"))
    kept = []
    for spec in found:
        key = spec.params.get("once_per_turn")
        if key:
            if key in used:
                continue
            used.add(str(key))
        kept.append(spec)
    return kept


def _left_in_same_batch(context: TriggerContext | None) -> list[Permanent]:
    """Permanents that left just before this event, in the same run of departures (603.10a)."""

    if context is None:
        return []
    out = []
    for earlier in reversed(context.events[:-1]):
        if not isinstance(earlier.payload, ev.PermanentLeft):
            break
        out.append(Permanent.from_json(earlier.payload.last_known))
    return out


def _watching_permanents(
    before: GameState, event: ev.Event, after: GameState, context: TriggerContext | None
) -> Iterator[Permanent]:
    yield from after.battlefield.values()
    if isinstance(event.payload, ev.PermanentLeft):
        # Leaves-the-battlefield abilities "look back in time" (CR 603.10a): last-known information.
        seen = set(after.battlefield)
        left = before.battlefield.get(event.payload.permanent)
        if left is not None:
            seen.add(left.id)
            yield left
        for other in _left_in_same_batch(context):
            if other.id not in seen:
                seen.add(other.id)
                yield other


def _saga_chapters(before: GameState, event: ev.Event, after: GameState) -> list[TriggerSpec]:
    """A chapter ability triggers as lore counters reach its number (CR 714.2b)."""
    e = event.payload
    if isinstance(e, ev.CountersAdded) and e.kind == "lore":
        perm_id = e.target.get("permanent")
        if perm_id is None:
            return []
        old = before.battlefield[perm_id].counters.get("lore", 0)
    elif isinstance(e, ev.PermanentEntered):
        perm_id = e.permanent["id"]
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
            params: dict[str, object] = {"chapter": number}
            if chapter is not None and chapter.needs:
                params["needs"] = list(chapter.needs)
            specs.append(
                TriggerSpec(
                    controller=perm.controller,
                    source=perm.id,
                    description=chapter.description
                    if chapter
                    else f"{perm.card.name}, chapter {ROMAN.get(number, number)} (reported by hand)",
                    effect=chapter.effect if chapter else "described",
                    params=params,
                )
            )
    return specs
