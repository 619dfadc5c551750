"""The decisions of the round clock: start, pause, resume, end, at times the service gives."""

from __future__ import annotations

from datetime import datetime

from domain.errors import Code as TC
from domain.tournament.commands import EndRound, PauseRound, ResumeRound, StartRound
from domain.tournament.errors import refuse
from domain.tournament.events import RoundEnded, RoundPaused, RoundResumed, RoundStarted, TournamentEvent
from domain.tournament.lookups import round_of, settings_of
from domain.tournament.state import TournamentState, parse_time


def moment(text: str) -> datetime:
    try:
        at = parse_time(text) if isinstance(text, str) else None
    except ValueError:
        at = None
    if at is None or at.tzinfo is None:
        raise refuse(f"at must be an ISO 8601 time with a UTC offset, got {text!r}", TC.INVALID_TIME)
    return at


def click_time(state: TournamentState, round: int, now: datetime) -> str:
    """The time a click on round ``round``'s clock is recorded at: ``now``, or the clock's last
    change when ``now`` is before it (clicks through workers whose clocks differ a little are
    taken in the order they are stored, each at or after the one before: issue 40)."""
    last = state.rounds[round - 1].clock.last_change if 0 < round <= len(state.rounds) else None
    return (now if last is None or now >= last else last).isoformat()


def clock_change(state: TournamentState, c: StartRound | PauseRound | ResumeRound | EndRound) -> list[TournamentEvent]:
    settings = settings_of(state)
    rnd = round_of(state, c.round)
    at = moment(c.at)
    clock = rnd.clock
    stamp = at.isoformat()
    if isinstance(c, StartRound):
        if clock.started_at is not None:
            raise refuse(f"round {rnd.number} started at {clock.started_at.isoformat()}", TC.ROUND_ALREADY_STARTED)
        return [RoundStarted(round=rnd.number, at=stamp, minutes=settings.round_minutes)]
    if clock.started_at is None:
        raise refuse(f"round {rnd.number} has not started", TC.ROUND_NOT_STARTED)
    if clock.ended_at is not None:
        raise refuse(f"round {rnd.number} ended at {clock.ended_at.isoformat()}", TC.ROUND_ALREADY_ENDED)
    if clock.last_change is not None and at < clock.last_change:
        raise refuse(
            f"{stamp} is before the clock's last change ({clock.last_change.isoformat()})", TC.CLOCK_WENT_BACKWARDS
        )
    if isinstance(c, PauseRound):
        if clock.paused_at is not None:
            raise refuse(f"round {rnd.number} is already paused", TC.CLOCK_ALREADY_PAUSED)
        return [RoundPaused(round=rnd.number, at=stamp)]
    if isinstance(c, ResumeRound):
        if clock.paused_at is None:
            raise refuse(f"round {rnd.number}'s clock is running", TC.CLOCK_NOT_PAUSED)
        return [RoundResumed(round=rnd.number, at=stamp)]
    return [RoundEnded(round=rnd.number, at=stamp)]
