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


@event_type("FirstPlayerChosen")
@dataclass(frozen=True, slots=True, kw_only=True)
class FirstPlayerChosen(DomainEvent):
    """The player who takes the first turn is chosen before any mulligan (CR 103.1): at random (the
    server's pick, recorded here so a replay never rolls again) or by a player's choice (the loser
    of the previous game of the match, CR 103.1, MTR 2.2)."""

    player: str = doc("Who takes the first turn: the turn's active player from now on.")
    method: str = doc("`random` (picked by the server) or `chosen`.")


@event_type("MulliganTaken")
@dataclass(frozen=True, slots=True, kw_only=True)
class MulliganTaken(DomainEvent):
    """A player takes a mulligan (CR 103.5, London): their hand is shuffled into their library and
    they draw a new hand of their starting hand size, unknown to the server."""

    player: str = doc("Who took it.")
    mulligans: int = doc("The mulligans they have taken now, this one included.")
    hand_size: int = doc("The cards in the new hand: seven, or all there are (CR 103.5).")


@event_type("HandKept")
@dataclass(frozen=True, slots=True, kw_only=True)
class HandKept(DomainEvent):
    """A player keeps their hand (CR 103.5): it becomes their opening hand, and they put one card
    on the bottom of their library for each mulligan taken, less the first in a multiplayer game
    (CR 103.5c)."""

    player: str = doc("Who kept.")
    mulligans: int = doc("The mulligans they took.")
    bottom_count: int = doc("How many cards they put on the bottom of their library.")
    bottom: list[Json] | None = optional(
        "The named cards among them (hidden from lower roles); the others are unknown cards."
    )
