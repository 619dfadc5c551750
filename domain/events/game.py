"""Events of the game as a whole and its turn structure (CR 103, 500)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events.base import DomainEvent, doc, event_type, optional

Json = dict[str, Any]


@event_type("GameStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(DomainEvent):
    """The game is created (always version 1), with every default filled in (CR 103)."""

    game_id: str = doc("The game's id.")
    variant: str = doc("`two_player`, `multiplayer`, `two_headed_giant`, `archenemy` or `commander`.")
    rules_edition: str = doc("The Comprehensive Rules edition the game is judged by (`YYYY-MM-DD`).")
    tournament: Json | None = doc("`{event, round, table}` or null.")
    players: list[Json] = doc(
        "In seating order, each `{id, name, team, life, counters, library, library_unknown, hand, "
        "hand_unknown, graveyard, exile}`; `library` is the known top cards, top first. In a commander game "
        "each also has `commanders` (the commander cards) and `command` (those of them in the command zone, "
        "where they start unless the game starts with them elsewhere, CR 903.6)."
    )
    teams: Json = doc("`{team_id: {players, life, counters}}`; `life` is null outside Two-Headed Giant.")
    battlefield: list[Json] = doc("The permanents the game starts with.")
    turn: Json = doc("`{number, active_player, active_team, step}`.")
    next_seq: int | None = optional("The first server-chosen id number (older records only).")


@event_type("TurnBegan")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnBegan(DomainEvent):
    """A new turn begins with its untap step (CR 500.1)."""

    number: int = doc("The turn number.")
    active_player: str = doc("The new active player.")
    active_team: str | None = doc("The active team with shared team turns (CR 805), else null.")


@event_type("StepBegan")
@dataclass(frozen=True, slots=True, kw_only=True)
class StepBegan(DomainEvent):
    """The game moves to the next step or phase (CR 500.1)."""

    step: str = doc("The step that begins (`untap` ... `cleanup`).")
    turn: int = doc("The turn number.")
