"""What an event shows a reader who may not see hidden zones (CR 400.2: libraries and hands are
hidden), by event type: the counterpart of ``domain.view.state_view(show_libraries=False)``.

Every event type has an entry in ``REDACTIONS``: ``PUBLIC`` (nothing in it is hidden), or a
function giving the data with the hidden parts taken out. A test checks every type has one, so
a new event that carries cards from a hidden zone can't slip through unreviewed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain import events as ev

Data = Mapping[str, Any]
Redaction = Callable[[Data], dict[str, Any]] | None

PUBLIC: Redaction = None
"""Nothing in the event is hidden information."""

REDACTIONS: ev.EventHandlers[Redaction] = ev.EventHandlers("redaction")


def _sized(cards: Any, unknown: Any) -> int:
    return len(cards or ()) + (unknown if isinstance(unknown, int) else 0)


def _game_started(data: Data) -> dict[str, Any]:
    """The known library and hand of each player are hidden; their sizes are not."""
    players = [
        {
            **p,
            "library": None,
            "hand": None,
            "library_size": _sized(p.get("library"), p.get("library_unknown", 0)),
            "hand_size": _sized(p.get("hand"), p.get("hand_unknown", 0)),
        }
        for p in data.get("players", [])
    ]
    return {**data, "players": players}


def _cards_drawn(data: Data) -> dict[str, Any]:
    """Drawn cards go to a hidden hand: counted, not named."""
    return {**data, "cards": None, "count": _sized(data.get("cards"), data.get("unknown_count", 0))}


def _hand_kept(data: Data) -> dict[str, Any]:
    """The cards put on the bottom leave a hidden hand for a hidden library: counted, not named."""
    return {k: v for k, v in data.items() if k != "bottom"}


def _actions_reverted(data: Data) -> dict[str, Any]:
    """The restored state holds the libraries and hands of the version it restores."""
    return {k: v for k, v in data.items() if k != "restored_state"}


REDACTIONS.put(ev.GameStarted, _game_started)
REDACTIONS.put(ev.CardsDrawn, _cards_drawn)
REDACTIONS.put(ev.ActionsReverted, _actions_reverted)
REDACTIONS.put(ev.HandKept, _hand_kept)
# Cards milled, moved, cast or put onto the battlefield are public in the zone they reach
# (CR 400.2, 701.17); CardsMoved from a library names only cards that were revealed.
for _public in (
    ev.TurnBegan,
    ev.StepBegan,
    ev.FirstPlayerChosen,
    ev.MulliganTaken,  # a mulligan and its new hand's size are public; its cards are unknown to all
    ev.TriggersPending,
    ev.TriggerPutOnStack,
    ev.SpellCast,
    ev.AbilityActivated,
    ev.StackObjectResolved,
    ev.StackObjectCountered,
    ev.CountersAdded,
    ev.CountersRemoved,
    ev.Proliferated,
    ev.LifeLost,
    ev.LifeGained,
    ev.DamageDealt,
    ev.CardsMilled,
    ev.CardsMoved,
    ev.PermanentEntered,
    ev.PermanentLeft,
    ev.PermanentTapped,
    ev.PermanentUntapped,
    ev.ControlChanged,
    ev.PowerToughnessModified,
    ev.AttackersDeclared,
    ev.ManaAdded,
    ev.ManaPoolEmptied,
    ev.PlayerLost,
    ev.TeamLost,
    ev.GameEnded,
    ev.NoteAdded,
    ev.DesignationChanged,
    ev.RoomEntered,
    ev.DungeonCompleted,
    ev.JudgeCallOpened,
    ev.JudgeCallAnswered,
    ev.PenaltyGiven,
    ev.TimeExtended,
    ev.DeckChecked,
    ev.ReportAwaitingAcknowledgement,
    ev.ReportAcknowledged,
    ev.ReportDisputed,
):
    REDACTIONS.put(_public, PUBLIC)


def redacted(type_: str, data: Data) -> dict[str, Any] | None:
    """The data a reader without sight of hidden zones sees, or ``None`` when nothing is hidden
    (an unknown type shows nothing: it can't be told apart from a hidden one)."""
    cls = ev.find_event_class(type_)
    if cls is None:
        return {}
    redaction = REDACTIONS[cls]
    return None if redaction is None else redaction(data)
