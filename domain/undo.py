"""Undo by appending a revert (DESIGN.md, Undo): pure rules over a game's event history.

A revert at version ``r`` with ``to_version`` ``t`` makes the state equal to the state at ``t``
and flags versions ``t+1 .. r-1`` as reverted, except judge records (notes, judge calls,
penalties: ``JUDGE_RECORDS``), which are not game actions and are never reverted (IPG 1.4 backs
up game actions; the record of a judge's work stays). ``t`` must end an action: a backup reverses
whole actions, never part of one (``check_action_boundary``). Redo is a revert to ``r-1`` (undoing the undo).
An event is shown as reverted when a *live* revert lists it; a revert that is itself reverted is
not live. Reverts only ever reach back, so one pass from the newest event decides it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from domain import events as ev
from domain.errors import IllegalAction
from domain.serialize import state_to_json
from domain.state import GameState


@dataclass(frozen=True, slots=True)
class Entry:
    """What undo needs to know of one stored event."""

    version: int
    type: str
    action_id: str
    reverted_versions: tuple[int, ...] = ()


#: Event types that record a judge's work rather than a game action: a backup never reverts them,
#: and the state a revert restores keeps what they recorded (``GameState.judging``).
JUDGE_RECORDS: frozenset[str] = ev.JUDGE_RECORD_TYPES
#: A player's answer to a report (acknowledged, disputed) is not a game action either: "undo the
#: last action" passes over it to the action it answered, and that backup takes it back with the
#: action (its report is gone with it). Unlike a judge record it is reverted by a backup past it.
REPORT_ANSWERS: frozenset[str] = frozenset({ev.REPORT_ACKNOWLEDGED, ev.REPORT_DISPUTED})


def action_bounds(entries: Sequence[Entry], version: int) -> tuple[int, int]:
    """``(first, last)`` version of the action holding ``version``; ``entries`` are consecutive
    stored events around it (a window wide enough to hold the whole action)."""
    by_version = {e.version: e for e in entries}
    action = by_version[version].action_id
    first = last = version
    while first - 1 in by_version and by_version[first - 1].action_id == action:
        first -= 1
    while last + 1 in by_version and by_version[last + 1].action_id == action:
        last += 1
    return first, last


def check_action_boundary(entries: Sequence[Entry], to_version: int) -> None:
    """A backup goes back to the end of an action (IPG 1.4: no part of a sequence is omitted):
    ``to_version`` must be the last version of its action, else ``not_an_action_boundary``
    naming the nearest boundaries on either side."""
    if not any(e.version == to_version for e in entries):
        return  # outside the log: revert_event names the range
    first, last = action_bounds(entries, to_version)
    if last == to_version:
        return
    raise IllegalAction(
        f"undo: version {to_version} is inside an action (versions {first}..{last}); a backup goes back to "
        f"the end of an action: to_version {first - 1} (before it) or {last} (after it)",
        "not_an_action_boundary",
    )


def reverted_versions(history: Sequence[Entry]) -> set[int]:
    """Versions flagged ``reverted``: those listed by a revert that is itself live."""
    reverted: set[int] = set()
    for entry in sorted(history, key=lambda e: e.version, reverse=True):
        if entry.type == ev.ACTIONS_REVERTED and entry.version not in reverted:
            reverted.update(entry.reverted_versions)
    return reverted


def target_before_last_actions(history: Sequence[Entry], actions: int) -> int:
    """The version just before the ``actions`` most recent live actions (a command and all it
    caused share one action id, so an undo never leaves half an action behind)."""
    if actions < 1:
        raise IllegalAction(f"undo: 'actions' must be at least 1, got {actions}", "invalid_amount")
    flagged = reverted_versions(history)
    groups: list[tuple[str, int]] = []  # (action id, first version), oldest first
    for entry in sorted(history, key=lambda e: e.version):
        if entry.version in flagged or entry.type == ev.GAME_STARTED or entry.type in JUDGE_RECORDS | REPORT_ANSWERS:
            continue
        if groups and groups[-1][0] == entry.action_id:
            continue
        groups.append((entry.action_id, entry.version))
    if len(groups) < actions:
        raise IllegalAction(
            f"undo: there {'is' if len(groups) == 1 else 'are'} only {len(groups)} action(s) to undo, "
            f"asked for {actions}",
            "nothing_to_undo",
        )
    return groups[-actions][1] - 1


def revert_event(head: int, to_version: int, reason: str, restored: GameState, kept: Collection[int] = ()) -> ev.Event:
    """The ``ActionsReverted`` event that takes a game at ``head`` back to ``to_version``;
    ``kept`` are the versions of judge records after it, which stay live."""
    if not reason.strip():
        raise IllegalAction("undo needs a reason on the record", "reason_required")
    if to_version < 1 or to_version >= head:
        raise IllegalAction(
            f"undo: to_version must be between 1 and {head - 1} (the head is {head}), got {to_version}",
            "nothing_to_undo" if to_version >= head else "invalid_version",
        )
    reverted = ev.ActionsReverted(
        to_version=to_version,
        reverted_versions=[v for v in range(to_version + 1, head + 1) if v not in kept],
        reason=reason,
        restored_state=state_to_json(restored),
    )
    return ev.Event(reverted, "MIPG 1.4 (backing up)")
