"""Events of a judge's work and of reports awaiting an opponent (IPG 1.4, 2-4; MTR 2.1, 2.4).

Judge records (a call, its ruling, a penalty, a time extension, a deck check) record tournament
work, not game actions: a backup never reverts them (``domain.undo.JUDGE_RECORDS``). A penalty
that ends the game is followed, in its action, by the ordinary ``PlayerLost``/``GameEnded``.
Acknowledgements are game-side: a reverted report takes its pending acknowledgement with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.events.base import DomainEvent, doc, event_type, optional


@event_type("JudgeCallOpened")
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCallOpened(DomainEvent):
    """A judge is called to the table with a question (or a disputed report)."""

    call: str = doc("The call's id in this game (`call-1`, `call-2`, ...).")
    called_by: str = doc("Who called: a player id, or the caller's name.")
    question: str = doc("What the judge is asked (at most 2,000 characters).")
    table: int | None = optional("The table, from the game's tournament, if known.")
    report: str | None = optional("The disputed report's id, for a call opened by a dispute.")


@event_type("JudgeCallAnswered")
@dataclass(frozen=True, slots=True, kw_only=True)
class JudgeCallAnswered(DomainEvent):
    """The judge's ruling on a call; the call is closed."""

    call: str = doc("The call.")
    ruling: str = doc("The ruling as given at the table.")


@event_type("PenaltyGiven")
@dataclass(frozen=True, slots=True, kw_only=True)
class PenaltyGiven(DomainEvent):
    """A penalty for an infraction of the IPG (section and name); a Game Loss, Match Loss or
    Disqualification is followed by the penalised player's `PlayerLost` and the `GameEnded`."""

    player: str = doc("The penalised player.")
    section: str = doc("The infraction's IPG section (`2.1`, `2.5`, `3.3`, ...).")
    infraction: str = doc("The infraction's IPG name (`Missed Trigger`, `Game Rule Violation`, ...).")
    penalty: str = doc("`Warning`, `Game Loss`, `Match Loss` or `Disqualification` (IPG 1.1).")
    reason: str | None = optional("What happened, on the record.")
    call: str | None = optional("The judge call it answers, if any.")


@event_type("TimeExtended")
@dataclass(frozen=True, slots=True, kw_only=True)
class TimeExtended(DomainEvent):
    """The match gets extra time (a long ruling or a deck check took time from the round)."""

    minutes: int = doc("Minutes added (1-60).")
    reason: str = doc("Why.")
    call: str | None = optional("The judge call it belongs to, if any.")


@event_type("DeckChecked")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeckChecked(DomainEvent):
    """A deck check: a judge compares players' decks with their decklists; the outcome."""

    players: list[str] = doc("Whose decks were checked.")
    result: str = doc("What was found (`legal`, or the problem found).")


@event_type("ReportAwaitingAcknowledgement")
@dataclass(frozen=True, slots=True, kw_only=True)
class ReportAwaitingAcknowledgement(DomainEvent):
    """A player's report changed another player's life, counters, permanents or stack objects:
    it stands, but is unacknowledged until each of them (or a judge) acknowledges it."""

    report: str = doc("The report's id in this game (`report-1`, ...).")
    reporter: str = doc("The reporting player.")
    players: list[str] = doc("The players it affects, who are to acknowledge it.")
    summary: str = doc("What changed for them, in words.")


@event_type("ReportAcknowledged")
@dataclass(frozen=True, slots=True, kw_only=True)
class ReportAcknowledged(DomainEvent):
    """A report is acknowledged by an affected player (or settled by a judge)."""

    report: str = doc("The report.")
    by: str = doc("The acknowledging player id, or `judge`.")


@event_type("ReportDisputed")
@dataclass(frozen=True, slots=True, kw_only=True)
class ReportDisputed(DomainEvent):
    """An affected player disputes a report; a judge call follows (`JudgeCallOpened`)."""

    report: str = doc("The report.")
    by: str = doc("The disputing player.")
    reason: str = doc("Why, in their words.")
