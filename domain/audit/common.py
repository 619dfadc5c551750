"""Small readers the audit checks share: each gives a reason, never raises for a well-formed state.

A record's top-level fields are there (``Event.parse`` refuses a missing or unknown one), but
their values are whatever JSON the file held. The readers of nested values below (``card_of``,
``stack_object_of``, ``object_of``, ``list_of``, ``card_names``) raise ``EventFormatError`` for
a value of the wrong shape: the one error ``check_event`` turns into a "malformed data" reason.
Anything else a check raises is a bug in the check, and is not caught.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeGuard

from domain import events as ev
from domain.cards.model import Card
from domain.errors import GameError
from domain.state import GameState, StackObject

Data = Mapping[str, Any]
Check = Callable[[GameState, ev.Event], "str | None"]

CHECKS: ev.EventHandlers[Check] = ev.EventHandlers("audit")
"""One check per event type, filled by the modules of ``domain.audit``."""

#: What may still be recorded once the game is over (CR 104.1: it ends immediately).
AFTER_THE_END: frozenset[type[ev.DomainEvent]] = frozenset(
    {
        ev.ActionsReverted,
        ev.ReportAwaitingAcknowledgement,  # the last event of the report that ended the game
        *ev.REPORT_ANSWERS,
        *ev.JUDGE_RECORDS,
    }
)
#: Zones a permanent can go to when it leaves the battlefield (``PermanentLeft.to``).
LEAVE_TO = frozenset({"graveyard", "exile", "hand", "library_top", "library_bottom", "command", "none"})


def is_count(value: Any, *, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def bad_amount(data: Data, key: str = "amount") -> str | None:
    """Amounts are at least 1: no zero-amount events (docs/rules.md, correction 8)."""
    value = data.get(key)
    return None if is_count(value, minimum=1) else f"{key!r} must be a whole number of at least 1, got {value!r}"


def no_player(state: GameState, player_id: Any) -> str | None:
    if not isinstance(player_id, str) or player_id not in state.players:
        return f"{player_id!r} is not a player of this game"
    return None


def not_in_game(state: GameState, player_id: Any) -> str | None:
    missing = no_player(state, player_id)
    if missing:
        return missing
    if state.players[player_id].lost:
        return f"player {player_id!r} has already left the game (CR 800.4a)"
    return None


def no_permanent(state: GameState, permanent_id: Any) -> str | None:
    if not isinstance(permanent_id, str) or permanent_id not in state.battlefield:
        return f"there is no permanent {permanent_id!r} on the battlefield"
    return None


def no_target(state: GameState, target: Any) -> str | None:
    if isinstance(target, Mapping) and set(target) == {"player"}:
        return no_player(state, target["player"])
    if isinstance(target, Mapping) and set(target) == {"permanent"}:
        return no_permanent(state, target["permanent"])
    return f"a target is {{'player': id}} or {{'permanent': id}}, got {target!r}"


def is_one_of(value: Any, options: Collection[str]) -> TypeGuard[str]:
    """``value in options`` for a recorded value of any JSON shape (a list is not hashable)."""
    return isinstance(value, str) and value in options


def object_of(raw: Any, what: str) -> Mapping[str, Any]:
    """A recorded JSON object; ``EventFormatError`` for anything else."""
    if not isinstance(raw, Mapping):
        raise ev.EventFormatError(f"{what} must be an object, got {raw!r}")
    return raw


def list_of(raw: Any, what: str) -> list[Any]:
    """A recorded JSON list; ``EventFormatError`` for anything else."""
    if not isinstance(raw, list):
        raise ev.EventFormatError(f"{what} must be a list, got {raw!r}")
    return raw


def card_of(raw: Any, what: str = "a card") -> Card:
    """A recorded card object (``Card.from_json``); ``EventFormatError`` naming what is wrong."""
    try:
        return Card.from_json(object_of(raw, what))
    except GameError as err:
        raise ev.EventFormatError(f"{what}: {err.message_for(True)}") from None


def stack_object_of(raw: Any) -> StackObject:
    """A recorded stack object; ``EventFormatError`` when it lacks a field or has a wrong one."""
    data = object_of(raw, "a stack object")
    if data.get("card"):
        card_of(data["card"], "the stack object's card")
    try:
        return StackObject.from_json(data)
    except (KeyError, TypeError, ValueError) as err:  # a missing field, or params that are no mapping
        raise ev.EventFormatError(f"a stack object ({type(err).__name__}: {err}), got {raw!r}") from None


def card_names(raw: Any) -> list[str]:
    """Names of a list of recorded cards (each must be a card object)."""
    return [card_of(c).name for c in list_of(raw, "'cards'")]


def on_stack(state: GameState, object_id: Any) -> StackObject | None:
    return next((o for o in state.stack if o.id == object_id), None)


def waiting_group(state: GameState, object_id: Any) -> int | None:
    """The index of the pending group holding this trigger, if any."""
    return next((i for i, g in enumerate(state.pending) if any(t.id == object_id for t in g.triggers)), None)


def as_json(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def priority_free(state: GameState, what: str) -> str | None:
    """Steps end only with an empty stack and no triggers waiting for an order (CR 500.2, 603.3b)."""
    if state.stack:
        return f"{what} while the stack holds {len(state.stack)} object(s) (CR 500.2)"
    if state.pending:
        return f"{what} while triggers wait for their order (CR 603.3b)"
    return None
