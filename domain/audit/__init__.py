"""Auditing a recorded game against the rules, one event at a time (docs/audit.md, "Import rules").

An export file holds events, not the commands that caused them, so an import can't re-decide
each command. What it can check instead:

- ``check_event(state, event)``: the event is consistent with the state it applies to, the state
  just before it (a life total it reports is the one the fold gives, the cards milled are the
  known top of the library, a permanent it taps is there and untapped, the game it ends is over
  by the rules, ...). It gives the reason when it is not, else ``None``.
- ``check_settled(state)``: the state at the end of an action is one where a player could receive
  priority: no state-based action applies (CR 704.3) and the game is over exactly when at most
  one player or team is left in it (CR 104.2a, 104.4a).

Both are pure: they read the state and build throw-away values, nothing else. Each check cites
the rule it enforces. ``ActionsReverted`` has none here: its ``restored_state`` is checked against
the history by the import itself (``ledger.import_rules``).
"""

from __future__ import annotations

from domain import events as ev
from domain.audit import cards, counters_life, designations, ending, judging, opening, turns_stack  # noqa: F401  (each registers its checks)
from domain.audit.common import AFTER_THE_END, CHECKS
from domain.builder import Builder
from domain.rules.sba import check_state_based_actions, sides_left
from domain.rules.triggers import detect_triggers
from domain.state import GameState

__all__ = ["CHECKS", "audit_record", "check_event", "check_settled"]


@CHECKS.on(ev.ActionsReverted)
def _actions_reverted(state: GameState, event: ev.Event) -> str | None:
    """A revert needs the history, not only the state before it: the import checks that its
    ``restored_state`` is the state at ``to_version`` and that it reverts the versions after it
    (``ledger.import_rules``)."""
    return None


def check_event(state: GameState, event: ev.Event) -> str | None:
    """Why ``event`` can't follow ``state`` (the state just before it) by the rules, or ``None``.

    Only ``EventFormatError`` is caught: what the checks' readers of nested values raise for a
    recorded value of the wrong shape (``domain.audit.common``). Any other exception is a bug in
    a check and propagates, so a test of a check can't pass on a check that crashes."""
    kind = type(event.payload)
    if state.status == "finished" and kind not in AFTER_THE_END:
        return f"{event.type} after the game ended: only notes and undos may follow (CR 104.1)"
    check = CHECKS.get(kind)
    if check is None:
        return None
    try:
        return check(state, event)
    except ev.EventFormatError as err:
        return f"malformed {event.type} data: {err}"


def _describe(event: ev.Event) -> str:
    data = event.data
    what = data.get("player") or data.get("team") or data.get("permanent") or data.get("target") or ""
    return f"{event.type} {what} ({event.rule})".replace("  ", " ")


def check_settled(state: GameState) -> str | None:
    """Why ``state`` can't be the state at the end of an action, or ``None``.

    Every action ends where a player would receive priority (CR 117.5): state-based actions have
    been performed until none applies (CR 704.3), and the game is over if at most one player or
    team is left in it (CR 104.2a, 104.4a), and only then. (A Saga whose final chapter triggered
    as the game ended keeps its chapter off the stack and stays: CR 704.5s doesn't apply to it
    then, so that one state-based action is not asked of a finished game.)
    """
    b = Builder(state, detect_triggers)
    check_state_based_actions(b)
    undone = [e for e in b.events if not (state.status == "finished" and e.rule == "CR 704.5s")]
    if undone:
        shown = ", ".join(_describe(e) for e in undone[:4]) + (", ..." if len(undone) > 4 else "")
        return f"state-based actions still apply (CR 704.3): {shown}"
    sides = sides_left(state)
    if state.status == "in_progress" and sides <= 1:
        return f"the game goes on with {sides} player(s) or team(s) left in it: it is over (CR 104.2a, 104.4a)"
    if state.status == "finished" and sides > 1:
        return f"the game is over with {sides} players or teams still in it (CR 104.2a)"
    return None


def audit_record(state: GameState, type_: str, data: object, rule: str | None = None) -> str | None:
    """Why a stored record ``(type, data, rule)`` can't follow ``state``: it does not fit the
    event vocabulary (an unknown type or field, a missing field), or ``check_event`` refuses it."""
    try:
        event = ev.Event.parse(type_, data if isinstance(data, dict) else {}, rule)
    except ev.EventFormatError as err:
        return str(err)
    if not isinstance(data, dict):
        return f"{type_}: data must be an object"
    return check_event(state, event)
