"""Small state updates used by several folds."""

from __future__ import annotations

from typing import Any

from domain.cards.model import Card
from domain.state import GameState, Permanent, Player, Team, replace


def cards(raw: Any) -> tuple[Card, ...]:
    return tuple(Card.from_json(c) for c in raw or ())


def seq_after(state: GameState, seq: int | None) -> int:
    """``next_seq`` stays above every id number an event gave (so a replay gives the same ids)."""
    return max(state.next_seq, seq + 1) if isinstance(seq, int) else state.next_seq


def set_player(state: GameState, player: Player) -> GameState:
    players = dict(state.players)
    players[player.id] = player
    return replace(state, players=players)


def set_team(state: GameState, team: Team) -> GameState:
    teams = dict(state.teams)
    teams[team.id] = team
    return replace(state, teams=teams)


def set_permanent(state: GameState, permanent: Permanent) -> GameState:
    battlefield = dict(state.battlefield)
    battlefield[permanent.id] = permanent
    return replace(state, battlefield=battlefield)


def remember(state: GameState, key: Any) -> GameState:
    """Note a "once each turn" fact (``GameState.turn_memory``)."""
    if not isinstance(key, str) or key in state.turn_memory:
        return state
    return replace(state, turn_memory=state.turn_memory | {key})


def without_one(cards: tuple[Card, ...], name: str) -> tuple[Card, ...]:
    """``cards`` less the first card named ``name`` (unchanged if there is none)."""
    names = [c.name for c in cards]
    return cards[: names.index(name)] + cards[names.index(name) + 1 :] if name in names else cards


def without(cards: tuple[Card, ...], taken: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` less one card of each name in ``taken`` (the first one found)."""
    rest = list(cards)
    for card in taken:
        names = [c.name for c in rest]
        if card.name in names:
            del rest[names.index(card.name)]
    return tuple(rest)
