"""Audit checks of a game's opening (CR 103): the first player (103.1) and mulligans (103.5)."""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.audit.common import CHECKS, card_names, is_count, not_in_game
from domain.rules.opening import STARTING_HAND, counted
from domain.state import GameState


def _opening(state: GameState, what: str) -> str | None:
    if not state.in_opening:
        return (
            f"{what} in turn {state.turn.number}, {state.turn.step}: it happens before the game's first "
            "turn-based action (CR 103)"
        )
    return None


@CHECKS.on(ev.FirstPlayerChosen)
def _first_player_chosen(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    late = _opening(state, "the first player chosen")
    if late:
        return late
    missing = not_in_game(state, data.get("player"))
    if missing:
        return missing
    if data.get("method") not in ("random", "chosen"):
        return f"'method' is 'random' or 'chosen', got {data.get('method')!r}"
    if state.variant == "archenemy":
        return "in archenemy the archenemy takes the first turn (CR 904.6)"
    if state.first_player is not None:
        return f"the first player was already chosen ({state.first_player['player']!r})"
    if any(p.mulligans or p.hand_kept for p in state.players.values()):
        return "the first player is chosen before any mulligan (CR 103.1, 103.5)"
    return None


def _mulligan_player(state: GameState, data: Any, what: str) -> str | None:
    late = _opening(state, what)
    if late:
        return late
    missing = not_in_game(state, data.get("player"))
    if missing:
        return missing
    if state.players[data["player"]].hand_kept:
        return f"{data['player']} kept their hand: no further mulligans (CR 103.5)"
    return None


@CHECKS.on(ev.MulliganTaken)
def _mulligan_taken(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    wrong = _mulligan_player(state, data, "a mulligan")
    if wrong:
        return wrong
    player = state.players[data["player"]]
    if data.get("mulligans") != player.mulligans + 1:
        return f"mulligan {data.get('mulligans')!r} of {player.id}, who had taken {player.mulligans}"
    if counted(state, player.mulligans) >= STARTING_HAND:
        return f"{player.id} can't take another mulligan: their opening hand would be zero cards (CR 103.5)"
    hand = min(STARTING_HAND, player.library_size + player.hand_size)
    if data.get("hand_size") != hand:
        return f"a new hand of {data.get('hand_size')!r}: a mulligan draws {hand} (CR 103.5)"
    return None


@CHECKS.on(ev.HandKept)
def _hand_kept(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    wrong = _mulligan_player(state, data, "a kept hand")
    if wrong:
        return wrong
    player = state.players[data["player"]]
    if data.get("mulligans") != player.mulligans:
        return f"{player.id} kept after {data.get('mulligans')!r} mulligans, but took {player.mulligans}"
    if not is_count(data.get("bottom_count"), minimum=0):
        return f"'bottom_count' must be a whole number, got {data.get('bottom_count')!r}"
    count = min(counted(state, player.mulligans), player.hand_size)
    if data.get("bottom_count") != count:
        return (
            f"{data.get('bottom_count')!r} card(s) on the bottom, but {player.id} puts {count} there after "
            f"{player.mulligans} mulligan(s) (CR 103.5, 103.5c)"
        )
    names = card_names(data.get("bottom") or [])
    if len(names) > count:
        return f"{len(names)} named cards on the bottom, more than the {count} that go there"
    known = [c.name for c in player.hand]
    unknown = player.hand_unknown
    for name in names:
        if name in known:
            known.remove(name)
        elif unknown > 0:
            unknown -= 1
        else:
            return f"{name!r} is not in {player.id}'s hand"
    return None
