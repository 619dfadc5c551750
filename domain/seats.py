"""Where an event link's player sits: the small value ``domain.permissions`` decides a
tournament-bound player token's rights in one game by (docs/tournaments.md, The player's link).

The ledger looks it up in the tournament's record (``domain.tournament.seats.seat_of``) for the
game a request names and hands it to the permission check on the token's ``Grant``; the check
itself stays pure and in one place (``domain.permissions.seat_refusal``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seat:
    """A tournament player's seat in one game of the event, as the tournament's record says."""

    tournament_id: str
    game_id: str
    """The game: ``<tournament>.r<round>.t<table>.g<n>``, a game of the player's own table."""
    round: int
    table: int
    players: tuple[str, ...]
    """The table's players (tournament player ids, seat order)."""
    player: str
    """The player seated (the token's player)."""
    dropped: bool
    """The player has dropped from the event: their event link no longer acts."""
