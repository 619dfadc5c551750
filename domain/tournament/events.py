"""The tournament's events: past-tense facts of one event (Swiss rounds, top cut, round clock).

Each event type is a frozen dataclass decorated with ``@tournament_event("Name")``; its fields
are documented with the game vocabulary's ``doc(...)``/``optional(...)`` and serialised the same
way (``to_json``/``from_json``). They live in their own registry, not the game's
(``domain.events.base``): the game registry's every type must have a fold, a timeline sentence,
a redaction rule and a schema for *game* streams, and a tournament is a stream of its own.

Events record resolved outcomes: ``RoundPaired`` carries the pairings and the seed they came
from, ``PlayerRegistered`` the rounds a late entrant missed, ``RoundStarted`` the minutes the
clock was given. Folding them (``domain.tournament.state``) never pairs, draws or guesses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypedDict, TypeVar

from domain.events.base import DomainEvent, EventFormatError, FieldSpec, describe_fields, doc, optional


class PairingJson(TypedDict):
    """One table of a round as stored: its number and its players, in seat order."""

    table: int
    players: list[str]


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentEvent(DomainEvent):
    """Base of every tournament event payload (a ``DomainEvent`` of the tournament registry)."""

    TYPE: ClassVar[str]
    FIELDS: ClassVar[tuple[FieldSpec, ...]]


T = TypeVar("T", bound=TournamentEvent)
_REGISTRY: dict[str, type[TournamentEvent]] = {}


def tournament_event(name: str) -> Callable[[type[T]], type[T]]:
    """Register a tournament event class under its stored type name (once)."""

    def register(cls: type[T]) -> type[T]:
        if name in _REGISTRY:
            raise ValueError(f"tournament event type {name!r} registered twice")
        _REGISTRY[name] = describe_fields(cls, name)
        return cls

    return register


def tournament_event_classes() -> tuple[type[TournamentEvent], ...]:
    """Every registered tournament event type, in registration order."""
    return tuple(_REGISTRY.values())


def parse_event(type_: str, data: Mapping[str, Any]) -> TournamentEvent:
    """The payload of a stored ``(type, data)``; ``EventFormatError`` if it doesn't fit."""
    try:
        cls = _REGISTRY[type_]
    except (KeyError, TypeError):
        raise EventFormatError(f"unknown tournament event type {type_!r}") from None
    event = cls.from_json(data)
    assert isinstance(event, TournamentEvent)  # from_json builds the class it is called on
    return event


def event_to_json(event: TournamentEvent) -> dict[str, Any]:
    """The stored shape ``{"type": ..., "data": ...}`` of one event."""
    return {"type": event.TYPE, "data": event.to_json()}


# --- the event and its roster -------------------------------------------------------------------


@tournament_event("EventCreated")
@dataclass(frozen=True, slots=True, kw_only=True)
class EventCreated(TournamentEvent):
    """A tournament was announced: its format, level, structure and scoring (MTR 1.12, 10.2)."""

    name: str = doc("The event's name.")
    format: str = doc("The format played (`Modern`, `Sealed`, `Commander`, ...).")
    rel: str = doc("Rules Enforcement Level (MTR 1.12): `regular`, `competitive` or `professional`.")
    rounds: int | None = optional(
        "Swiss rounds announced (MTR 10.2); absent: fixed at round 1 from the player count (MTR Appendix E)."
    )
    round_minutes: int = optional("Length of a round in minutes.", 50)
    top_cut: int | None = optional("Single-elimination playoff after the Swiss rounds: 8, 4 or 2 players.")
    kind: str = optional("`two_player` (best-of-three matches, MTR 2.1) or `commander` (one-game pods).", "two_player")
    win_points: int = optional("Match points for a win (MTR Appendix C: 3).", 3)
    draw_points: int = optional("Match points for a draw (MTR Appendix C: 1).", 1)
    best_of: int = optional("Games of a two-player match: best of 1, 3 or 5 (MTR 2.1); a pod plays one.", 3)


@tournament_event("PlayerRegistered")
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRegistered(TournamentEvent):
    """A player joined the event; a late entrant takes a match loss for each round already paired."""

    player: str = doc("The player's key in this event (stable; results and pairings name it).")
    name: str = doc("The player's name as shown on pairings and standings.")
    wizards_id: str | None = optional("The player's Wizards Account id or email (MTR 1.5), if given.")
    missed_rounds: int = optional(
        "Late entry: rounds 1..N were already paired when the player joined; each is a 0-2 match loss.", 0
    )


@tournament_event("PlayerDropped")
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerDropped(TournamentEvent):
    """A player left the event (MTR 2.10): not paired after ``after_round``; their results stand."""

    player: str = doc("The player.")
    reason: str = doc("Why (`requested`, `no_show`, a judge's note, ...).")
    after_round: int = doc("The last round the player is in (0: dropped before round 1 was paired).")
    by: str | None = optional("Who recorded the drop.")


@tournament_event("PlayerMarkedNoShow")
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerMarkedNoShow(TournamentEvent):
    """A player did not show up for their match (MTR 2.10; IPG 3.1: a Match Loss after 10 minutes).
    In a two-player match it is followed by the opponent's 2-0 ``ResultReported`` and the
    no-show's ``PlayerDropped``; in a pod, by the ``PlayerDropped`` only (the pod plays on)."""

    player: str = doc("The player who did not show up.")
    round: int = doc("The round.")
    table: int = doc("The player's table in that round.")


# --- rounds and results -------------------------------------------------------------------------


@tournament_event("RoundPaired")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundPaired(TournamentEvent):
    """A Swiss round was paired (MTR 10.4): the tables, the bye and the seed that decided them."""

    round: int = doc("The round number (1, 2, ...).")
    seed: int = doc("The random seed the pairing used: pairing the same state with it gives these tables.")
    pairings: list[PairingJson] = doc("The tables: `{table, players}`, table 1 the highest-ranked.")
    byes: list[str] = doc("Players given the round's bye (a 2-0 match win, MTR Appendix C); at most one.")
    rounds_planned: int | None = optional("Round 1 only: the Swiss rounds fixed from the player count (Appendix E).")


@tournament_event("TopCutPaired")
@dataclass(frozen=True, slots=True, kw_only=True)
class TopCutPaired(TournamentEvent):
    """A single-elimination playoff round was paired (MTR 10.4): seeded from the Swiss standings
    (1v8, 4v5, 2v7, 3v6), then winners of neighbouring matches meet."""

    round: int = doc("The round number, counting on from the Swiss rounds.")
    cut: int = doc("Players left in the bracket at this round (8, 4 or 2).")
    pairings: list[PairingJson] = doc("The matches, in bracket order; the first seat is the higher seed.")
    seeds: list[str] | None = optional("First playoff round only: the players in seed order (Swiss standings).")


@tournament_event("ResultReported")
@dataclass(frozen=True, slots=True, kw_only=True)
class ResultReported(TournamentEvent):
    """A match's result (MTR 2.1): games won by each player, in seat order, and drawn games.
    A pod plays one game: the winner has 1, or nobody has and ``draws`` is 1."""

    round: int = doc("The round.")
    table: int = doc("The table.")
    games: list[int] = doc("Games won by each player at the table, in seat order.")
    draws: int = doc("Drawn (or unfinished) games (MTR Appendix C: counted as draws).")
    by: str | None = optional("Who reported it (a player id when the players' report was confirmed).")
    reason: str | None = optional("Why, when the scorekeeper or a judge gave one (settling a dispute needs one).")


@tournament_event("MatchReportFiled")
@dataclass(frozen=True, slots=True, kw_only=True)
class MatchReportFiled(TournamentEvent):
    """A player reported their match from their event link; it waits for the opponent, who
    confirms it (it becomes the ``ResultReported``) or disputes it (staff settles it)."""

    round: int = doc("The round.")
    table: int = doc("The table.")
    player: str = doc("The reporting player (the event link's player id).")
    games: list[int] = doc("Games won by each player at the table, in seat order.")
    draws: int = doc("Drawn games.")
    token: str | None = optional("The public id of the token that sent it.")


@tournament_event("MatchReportConfirmed")
@dataclass(frozen=True, slots=True, kw_only=True)
class MatchReportConfirmed(TournamentEvent):
    """The opponent confirmed the report; the same save records it as the ``ResultReported``."""

    round: int = doc("The round.")
    table: int = doc("The table.")
    player: str = doc("The confirming player.")
    token: str | None = optional("The public id of the token that sent it.")


@tournament_event("MatchReportDisputed")
@dataclass(frozen=True, slots=True, kw_only=True)
class MatchReportDisputed(TournamentEvent):
    """The opponent disputed the report: the scorekeeper or a judge settles it by entering the
    result with a reason."""

    round: int = doc("The round.")
    table: int = doc("The table.")
    player: str = doc("The disputing player.")
    note: str | None = optional("What the player says happened.")
    token: str | None = optional("The public id of the token that sent it.")


@tournament_event("ResultCorrected")
@dataclass(frozen=True, slots=True, kw_only=True)
class ResultCorrected(TournamentEvent):
    """A reported result was corrected by tournament staff; standings are recomputed from it."""

    round: int = doc("The round.")
    table: int = doc("The table.")
    games: list[int] = doc("The corrected games won by each player, in seat order.")
    draws: int = doc("The corrected drawn games.")
    reason: str = doc("Why the result was wrong.")
    by: str = doc("Who corrected it (a scorekeeper or judge).")


@tournament_event("IntentionalDraw")
@dataclass(frozen=True, slots=True, kw_only=True)
class IntentionalDraw(TournamentEvent):
    """The players agreed to draw the match (MTR 2.4): games actually played are recorded; with
    none played a two-player match is 0-0-3, a pod one drawn game."""

    round: int = doc("The round.")
    table: int = doc("The table.")
    games: list[int] = doc("Games won by each player before the draw (equal).")
    draws: int = doc("Drawn games recorded.")
    by: str | None = optional("Who reported it.")


@tournament_event("TableFeatured")
@dataclass(frozen=True, slots=True, kw_only=True)
class TableFeatured(TournamentEvent):
    """A scorekeeper marked a table as featured (a match shown to spectators or streamed), or
    unmarked it; the scorekeeper's view shows a featured table's status as `featured`."""

    round: int = doc("The round.")
    table: int = doc("The table.")
    featured: bool = doc("`true`: the table is featured from now on; `false`: no longer.")


# --- the round clock ----------------------------------------------------------------------------


@tournament_event("RoundStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(TournamentEvent):
    """The round's clock started."""

    round: int = doc("The round.")
    at: str = doc("When (ISO 8601 with a UTC offset).")
    minutes: int = doc("The round's length in minutes.")


@tournament_event("RoundPaused")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundPaused(TournamentEvent):
    """The round's clock was stopped (an announcement, a venue problem)."""

    round: int = doc("The round.")
    at: str = doc("When (ISO 8601 with a UTC offset).")


@tournament_event("RoundResumed")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundResumed(TournamentEvent):
    """The round's clock runs again; the paused time is added back."""

    round: int = doc("The round.")
    at: str = doc("When (ISO 8601 with a UTC offset).")


@tournament_event("RoundEnded")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnded(TournamentEvent):
    """Time was called on the round (or its last match finished)."""

    round: int = doc("The round.")
    at: str = doc("When (ISO 8601 with a UTC offset).")
