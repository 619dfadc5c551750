"""State-based actions (CR 704) and the end of the game (CR 104)."""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.rules.characteristics import toughness_in
from domain.rules.commander import COMMANDER_DAMAGE_LOSS, leave_command_zone
from domain.rules.designations import hand_off
from domain.rules.dungeons import completed_dungeons, waiting_objects
from domain.rules.zones import leave_battlefield
from domain.state import GameState, Permanent, Player, Team

#: Every rule by which a player loses the game (CR 104.3a conceding, 704.5a-c state-based actions,
#: 704.6c commander damage).
PLAYER_LOSS_RULES = ("CR 104.3a", "CR 704.5a", "CR 704.5b", "CR 704.5c", "CR 704.6c")


def _chapter_pending(state: GameState, b: Builder, perm: Permanent) -> bool:
    """A chapter ability of this Saga has triggered and not yet left the stack (704.5s)."""
    waiting = [*state.stack, *b.fired, *(t for g in state.pending for t in g.triggers)]
    return any(o.source == perm.id and "chapter" in o.params for o in waiting)


def sides_left(state: GameState) -> int:
    """Players (teams, in shared team turns) still in the game (CR 104.2a, 805)."""
    remaining = state.in_game()
    return len({p.team for p in remaining} if state.shared_turns else {p.id for p in remaining})


def player_losses(state: GameState, player: Player) -> list[tuple[str, str]]:
    """The state-based actions that make ``player`` lose now, as ``(rule, reason)``, in the order
    they are named (CR 704.5a, 704.5b, 704.5c, 704.6c)."""
    found = []
    if state.life_of(player.id) <= 0:
        found.append(("CR 704.5a", "CR 704.5a: life total 0 or less"))
    if player.drew_from_empty:
        found.append(("CR 704.5b", "CR 704.5b: drew from an empty library"))
    if state.counters_of_player(player.id).get("poison", 0) >= 10:
        found.append(("CR 704.5c", "CR 704.5c: ten or more poison counters"))
    dealt = [key for key, n in player.commander_damage.items() if n >= COMMANDER_DAMAGE_LOSS]
    if dealt:
        found.append(("CR 704.6c", f"CR 704.6c: 21 or more combat damage from the commander {dealt[0]}"))
    return found


def team_losses(state: GameState, team: Team) -> list[tuple[str, str]]:
    """The reasons a Two-Headed Giant team loses now, as ``(rule, reason)`` (CR 704.6a, 704.6b,
    and 810.8a: a team loses when one of its players would)."""
    members = [state.players[p] for p in team.players]
    found = []
    if team.life is not None and team.life <= 0:
        found.append(("CR 704.6a", "CR 704.6a: team life total 0 or less"))
    if team.counters.get("poison", 0) >= 15:
        found.append(("CR 704.6b", "CR 704.6b: fifteen or more poison counters"))
    if any(p.drew_from_empty for p in members):
        found.append(("CR 704.5b", "CR 704.5b: drew from an empty library (CR 810.8a)"))
    if any(p.lost for p in members):
        found.append(("CR 810.8a", "CR 810.8a: a player of the team lost"))
    return found


def _in_game(state: GameState, player_id: str | None) -> bool:
    return player_id is not None and player_id in state.players and not state.players[player_id].lost


def leave_game(b: Builder, player_id: str) -> None:
    """A player who lost or conceded leaves a game that goes on (CR 800.4a): the objects they own
    leave the game and the effects giving them control of other objects end, then the objects they
    control on the stack cease to exist, then the objects they still control are exiled. Nothing
    is done when the game is over anyway (two sides)."""
    if b.state.variant == "two_headed_giant" or sides_left(b.state) <= 1:
        return  # 810.8a: a 2HG team loses as one; with one side left the game is over
    hand_off(b, player_id)  # 725.4, 726.4: at the same time as the player leaves
    leave_command_zone(b, player_id)
    for perm in list(b.state.battlefield.values()):
        if perm.owner == player_id:
            leave_battlefield(b, perm.id, "none", "owner left the game", "CR 800.4a")
    # Effects that gave them control of others' permanents end: each returns to the player who
    # controlled it before those effects (an exchange of control gives it back).
    for perm in list(b.state.battlefield.values()):
        back_to = perm.controller_before_effects
        if perm.controller == player_id and back_to not in (None, player_id) and _in_game(b.state, back_to):
            ended = ev.ControlChanged(
                permanent=perm.id, controller=str(back_to), cause="its controller left the game", ends_effects=True
            )
            b.emit(ended, "CR 800.4a")
    for obj in list(b.state.stack):
        if obj.controller == player_id:
            b.emit(ev.StackObjectCountered(id=obj.id, reason="controller left the game"), "CR 800.4a")
    for perm in list(b.state.battlefield.values()):
        if perm.controller == player_id:
            leave_battlefield(b, perm.id, "exile", "controller left the game", "CR 800.4a")


def check_state_based_actions(b: Builder) -> bool:
    """Perform every applicable SBA at once (704.3); returns whether any was performed."""
    state = b.state
    losers: list[tuple[str, str]] = []
    team_losers: list[tuple[str, str]] = []
    if state.shares_life:
        for team in state.teams.values():
            reasons = [] if team.lost else team_losses(state, team)
            if reasons:
                team_losers.append((team.id, reasons[0][1]))
    else:
        for player in state.players.values():
            reasons = [] if player.lost else player_losses(state, player)
            if reasons:
                losers.append((player.id, reasons[0][1]))

    dying: list[tuple[str, str]] = []
    annihilate: list[tuple[str, int]] = []
    for perm in state.battlefield.values():
        toughness = toughness_in(state, perm) if perm.card.is_creature else None
        if toughness is not None and toughness <= 0:
            dying.append((perm.id, "CR 704.5f"))
        elif (
            toughness is not None
            and perm.damage >= toughness
            and perm.damage > 0
            and not perm.card.has_keyword("indestructible")
        ):
            dying.append((perm.id, "CR 704.5g"))
        elif "Planeswalker" in perm.card.types and perm.counters.get("loyalty", 0) <= 0:
            dying.append((perm.id, "CR 704.5i"))
        elif (
            perm.card.is_saga
            and perm.card.final_chapter > 0
            and perm.counters.get("lore", 0) >= perm.card.final_chapter
            and not _chapter_pending(state, b, perm)
        ):
            dying.append((perm.id, "CR 704.5s"))
        elif perm.attached_to is not None and perm.attached_to not in state.battlefield:
            dying.append((perm.id, "CR 704.5m"))  # an Aura whose permanent left
        n = min(perm.counters.get("+1/+1", 0), perm.counters.get("-1/-1", 0))
        if n > 0:
            annihilate.append((perm.id, n))

    completed = completed_dungeons(state, waiting_objects(state, b))
    if not (losers or team_losers or dying or annihilate or completed):
        return False

    for team_id, why in team_losers:
        rule = why.split(":")[0]
        b.emit(ev.TeamLost(team=team_id, rule=rule, reason=why), rule)
        for pid in state.teams[team_id].players:
            if not b.state.players[pid].lost:
                b.emit(ev.PlayerLost(player=pid, rule=rule, reason=why), rule)
    for pid in completed:
        b.emit(ev.DungeonCompleted(player=pid, dungeon=str(state.players[pid].dungeon)), "CR 704.5t")
    for pid, why in losers:
        rule = why.split(":")[0]
        b.emit(ev.PlayerLost(player=pid, rule=rule, reason=why), rule)
    for pid, _ in losers:
        leave_game(b, pid)
    # Departures first: their last-known information is the state before any of these
    # simultaneous actions (704.8: a dying permanent keeps the +1/+1 counters 704.5q would remove).
    for perm_id, rule in dying:
        if perm_id not in b.state.battlefield:
            continue
        reason = "sacrifice" if rule == "CR 704.5s" else "state-based action"
        leave_battlefield(b, perm_id, "graveyard", reason, rule)
    for perm_id, n in annihilate:
        if perm_id not in b.state.battlefield:
            continue  # it died above, or left the game with its owner (800.4a)
        for kind in ("+1/+1", "-1/-1"):
            removed = ev.CountersRemoved(target={"permanent": perm_id}, kind=kind, amount=n, cause="sba")
            b.emit(removed, "CR 704.5q")
    return True


def check_game_over(b: Builder) -> None:
    """One player or team left wins (104.2a); if all remaining lose at once, a draw (104.4a/d)."""
    state = b.state
    if state.status == "finished":
        return
    if sides_left(state) > 1:
        return
    remaining = state.in_game()
    if not remaining:
        rule = "CR 104.4d" if state.shared_turns else "CR 104.4a"
        b.emit(ev.GameEnded(winners=[], draw=True, rule=rule), rule)
        return
    b.emit(ev.GameEnded(winners=[p.id for p in remaining], draw=False), "CR 104.2a")
