"""Folds of judge records and of reports awaiting acknowledgement (``domain.events.judging``).

A judge record changes only ``state.judging`` (so that a backup can keep the head's records
while restoring the game); a report's acknowledgement changes only ``state.reports``."""

from __future__ import annotations

from domain import events as ev
from domain.fold.table import FOLDS
from domain.state import GameState, replace


@FOLDS.on(ev.JudgeCallOpened)
def _call_opened(state: GameState, e: ev.JudgeCallOpened) -> GameState:
    call = {**e.to_json(), "open": True}
    reports = state.reports
    if e.report is not None:
        reports = tuple({**r, "disputed": e.call} if r.get("report") == e.report else r for r in reports)
    return replace(state, judging=replace(state.judging, calls=(*state.judging.calls, call)), reports=reports)


@FOLDS.on(ev.JudgeCallAnswered)
def _call_answered(state: GameState, e: ev.JudgeCallAnswered) -> GameState:
    calls = tuple(
        {**c, "open": False, "ruling": e.ruling} if c.get("call") == e.call else c for c in state.judging.calls
    )
    return replace(state, judging=replace(state.judging, calls=calls))


@FOLDS.on(ev.PenaltyGiven)
def _penalty(state: GameState, e: ev.PenaltyGiven) -> GameState:
    return replace(state, judging=replace(state.judging, penalties=(*state.judging.penalties, e.to_json())))


@FOLDS.on(ev.TimeExtended)
def _time(state: GameState, e: ev.TimeExtended) -> GameState:
    extensions = (*state.judging.time_extensions, e.to_json())
    return replace(state, judging=replace(state.judging, time_extensions=extensions))


@FOLDS.on(ev.DeckChecked)
def _deck_check(state: GameState, e: ev.DeckChecked) -> GameState:
    return replace(state, judging=replace(state.judging, deck_checks=(*state.judging.deck_checks, e.to_json())))


@FOLDS.on(ev.ReportAwaitingAcknowledgement)
def _awaiting(state: GameState, e: ev.ReportAwaitingAcknowledgement) -> GameState:
    return replace(state, reports=(*state.reports, e.to_json()), next_seq=state.next_seq + 1)


@FOLDS.on(ev.ReportAcknowledged)
def _acknowledged(state: GameState, e: ev.ReportAcknowledged) -> GameState:
    reports = []
    for r in state.reports:
        if r.get("report") == e.report:
            left = [p for p in r.get("players", ()) if p != e.by]
            if e.by == "judge" or not left:
                continue
            r = {**r, "players": left}
        reports.append(r)
    return replace(state, reports=tuple(reports))


@FOLDS.on(ev.ReportDisputed)
def _disputed(state: GameState, e: ev.ReportDisputed) -> GameState:
    return state  # the judge call that follows marks the report disputed
