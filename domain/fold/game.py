"""Folds of the game's start, its turn structure, its end and the record (CR 103, 500, 104)."""

from __future__ import annotations

from typing import cast

from domain import events as ev
from domain.fold.shared import cards, remember, set_player, set_team, without
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


@FOLDS.on(ev.FirstPlayerChosen)
def _first_player_chosen(state: GameState, e: ev.FirstPlayerChosen) -> GameState:
    """The chosen player's turn is the game's first (CR 103.1); with shared team turns, their team's."""
    team = state.players[e.player].team if state.shared_turns else None
    return replace(
        state,
        turn=replace(state.turn, active_player=e.player, active_team=team),
        first_player={"player": e.player, "method": e.method},
    )


@FOLDS.on(ev.MulliganTaken)
def _mulligan_taken(state: GameState, e: ev.MulliganTaken) -> GameState:
    """The hand is shuffled into the library (so nothing in it is known any more) and a new hand of
    ``hand_size`` unknown cards is drawn (CR 103.5)."""
    player = state.players[e.player]
    cards = player.library_size + player.hand_size
    player = replace(
        player,
        library=(),
        library_unknown=cards - e.hand_size,
        hand=(),
        hand_unknown=e.hand_size,
        mulligans=e.mulligans,
    )
    return set_player(state, player)


@FOLDS.on(ev.HandKept)
def _hand_kept(state: GameState, e: ev.HandKept) -> GameState:
    """The kept hand loses ``bottom_count`` cards to the bottom of the library (CR 103.5): the named
    ones from the known hand (else from its unknown part, where they had just been revealed), the
    rest unknown. Below an unknown rest their order can't be listed: they join the unknown part."""
    player = state.players[e.player]
    named = cards(e.bottom)
    hand = without(player.hand, named)
    from_unknown = e.bottom_count - (len(player.hand) - len(hand))
    if player.library_unknown or e.bottom_count > len(named):
        library, unknown = player.library, player.library_unknown + e.bottom_count
    else:
        library, unknown = (*player.library, *named), player.library_unknown
    player = replace(
        player,
        hand=hand,
        hand_unknown=player.hand_unknown - from_unknown,
        library=library,
        library_unknown=unknown,
        hand_kept=True,
    )
    return set_player(state, player)


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
