"""Audit checks of the end of the game and the record (CR 104, 800.4)."""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.audit.common import (
    CHECKS,
    as_json,
    not_in_game,
)
from domain.builder import Builder
from domain.judging import GAME_LOSS_RULE, lost_by_penalty
from domain.rules.sba import PLAYER_LOSS_RULES, check_game_over, player_losses, sides_left, team_losses
from domain.rules.triggers import detect_triggers
from domain.state import GameState


# -- the end of the game ----------------------------------------------------------------------
@CHECKS.on(ev.PlayerLost)
def _player_lost(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    gone = not_in_game(state, player_id)
    if gone:
        return gone
    player = state.players[player_id]
    rule = data.get("rule")
    if player.team is not None and player.team in state.teams and state.teams[player.team].lost:
        return None  # 810.8a: the players of a team that lost lose with it
    if rule == GAME_LOSS_RULE:
        return lost_by_penalty(state, player_id, data.get("reason"))
    if rule not in PLAYER_LOSS_RULES:
        return f"{player_id!r} lost by {rule!r}, which is not a reason a player loses the game (CR 104.3, 704.5)"
    # A player may concede at any time (CR 104.3a); the other reasons must hold now.
    if rule != "CR 104.3a" and rule not in {r for r, _ in player_losses(state, player)}:
        return f"{player_id!r} lost by {rule}, which doesn't apply to them now"
    return None


@CHECKS.on(ev.TeamLost)
def _team_lost(state: GameState, event: ev.Event) -> str | None:
    team_id = event.data.get("team")
    team = state.teams.get(team_id) if isinstance(team_id, str) else None
    if team is None or team.lost:
        return f"{event.data.get('team')!r} is not a team still in the game (CR 810.8a)"
    rule = event.data.get("rule")
    if rule not in {r for r, _ in team_losses(state, team)}:
        return f"team {team.id!r} lost by {rule!r}, which doesn't apply to it now (CR 704.6, 810.8a)"
    return None


@CHECKS.on(ev.GameEnded)
def _game_ended(state: GameState, event: ev.Event) -> str | None:
    """The game ends when one player or team is left (104.2a), or in a draw when all remaining
    lose at once (104.4a): exactly what ``check_game_over`` says of this state."""
    b = Builder(state, detect_triggers)
    check_game_over(b)
    if not b.events:
        return f"the game ended while {sides_left(state)} players or teams are still in it (CR 104.2a)"
    expected = b.events[0]
    if as_json(dict(event.data)) != as_json(dict(expected.data)) or event.rule != expected.rule:
        return f"the game ends with {dict(expected.data)} ({expected.rule}), not {dict(event.data)} (CR 104.2a, 104.4a)"
    return None


@CHECKS.on(ev.NoteAdded)
def _note_added(state: GameState, event: ev.Event) -> str | None:
    text = event.data.get("text")
    return None if isinstance(text, str) and text else f"a note needs its text, got {text!r}"


@CHECKS.on(ev.GameStarted)
def _game_started(state: GameState, event: ev.Event) -> str | None:
    return "GameStarted may only be the first event"


@CHECKS.on(ev.Proliferated)
def _proliferated(state: GameState, event: ev.Event) -> str | None:
    return not_in_game(state, event.data.get("player"))
