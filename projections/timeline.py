"""A game's events as readable lines, grouped by turn and step (``GET /v1/games/{id}/timeline``).

Each line is the event's sentence (``projections.sentences``) followed by its cause and rule, e.g.
``P1 mills Lightning Bolt, Forest, Grizzly Bears (radiation, CR 728.1)``. Lines are shown to any
reader, so hidden information stays out: drawn cards are counted, never named.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain import events as ev
from projections.sentences import describe
from store.results import RecordedEvent


def _position(event: RecordedEvent, turn: int, step: str) -> tuple[int, str]:
    """The (turn, step) the game is in once ``event`` has happened."""
    d = event.data
    if event.type == ev.GAME_STARTED:
        return int(d["turn"]["number"]), str(d["turn"]["step"])
    if event.type == ev.TURN_BEGAN:
        return int(d["number"]), "untap"
    if event.type == ev.STEP_BEGAN:
        return turn, str(d["step"])
    if event.type == ev.ACTIONS_REVERTED:
        restored = d["restored_state"]["turn"]
        return int(restored["number"]), str(restored["step"])
    return turn, step


def timeline(
    events: Iterable[RecordedEvent], start: tuple[int, str] = (0, ""), following: str | None = None
) -> list[dict[str, Any]]:
    """Readable lines in log order, a new group each time the turn or step changes; ``start`` is
    the (turn, step) before the first event (a page after the first). Each line says whether it
    ``ends_action`` (the versions a backup may go back to, docs/judges.md), so a reader can step
    by action; ``following`` is the action id of the event after the last one given (a page that
    stops inside an action), ``None`` at the head."""
    groups: list[dict[str, Any]] = []
    turn, step = start
    previous: dict[str, Any] | None = None
    for event in events:
        turn, step = _position(event, turn, step)
        if not groups or (groups[-1]["turn"], groups[-1]["step"]) != (turn, step):
            groups.append({"turn": turn, "step": step, "lines": []})
        current = line(event)
        if previous is not None:
            previous["ends_action"] = previous["action_id"] != current["action_id"]
        groups[-1]["lines"].append(current)
        previous = current
    if previous is not None:
        previous["ends_action"] = previous["action_id"] != following
    return groups


def line(event: RecordedEvent) -> dict[str, Any]:
    return {
        "version": event.version,
        "type": event.type,
        "text": describe(event.type, event.data, event.rule),
        "reverted": event.reverted,
        "rule": event.rule,
        "actor": event.actor.to_json(),
        "action_id": event.action_id,
        "recorded_at": event.recorded_at,
    }


def texts(groups: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every line's text, in order (for tests and logs)."""
    return [ln["text"] for g in groups for ln in g["lines"]]
