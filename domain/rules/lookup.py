"""Finding the objects a command names; unknown ones are ``NotFound`` (404)."""

from __future__ import annotations

from domain.errors import Code, IllegalAction, NotFound
from domain.state import GameState, Permanent, Player


def player(state: GameState, player_id: str) -> Player:
    found = state.players.get(player_id)
    if found is None:
        raise NotFound(f"unknown player {player_id!r}; players are {list(state.players)}", Code.UNKNOWN_PLAYER)
    return found


def player_in_game(state: GameState, player_id: str) -> Player:
    """A player who may still act: not lost, not left (CR 800.4a)."""
    found = player(state, player_id)
    if found.lost:
        raise IllegalAction(f"player {player_id!r} has left the game ({found.loss_reason})", Code.PLAYER_LEFT)
    return found


def permanent(state: GameState, permanent_id: str) -> Permanent:
    found = state.battlefield.get(permanent_id)
    if found is None:
        raise NotFound(f"no permanent {permanent_id!r} on the battlefield", Code.UNKNOWN_PERMANENT)
    return found


def target_exists(state: GameState, target: dict[str, str]) -> None:
    if "player" in target:
        player(state, target["player"])
    elif "permanent" in target:
        permanent(state, target["permanent"])
