"""Turn structure (CR 500-514): steps in order, turn-based actions, shared team turns (805)."""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.errors import Code, IllegalAction
from domain.rules.counters import add_counters
from domain.rules.designations import check_day_night
from domain.rules.opening import check_mulligans_done
from domain.rules.stack import settle
from domain.rules.zones import draw
from domain.state import STEPS, GameState


def _end_step(b: Builder) -> None:
    """Mana empties from each pool at the end of each step and phase (CR 106.4, 500.5)."""
    for player in b.state.players.values():
        if any(player.mana_pool.values()):
            lost = {k: n for k, n in player.mana_pool.items() if n}
            b.emit(ev.ManaPoolEmptied(player=player.id, lost=lost), "CR 106.4")


def next_turn_owner(state: GameState) -> tuple[str, str | None]:
    """The next player (or team, in shared team turns) in turn order still in the game."""
    if state.shared_turns:
        teams = [t for t in state.teams.values() if not t.lost]
        order = list(state.teams)
        current = order.index(state.turn.active_team) if state.turn.active_team in order else -1
        for offset in range(1, len(order) + 1):
            team = state.teams[order[(current + offset) % len(order)]]
            if team in teams:
                first = next(p for p in team.players if not state.players[p].lost)
                return first, team.id
        raise IllegalAction("no team left to take a turn", Code.GAME_OVER)
    order = list(state.players)
    current = order.index(state.turn.active_player)
    for offset in range(1, len(order) + 1):
        pid = order[(current + offset) % len(order)]
        if not state.players[pid].lost:
            return pid, None
    raise IllegalAction("no player left to take a turn", Code.GAME_OVER)


def _skips_first_draw(state: GameState) -> bool:
    """The first player (team) skips the draw of the first turn: 103.8a (a two-player game, of any
    variant: a Commander duel too), 103.8b (Two-Headed Giant); not in other multiplayer games
    (103.8c, 800.7), which are the games that begin with more than two players (100.1b)."""
    return state.turn.number == 1 and (not state.began_multiplayer or state.variant == "two_headed_giant")


def _begin_step(b: Builder, step: str) -> None:
    b.emit(ev.StepBegan(step=step, turn=b.state.turn.number), "CR 500.1")
    state = b.state
    if step == "untap":
        check_day_night(b)  # 502.2: second part of the untap step, before untapping (502.3)
        state = b.state
        for perm in list(state.battlefield.values()):
            if perm.tapped and perm.controller in state.active_players():
                b.emit(ev.PermanentUntapped(permanent=perm.id, cause="untap step"), "CR 502.3")
    elif step == "draw" and not _skips_first_draw(state):
        for pid in state.active_players():
            draw(b, pid, 1, "draw step", rule="CR 504.1")
    elif step == "precombat_main":
        # 505.4 / 714.3c: a lore counter on each Saga the active player controls.
        for perm in list(state.battlefield.values()):
            if perm.card.is_saga and perm.controller in state.active_players():
                add_counters(b, {"permanent": perm.id}, "lore", 1, "saga", "CR 714.3c", by_effect=False)


def _begin_turn(b: Builder) -> None:
    player, team = next_turn_owner(b.state)
    number = b.state.turn.number + 1
    b.emit(ev.TurnBegan(number=number, active_player=player, active_team=team), "CR 500.1")
    _begin_step(b, "untap")


def advance(b: Builder, to: str | None) -> None:
    """End the current step and begin the next, or move on to ``to`` (``next_turn`` allowed),
    performing turn-based actions on the way; stop early at the first step where something
    went on the stack or waits for an order."""
    if b.state.stack:
        raise IllegalAction(
            f"can't end the step while the stack holds {len(b.state.stack)} object(s)", Code.STACK_NOT_EMPTY
        )
    check_mulligans_done(b.state)  # 103.5: the first turn begins once every mulligan is over
    while True:
        _end_step(b)
        index = STEPS.index(b.state.turn.step)
        if index + 1 == len(STEPS):
            _begin_turn(b)
        else:
            _begin_step(b, STEPS[index + 1])
        settle(b)
        state = b.state
        if state.status == "finished" or state.stack or state.pending:
            return
        if to is None:
            return
        if to == "next_turn" and state.turn.step == "untap":
            return
        if to == state.turn.step:
            return
