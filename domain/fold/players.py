"""Folds of counters, life, damage and mana (CR 106, 119, 120, 122)."""

from __future__ import annotations

from domain import events as ev
from domain.fold.shared import set_permanent, set_player, set_team
from domain.fold.table import FOLDS
from domain.state import EMPTY_POOL, GameState, replace, with_count


def _change_counters(state: GameState, target: dict[str, str], kind: str, amount: int) -> GameState:
    if "permanent" in target:
        perm = state.battlefield[target["permanent"]]
        return set_permanent(state, replace(perm, counters=with_count(perm.counters, kind, amount)))
    player = state.players[target["player"]]
    if state.shares_life and kind == "poison" and player.team is not None:
        # 810.10: a Two-Headed Giant team shares its poison counters.
        team = state.teams[player.team]
        return set_team(state, replace(team, counters=with_count(team.counters, kind, amount)))
    return set_player(state, replace(player, counters=with_count(player.counters, kind, amount)))


@FOLDS.on(ev.CountersAdded)
def _counters_added(state: GameState, e: ev.CountersAdded) -> GameState:
    return _change_counters(state, e.target, e.kind, e.amount)


@FOLDS.on(ev.CountersRemoved)
def _counters_removed(state: GameState, e: ev.CountersRemoved) -> GameState:
    return _change_counters(state, e.target, e.kind, -e.amount)


def _change_life(state: GameState, player_id: str, delta: int) -> GameState:
    player = state.players[player_id]
    if state.shares_life and player.team is not None:
        team = state.teams[player.team]
        if team.life is not None:  # 810.9: the team's shared total
            return set_team(state, replace(team, life=team.life + delta))
    return set_player(state, replace(player, life=player.life + delta))


@FOLDS.on(ev.LifeLost)
def _life_lost(state: GameState, e: ev.LifeLost) -> GameState:
    return _change_life(state, e.player, -e.amount)


@FOLDS.on(ev.LifeGained)
def _life_gained(state: GameState, e: ev.LifeGained) -> GameState:
    return _change_life(state, e.player, e.amount)


@FOLDS.on(ev.DamageDealt)
def _damage_dealt(state: GameState, e: ev.DamageDealt) -> GameState:
    permanent_id = e.target.get("permanent")
    if permanent_id is not None and not e.infect and permanent_id in state.battlefield:
        perm = state.battlefield[permanent_id]
        return set_permanent(state, replace(perm, damage=perm.damage + e.amount))
    if e.commander is not None and "player" in e.target:
        # 903.10a: combat damage from each commander adds up over the game (infect's too).
        player = state.players[e.target["player"]]
        dealt = {**player.commander_damage, e.commander: player.commander_damage.get(e.commander, 0) + e.amount}
        return set_player(state, replace(player, commander_damage=dealt))
    return state  # damage to players is folded through the LifeLost / CountersAdded that follow


@FOLDS.on(ev.ManaAdded)
def _mana_added(state: GameState, e: ev.ManaAdded) -> GameState:
    player = state.players[e.player]
    pool = dict(player.mana_pool)
    for mana, n in e.mana.items():
        pool[mana] = pool.get(mana, 0) + n
    return set_player(state, replace(player, mana_pool=pool))


@FOLDS.on(ev.ManaPoolEmptied)
def _mana_pool_emptied(state: GameState, e: ev.ManaPoolEmptied) -> GameState:
    player = state.players[e.player]
    return set_player(state, replace(player, mana_pool=dict(EMPTY_POOL)))
