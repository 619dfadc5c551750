"""Folds of the game's start, its turn structure, its end and the record (CR 103, 500, 104)."""

from __future__ import annotations

from typing import cast

from domain import events as ev
from domain.fold.shared import remember, set_player, set_team
from domain.fold.table import FOLDS
from domain.serialize import state_from_json
from domain.state import GameState, Permanent, Player, Result, Team, Turn, Variant, replace


@FOLDS.on(ev.GameStarted)
def _game_started(_: GameState, e: ev.GameStarted) -> GameState:
    players = {p["id"]: Player.from_json(p) for p in e.players}
    teams = {
        tid: Team(id=tid, players=tuple(t["players"]), life=t.get("life"), counters=dict(t.get("counters") or {}))
        for tid, t in (e.teams or {}).items()
    }
    battlefield = {p["id"]: Permanent.from_json(p) for p in e.battlefield or ()}
    turn = e.turn
    return GameState(
        game_id=e.game_id,
        variant=cast(Variant, e.variant),  # setup and the import audit check it
        rules_edition=e.rules_edition,
        tournament=e.tournament,
        players=players,
        teams=teams,
        battlefield=battlefield,
        turn=Turn(turn["number"], turn["active_player"], turn.get("active_team"), turn["step"]),
        next_seq=e.next_seq if e.next_seq is not None else 1,
    )


@FOLDS.on(ev.TurnBegan)
def _turn_began(state: GameState, e: ev.TurnBegan) -> GameState:
    # 731.2 reads, in the new turn's untap step, the spells the previous turn's active players cast.
    last = {pid: state.players[pid].spells_cast for pid in state.active_players()}
    turn = Turn(e.number, e.active_player, e.active_team, "untap")
    state = replace(state, turn=turn, turn_memory=frozenset(), spells_last_turn=last)
    active = set(state.active_players())
    # 302.6: permanents of the new active player(s) have now been controlled since the turn began.
    battlefield = {
        pid: replace(p, controlled_since_turn_began=True) if p.controller in active else p
        for pid, p in state.battlefield.items()
    }
    players = {pid: replace(p, lands_played=0, spells_cast=0) for pid, p in state.players.items()}
    return replace(state, battlefield=battlefield, players=players)


@FOLDS.on(ev.StepBegan)
def _step_began(state: GameState, e: ev.StepBegan) -> GameState:
    state = replace(state, turn=replace(state.turn, step=e.step))
    if e.step == "cleanup":
        # 514.2: damage wears off and "until end of turn" effects end in the cleanup step.
        battlefield = {
            pid: replace(p, damage=0, power_until_eot=0, toughness_until_eot=0)
            if p.damage or p.power_until_eot or p.toughness_until_eot
            else p
            for pid, p in state.battlefield.items()
        }
        state = replace(state, battlefield=battlefield)
    return state


@FOLDS.on(ev.PlayerLost)
def _player_lost(state: GameState, e: ev.PlayerLost) -> GameState:
    player = state.players[e.player]
    state = set_player(state, replace(player, lost=True, loss_reason=e.rule, drew_from_empty=False))
    if any(t.controller == player.id for g in state.pending for t in g.triggers):
        # 800.4d: triggers of a player who left the game aren't put on the stack.
        pending = []
        for group in state.pending:
            rest = tuple(t for t in group.triggers if t.controller != player.id)
            if rest:
                pending.append(replace(group, triggers=rest))
        state = replace(state, pending=tuple(pending))
    return state


@FOLDS.on(ev.TeamLost)
def _team_lost(state: GameState, e: ev.TeamLost) -> GameState:
    return set_team(state, replace(state.teams[e.team], lost=True))


@FOLDS.on(ev.GameEnded)
def _game_ended(state: GameState, e: ev.GameEnded) -> GameState:
    return replace(state, status="finished", result=Result(winners=tuple(e.winners), draw=bool(e.draw)))


@FOLDS.on(ev.NoteAdded, ev.Proliferated)
def _unchanged(state: GameState, _: ev.DomainEvent) -> GameState:
    """A note changes nothing in the game; a proliferate's change is carried by the
    ``CountersAdded`` events that follow it."""
    return state


@FOLDS.on(ev.AttackersDeclared)
def _attackers_declared(state: GameState, e: ev.AttackersDeclared) -> GameState:
    return remember(state, e.remember)  # the attackers' taps follow as events


@FOLDS.on(ev.ActionsReverted)
def _actions_reverted(_: GameState, e: ev.ActionsReverted) -> GameState:
    """The state after a revert is the state at ``to_version`` (docs/architecture.md, Undo), which the
    event carries as ``restored_state`` so that the fold stays a pure function of one event."""
    return state_from_json(e.restored_state)
