"""Undo by appending a revert: pure rules over a game's event history (docs/judges.md, Backing up).

A revert at version ``r`` with ``to_version`` ``t`` makes the state equal to the state at ``t``
and flags versions ``t+1 .. r-1`` as reverted, except judge records (notes, judge calls,
penalties: ``JUDGE_RECORDS``), which are not game actions and are never reverted (IPG 1.4 backs
up game actions; the record of a judge's work stays). ``t`` must end an action: a backup reverses
whole actions, never part of one (``check_action_boundary``). Redo is a revert to ``r-1`` (undoing the undo).
An event is shown as reverted when a *live* revert lists it; a revert that is itself reverted is
not live. Reverts only ever reach back, so one pass from the newest event decides it.

``Undo`` is the command and ``decide_undo`` its decision: the ledger reads what it needs (the
log's tail for "the last N actions", a window of the log around the target, the state at the
target), and the decision says whether the backup is allowed and which versions it reverts.

A player token's undo is a quick undo of its own last action (``domain.permissions.check_quick_undo``,
docs/judges.md): the game's last action, recorded by that token within ``QUICK_UNDO_WINDOW``
of ``now`` (the ledger's clock, passed in: the domain reads no clock). It takes back the
player's own report before anyone acted on it, a correction of the record rather than a backup
of the game (MTR 4.8), so it is not the head judge's at Competitive REL.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from domain import events as ev
from domain.errors import Code, IllegalAction, InvalidCommand
from domain.judging import check_no_game_ending_penalty, with_judging
from domain.permissions import Grant, QuickUndo, check_backup, check_quick_undo, check_undo
from domain.serialize import state_to_json
from domain.state import GameState


@dataclass(frozen=True, slots=True)
class Entry:
    """What undo needs to know of one stored event."""

    version: int
    kind: type[ev.DomainEvent] | None
    """The event's class (``None`` for a type the registry doesn't know: never an action)."""
    action_id: str
    reverted_versions: tuple[int, ...] = ()
    """For a revert: the versions it lists."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """The event's data, where a decision reads it (a penalty's, in the window ``decide_undo`` checks)."""
    actor: tuple[str, str] | None = None
    """``(name, role)`` of the token that recorded it, where a decision reads it (a quick undo)."""
    actor_token: str | None = None
    """That token's public id, where recorded (``None`` in records from before: ``docs/audit.md``)."""
    recorded_at: datetime | None = None
    """When its action was stored, where a decision reads it (a quick undo)."""


QUICK_UNDO_WINDOW = timedelta(seconds=30)
"""How long after its recording a player token may take back its own last action."""


#: Event types that record a judge's work rather than a game action: a backup never reverts them,
#: and the state a revert restores keeps what they recorded (``GameState.judging``).
JUDGE_RECORDS: frozenset[type[ev.DomainEvent]] = ev.JUDGE_RECORDS
#: A player's answer to a report (acknowledged, disputed) is not a game action either: "undo the
#: last action" passes over it to the action it answered, and that backup takes it back with the
#: action (its report is gone with it). Unlike a judge record it is reverted by a backup past it.
REPORT_ANSWERS: frozenset[type[ev.DomainEvent]] = ev.REPORT_ANSWERS
#: Not an action to undo: the game's start, a judge's record, a player's answer to a report.
_NOT_ACTIONS: frozenset[type[ev.DomainEvent] | None] = frozenset(
    {None, ev.GameStarted, *JUDGE_RECORDS, *REPORT_ANSWERS}
)


def is_action(kind: type[ev.DomainEvent] | None) -> bool:
    """Whether an event of this class is part of an action "undo the last action" takes back."""
    return kind not in _NOT_ACTIONS


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
        Code.NOT_AN_ACTION_BOUNDARY,
    )


def reverted_versions(history: Sequence[Entry]) -> set[int]:
    """Versions flagged ``reverted``: those listed by a revert that is itself live."""
    reverted: set[int] = set()
    for entry in sorted(history, key=lambda e: e.version, reverse=True):
        if entry.kind is ev.ActionsReverted and entry.version not in reverted:
            reverted.update(entry.reverted_versions)
    return reverted


def target_before_last_actions(history: Sequence[Entry], actions: int) -> int:
    """The version just before the ``actions`` most recent live actions (a command and all it
    caused share one action id, so an undo never leaves half an action behind)."""
    if actions < 1:
        raise InvalidCommand(f"undo: 'actions' must be at least 1, got {actions}", Code.INVALID_AMOUNT)
    flagged = reverted_versions(history)
    groups: list[tuple[str, int]] = []  # (action id, first version), oldest first
    for entry in sorted(history, key=lambda e: e.version):
        if entry.version in flagged or not is_action(entry.kind):
            continue
        if groups and groups[-1][0] == entry.action_id:
            continue
        groups.append((entry.action_id, entry.version))
    if len(groups) < actions:
        raise IllegalAction(
            f"undo: there {'is' if len(groups) == 1 else 'are'} only {len(groups)} action(s) to undo, "
            f"asked for {actions}",
            Code.NOTHING_TO_UNDO,
        )
    return groups[-actions][1] - 1


def revert_event(head: int, to_version: int, reason: str, restored: GameState, kept: Collection[int] = ()) -> ev.Event:
    """The ``ActionsReverted`` event that takes a game at ``head`` back to ``to_version``;
    ``kept`` are the versions of judge records after it, which stay live."""
    if not reason.strip():
        raise InvalidCommand("undo needs a reason on the record", Code.REASON_REQUIRED)
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


def _whole(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidCommand(f"{name} must be an integer >= {minimum}, got {value!r}", Code.INVALID_FIELD)
    return value


@dataclass(frozen=True, slots=True)
class Undo:
    """Back the game up (MIPG 1.4) to ``to_version``, or to just before its last ``actions`` live
    actions (1 when neither is given), with ``reason`` on the record. Redo is an undo of the undo."""

    reason: str
    """Why, on the record (required, not blank)."""
    to_version: int | None = None
    """The version to go back to; it must end an action."""
    actions: int | None = None
    """How many live actions to take back (instead of ``to_version``)."""

    def __post_init__(self) -> None:
        if self.to_version is not None and self.actions is not None:
            raise InvalidCommand("undo: give either 'to_version' or 'actions', not both", Code.INVALID_FIELD)
        if not isinstance(self.reason, str):
            raise InvalidCommand(f"undo: 'reason' must be a string, got {self.reason!r}", Code.INVALID_FIELD)
        if self.to_version is None:
            _whole("actions", 1 if self.actions is None else self.actions, 1)
        else:
            _whole("to_version", self.to_version, 0)

    @property
    def count(self) -> int:
        """Live actions to take back: 0 when ``to_version`` names the target."""
        if self.to_version is not None:
            return 0
        return 1 if self.actions is None else self.actions

    def target(self, history: Sequence[Entry]) -> int:
        """The version to go back to: ``to_version``, or the version before the last ``count``
        live actions of ``history`` (the log's tail, every revert included)."""
        if self.to_version is not None:
            return self.to_version
        return target_before_last_actions(history, self.count)


def reaches(target: int, head: int) -> bool:
    """Whether ``target`` is a version a backup from ``head`` can go back to (1 .. head - 1)."""
    return 1 <= target < head


def quick_undo_facts(command: Undo, target: int, head: int, window: Sequence[Entry], now: datetime | None) -> QuickUndo:
    """What a player token's undo would take back, for ``domain.permissions.check_quick_undo``
    to decide on: the action after ``target`` (its versions, who recorded it, whose reports it
    holds), the head, and the action's age at ``now``."""
    single = command.to_version is None and command.count == 1
    by_version = {e.version: e for e in window}
    first = by_version.get(target + 1)
    if first is None:  # the ledger reads the window from before the target: never, but refuse
        return QuickUndo(single, target + 1, target + 1, None, frozenset(), head, None, QUICK_UNDO_WINDOW)
    _, last = action_bounds(window, first.version)
    reporters = frozenset(
        str(e.data.get("reporter"))
        for e in window
        if first.version <= e.version <= last and e.kind is ev.ReportAwaitingAcknowledgement
    )
    age = now - first.recorded_at if now is not None and first.recorded_at is not None else None
    return QuickUndo(
        single, first.version, last, first.actor, reporters, head, age, QUICK_UNDO_WINDOW, first.actor_token
    )


def decide_undo(
    command: Undo,
    target: int,
    head: int,
    state: GameState,
    window: Sequence[Entry],
    at_target: GameState | None,
    grant: Grant | None = None,
    now: datetime | None = None,
) -> ev.Event:
    """The ``ActionsReverted`` that backs the game at version ``head`` (state ``state``) up to
    ``target`` (``command.target``), or the refusal. ``window``: the stored events after
    ``target - BOUNDARY_WINDOW`` up to the head, with their data; ``at_target``: the state at
    ``target`` (``None`` when ``reaches`` says it is outside the log); ``now``: the ledger's time,
    for a player's quick undo.

    Refused, in this order: a target outside 1 .. head - 1 (``nothing_to_undo``,
    ``invalid_version``; a blank reason first, ``reason_required``), a target inside an action
    (``not_an_action_boundary``), a caller who may not back this game up (``check_undo``,
    ``check_backup``; a player token: ``check_quick_undo``), a game-ending penalty after the
    target (``penalty_stands``), a blank reason. Judge records after the target stay live, and
    the restored state keeps the head's judge records."""
    if at_target is None or not reaches(target, head):
        return revert_event(head, target, command.reason, state)  # raises: outside the log
    check_action_boundary(window, target)
    if grant is not None:
        check_undo(grant, state.game_id)
        if grant.role == "player":
            check_quick_undo(grant, quick_undo_facts(command, target, head, window, now))
        else:
            check_backup(grant, state)
    kept = [e.version for e in window if e.version > target and e.kind in JUDGE_RECORDS]
    check_no_game_ending_penalty([(e.version, e.kind, e.data) for e in window], target)
    return revert_event(head, target, command.reason, with_judging(at_target, state), kept)


#: How far before an undo's target ``decide_undo``'s window reaches (longer than any one action).
BOUNDARY_WINDOW = 512
