"""Small readers the audit checks share: each gives a reason, never raises for a well-formed state."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from domain import events as ev
from domain.cards.model import Card
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


def card_names(raw: Any) -> list[str]:
    """Names of a list of recorded cards (each must be a card object)."""
    if not isinstance(raw, list):
        raise TypeError(f"'cards' must be a list, got {raw!r}")
    return [Card.from_json(c).name for c in raw]


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
