"""Import checks of judge records and acknowledgements (``domain.events.judging``)."""

from __future__ import annotations

from domain import events as ev
from domain.audit.common import CHECKS, no_player
from domain.commands.judging import INFRACTIONS, PENALTIES
from domain.state import GameState


def _text(event: ev.Event, key: str) -> str | None:
    value = event.data.get(key)
    return None if isinstance(value, str) and value.strip() else f"{key!r} must be a non-blank string, got {value!r}"


def _known_call(state: GameState, call: object) -> str | None:
    if call is None or any(c.get("call") == call for c in state.judging.calls):
        return None
    return f"there is no judge call {call!r} before this event"


@CHECKS.on(ev.JudgeCallOpened)
def _call_opened(state: GameState, event: ev.Event) -> str | None:
    expected = f"call-{len(state.judging.calls) + 1}"
    if event.data.get("call") != expected:
        return f"the next judge call is {expected!r}, not {event.data.get('call')!r}"
    return _text(event, "question") or _text(event, "called_by")


@CHECKS.on(ev.JudgeCallAnswered)
def _call_answered(state: GameState, event: ev.Event) -> str | None:
    call = event.data.get("call")
    open_calls = [c.get("call") for c in state.judging.calls if c.get("open", True)]
    if call not in open_calls:
        return f"judge call {call!r} is not open (open calls: {open_calls})"
    return _text(event, "ruling")


@CHECKS.on(ev.PenaltyGiven)
def _penalty(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    if INFRACTIONS.get(str(data.get("section"))) != data.get("infraction"):
        return f"IPG {data.get('section')!r} is not the infraction {data.get('infraction')!r}"
    if data.get("penalty") not in PENALTIES:
        return f"penalty must be one of {list(PENALTIES)}, got {data.get('penalty')!r}"
    return no_player(state, data.get("player")) or _known_call(state, data.get("call"))


@CHECKS.on(ev.TimeExtended)
def _time(state: GameState, event: ev.Event) -> str | None:
    minutes = event.data.get("minutes")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 60:
        return f"minutes must be 1-60, got {minutes!r}"
    return _text(event, "reason") or _known_call(state, event.data.get("call"))


@CHECKS.on(ev.DeckChecked)
def _deck(state: GameState, event: ev.Event) -> str | None:
    players = event.data.get("players")
    if not isinstance(players, list) or not players:
        return f"a deck check names its players, got {players!r}"
    return next((r for r in (no_player(state, p) for p in players) if r), None) or _text(event, "result")


@CHECKS.on(ev.ReportAwaitingAcknowledgement)
def _awaiting(state: GameState, event: ev.Event) -> str | None:
    expected = f"report-{state.next_seq}"
    if event.data.get("report") != expected:
        return f"the next report id is {expected!r}, not {event.data.get('report')!r}"
    players = event.data.get("players")
    if not isinstance(players, list) or not players:
        return f"a report names the players to acknowledge it, got {players!r}"
    return next((r for r in (no_player(state, p) for p in players) if r), None) or no_player(
        state, event.data.get("reporter")
    )


def _pending(state: GameState, event: ev.Event) -> str | None:
    report = event.data.get("report")
    found = next((r for r in state.reports if r.get("report") == report), None)
    if found is None:
        return f"report {report!r} is not awaiting acknowledgement"
    by = event.data.get("by")
    if by != "judge" and by not in found.get("players", ()):
        return f"report {report!r} is for {found.get('players')} to answer, not {by!r}"
    return None


CHECKS.put(ev.ReportAcknowledged, _pending)
CHECKS.put(ev.ReportDisputed, _pending)
