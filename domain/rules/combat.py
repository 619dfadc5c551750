"""What the server tracks of combat: declared attackers (CR 508.1) and reported damage (CR 510).

The server doesn't run combat (blockers, damage assignment). A table reports:

- ``attack`` ``{"player": "P1", "attackers": [{"permanent": "moth", "attacks": {"player": "P2"}}]}``
  in the declare attackers step: checked (508.1a: untapped creatures the active player controls,
  302.6 summoning sickness unless haste; each attacks an opponent or a planeswalker or battle),
  recorded as one ``AttackersDeclared`` event, then each attacker without vigilance taps
  (508.1f). "Whenever ~ attacks" abilities trigger on that event (508.3a).
- ``damage`` with ``"source": <permanent id>`` and ``"combat": true`` for combat damage:
  "whenever ~ deals combat damage to a player" abilities trigger on the ``DamageDealt`` event
  whose ``source`` is that permanent's id and whose ``combat`` is true (510.3a). With a permanent
  as ``source``, its keywords apply: infect (702.90b/c), lifelink (702.15b), deathtouch (702.2b;
  the creature it damaged is destroyed right away, as the next state-based action check would,
  704.5h).
"""

from __future__ import annotations

from typing import Any

from domain import commands as c
from domain import events as ev
from domain.builder import Builder
from domain.errors import Code, IllegalAction
from domain.rules import lookup
from domain.rules.activate import is_summoning_sick
from domain.rules.commander import commander_damage_key
from domain.rules.damage import deal_damage
from domain.rules.life import gain_life
from domain.rules.zones import leave_battlefield

#: ``turn_memory`` key: attackers were declared this turn (the API has one combat per turn).
ATTACKERS_DECLARED = "combat:attackers_declared"


def _defending_player(b: Builder, attacker_id: str, player_id: str, attacks: dict[str, str]) -> str:
    """Who is attacked: an opponent, or the controller of a planeswalker / protector of a battle
    (506.2, 508.1b); returns the defending player's id."""
    state = b.state
    if "player" in attacks:
        defender = lookup.player_in_game(state, attacks["player"])
        mine = state.players[player_id]
        if defender.id == player_id or (state.shared_turns and defender.team == mine.team):
            raise IllegalAction(
                f"{attacker_id!r} can't attack {defender.id!r}: not an opponent of {player_id!r} (CR 508.1b)",
                Code.ILLEGAL_TARGET,
            )
        return defender.id
    perm = lookup.permanent(state, attacks["permanent"])
    if not ({"Planeswalker", "Battle"} & perm.card.types) or perm.controller == player_id:
        raise IllegalAction(
            f"{attacker_id!r} can't attack {perm.id!r} ({perm.card.name}): only an opponent's planeswalker "
            "or a battle can be attacked (CR 508.1b)",
            Code.ILLEGAL_TARGET,
        )
    return perm.controller


def declare_attackers(b: Builder, cmd: c.Attack) -> None:
    """Declare attackers (508.1); the attack triggers follow (508.3a)."""
    state = b.state
    lookup.player_in_game(state, cmd.player)
    if cmd.player not in state.active_players() or state.turn.step != "declare_attackers":
        raise IllegalAction(
            f"{cmd.player!r} can declare attackers only in the declare attackers step of their own turn "
            f"(now: {state.turn.active_player!r}'s {state.turn.step}); advance there first (CR 508.1)",
            Code.WRONG_TIMING,
        )
    if ATTACKERS_DECLARED in state.turn_memory:
        raise IllegalAction("attackers were already declared this turn (CR 508.1)", Code.ALREADY_DECLARED)
    if state.stack:
        raise IllegalAction("attackers are declared with an empty stack (CR 508.1)", Code.STACK_NOT_EMPTY)
    seen: set[str] = set()
    entries: list[dict[str, Any]] = []
    for perm_id, attacks in cmd.attackers:
        perm = lookup.permanent(state, perm_id)
        if perm_id in seen:
            raise IllegalAction(f"attackers name {perm_id!r} twice", Code.ILLEGAL_CHOICE)
        seen.add(perm_id)
        if perm.controller != cmd.player or not perm.card.is_creature:
            raise IllegalAction(
                f"{perm_id!r} ({perm.card.name}) is not a creature {cmd.player!r} controls (CR 508.1a)",
                Code.ILLEGAL_CHOICE,
            )
        if perm.tapped:
            raise IllegalAction(
                f"{perm_id!r} ({perm.card.name}) is tapped: it can't attack (CR 508.1a)", Code.ALREADY_TAPPED
            )
        if is_summoning_sick(state, perm):
            raise IllegalAction(
                f"{perm_id!r} ({perm.card.name}) hasn't been under {cmd.player!r}'s control since their most recent "
                "turn began: it can't attack (CR 302.6)",
                Code.SUMMONING_SICK,
            )
        defending = _defending_player(b, perm_id, cmd.player, attacks)
        entries.append({"permanent": perm_id, "attacks": dict(attacks), "defending_player": defending})
    b.emit(
        ev.AttackersDeclared(player=cmd.player, attackers=entries, remember=ATTACKERS_DECLARED),
        "CR 508.1",
    )
    for entry in entries:
        perm = b.state.battlefield[entry["permanent"]]
        if not perm.card.has_keyword("vigilance"):
            b.emit(ev.PermanentTapped(permanent=perm.id, cause="attack"), "CR 508.1f")


def report_damage(b: Builder, cmd: c.Damage) -> None:
    """Reported damage; a permanent named as ``source`` brings its keywords (see module doc)."""
    source = b.state.battlefield.get(cmd.source) if cmd.source else None
    cause = cmd.source or "manual"
    infect = cmd.infect or (source is not None and source.card.has_keyword("infect"))
    commander = commander_damage_key(b.state, source, cmd.target, cmd.combat)  # 903.10a
    deal_damage(
        b, cmd.target, cmd.amount, cause, infect=infect, toxic=cmd.toxic, combat=cmd.combat, commander=commander
    )
    if source is None:
        return
    if source.card.has_keyword("lifelink"):
        gain_life(b, source.controller, cmd.amount, source.card.name, "CR 702.15b")
    target_id = cmd.target.get("permanent")
    victim = b.state.battlefield.get(target_id) if target_id else None
    if (
        victim is not None
        and victim.card.is_creature
        and source.card.has_keyword("deathtouch")
        and not victim.card.has_keyword("indestructible")
    ):
        leave_battlefield(b, victim.id, "graveyard", "state-based action", "CR 704.5h")
