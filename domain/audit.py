"""Auditing a recorded game against the rules, one event at a time (docs/audit.md, "Import rules").

An export file holds events, not the commands that caused them, so an import can't re-decide
each command. What it can check instead:

- ``check_event(state, event)``: the event is consistent with the state it applies to, the state
  just before it (a life total it reports is the one the fold gives, the cards milled are the
  known top of the library, a permanent it taps is there and untapped, the game it ends is over
  by the rules, ...). It gives the reason when it is not, else ``None``.
- ``check_settled(state)``: the state at the end of an action is one where a player could receive
  priority: no state-based action applies (CR 704.3) and the game is over exactly when at most
  one player or team is left in it (CR 104.2a, 104.4a).

Both are pure: they read the state and build throw-away values, nothing else. Each check cites
the rule it enforces. ``ActionsReverted`` has none here: its ``restored_state`` is checked against
the history by the import itself (``projections.game_files``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from domain import events as ev
from domain.builder import Builder
from domain.cards.model import Card
from domain.errors import GameError
from domain.rules.counters import count_on
from domain.rules.sba import check_game_over, check_state_based_actions
from domain.rules.turns import next_turn_owner
from domain.state import MANA_TYPES, STEPS, GameState, StackObject

Data = Mapping[str, Any]
Check = Callable[[GameState, ev.Event], "str | None"]

#: What may still be recorded once the game is over (CR 104.1: it ends immediately).
AFTER_THE_END = frozenset({ev.NOTE_ADDED, ev.ACTIONS_REVERTED})
#: Zones a permanent can go to when it leaves the battlefield (``PermanentLeft.to``).
LEAVE_TO = frozenset({"graveyard", "exile", "hand", "library_top", "library_bottom", "none"})


# -- small readers: each gives a reason, never raises for a well-formed state -----------------
def _count(value: Any, *, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def _amount(data: Data, key: str = "amount") -> str | None:
    """Amounts are at least 1: no zero-amount events (docs/rules.md, correction 8)."""
    value = data.get(key)
    return None if _count(value, minimum=1) else f"{key!r} must be a whole number of at least 1, got {value!r}"


def _no_player(state: GameState, player_id: Any) -> str | None:
    if not isinstance(player_id, str) or player_id not in state.players:
        return f"{player_id!r} is not a player of this game"
    return None


def _not_in_game(state: GameState, player_id: Any) -> str | None:
    missing = _no_player(state, player_id)
    if missing:
        return missing
    if state.players[player_id].lost:
        return f"player {player_id!r} has already left the game (CR 800.4a)"
    return None


def _no_permanent(state: GameState, permanent_id: Any) -> str | None:
    if not isinstance(permanent_id, str) or permanent_id not in state.battlefield:
        return f"there is no permanent {permanent_id!r} on the battlefield"
    return None


def _no_target(state: GameState, target: Any) -> str | None:
    if isinstance(target, Mapping) and set(target) == {"player"}:
        return _no_player(state, target["player"])
    if isinstance(target, Mapping) and set(target) == {"permanent"}:
        return _no_permanent(state, target["permanent"])
    return f"a target is {{'player': id}} or {{'permanent': id}}, got {target!r}"


def _names(raw: Any) -> list[str]:
    """Names of a list of recorded cards (each must be a card object)."""
    if not isinstance(raw, list):
        raise TypeError(f"'cards' must be a list, got {raw!r}")
    return [Card.from_json(c).name for c in raw]


def _on_stack(state: GameState, object_id: Any) -> StackObject | None:
    return next((o for o in state.stack if o.id == object_id), None)


def _waiting(state: GameState, object_id: Any) -> int | None:
    """The index of the pending group holding this trigger, if any."""
    return next((i for i, g in enumerate(state.pending) if any(t.id == object_id for t in g.triggers)), None)


def _sides(state: GameState) -> int:
    """Players (teams, in shared team turns) still in the game (CR 104.2a, 805)."""
    remaining = state.in_game()
    return len({p.team for p in remaining} if state.shared_turns else {p.id for p in remaining})


def _normal(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


# -- turn structure ---------------------------------------------------------------------------
def _priority_free(state: GameState, what: str) -> str | None:
    """Steps end only with an empty stack and no triggers waiting for an order (CR 500.2, 603.3b)."""
    if state.stack:
        return f"{what} while the stack holds {len(state.stack)} object(s) (CR 500.2)"
    if state.pending:
        return f"{what} while triggers wait for their order (CR 603.3b)"
    return None


def _turn_began(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    busy = _priority_free(state, "a new turn began")
    if busy:
        return busy
    if state.turn.step != "cleanup":
        return f"a new turn began from the {state.turn.step} step: a turn ends after its cleanup step (CR 500.1)"
    if data.get("number") != state.turn.number + 1:
        return f"turn {data.get('number')!r} follows turn {state.turn.number} (CR 500.1)"
    player, team = next_turn_owner(state)
    if (data.get("active_player"), data.get("active_team")) != (player, team):
        return (
            f"the next turn is {player}'s{f' (team {team!r})' if team else ''}, "
            f"not {data.get('active_player')}'s: the turn passes to the next player in turn order "
            "still in the game (CR 800.4a; a team's turn, CR 805.4)"
        )
    return None


def _step_began(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    busy = _priority_free(state, f"the {data.get('step')!r} step began")
    if busy:
        return busy
    if data.get("turn") != state.turn.number:
        return f"a step of turn {data.get('turn')!r} began in turn {state.turn.number}"
    current = state.turn.step
    following = STEPS[STEPS.index(current) + 1] if current != STEPS[-1] else None
    if data.get("step") == following or (data.get("step") == "untap" and current == "untap"):
        return None
    return f"the {data.get('step')!r} step can't follow the {current} step: steps go in order (CR 500.1)"


# -- the stack --------------------------------------------------------------------------------
def _triggers_pending(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    side = data.get("controller")
    if side not in state.players and side not in state.teams:
        return f"{side!r} is neither a player nor a team of this game"
    triggers = [StackObject.from_json(t) for t in data["triggers"]]
    if not triggers:
        return "no triggers to order (CR 603.3b)"
    for trigger in triggers:
        if _on_stack(state, trigger.id) is not None or _waiting(state, trigger.id) is not None:
            return f"trigger {trigger.id!r} is already on the stack or waiting"
    return None


def _trigger_put_on_stack(state: GameState, event: ev.Event) -> str | None:
    obj = StackObject.from_json(event.data["object"])
    if obj.kind != "trigger":
        return f"{obj.id!r} is a {obj.kind}, not a triggered ability"
    if _on_stack(state, obj.id) is not None:
        return f"{obj.id!r} is already on the stack"
    gone = _not_in_game(state, obj.controller)
    if gone:
        return f"the trigger's controller: {gone}; their abilities aren't put on the stack (CR 800.4d)"
    group = _waiting(state, obj.id)
    if group is None:
        return None  # a trigger put on the stack as it triggered (CR 603.3)
    if group != 0:
        asked = state.pending[0].controller
        return f"{obj.id!r} waits behind {asked}'s triggers, which are ordered first (CR 603.3b)"
    waiting = next(t for t in state.pending[0].triggers if t.id == obj.id)
    if waiting != obj:
        return f"{obj.id!r} is not the trigger that was waiting: it must go on the stack as it triggered (CR 603.3b)"
    return None


def _spell_cast(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    gone = _not_in_game(state, player_id)
    if gone:
        return gone
    obj = StackObject.from_json(data["object"])
    if obj.kind != "spell" or obj.card is None or obj.controller != player_id:
        return f"the object {obj.id!r} must be a spell with its card, controlled by {player_id!r} (CR 601.2)"
    if _on_stack(state, obj.id) is not None:
        return f"{obj.id!r} is already on the stack"
    player = state.players[player_id]
    name, zone = obj.card.name, data.get("from", "hand")
    if zone == "hand" and name not in {c.name for c in player.hand} and player.hand_unknown == 0:
        return f"{name!r} is not in {player_id}'s hand (CR 601.2a)"
    if zone in ("graveyard", "exile"):
        cards = player.graveyard if zone == "graveyard" else player.exile
        if name not in {c.name for c in cards}:
            return f"{name!r} is not in {player_id}'s {zone} (CR 601.2a)"
    if zone == "library" and (player.library_size == 0 or (player.library and player.library[0].name != name)):
        return f"{name!r} is not the top card of {player_id}'s library (CR 601.2a)"
    return None


def _ability_activated(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    gone = _not_in_game(state, data.get("player")) or _no_permanent(state, data.get("permanent"))
    if gone:
        return f"{gone} (CR 602.2)"
    raw = data.get("object")
    if raw is None:
        return None  # a mana ability doesn't use the stack (CR 605.3b)
    obj = StackObject.from_json(raw)
    if obj.kind != "ability" or _on_stack(state, obj.id) is not None:
        return f"the object {obj.id!r} must be a new activated ability (CR 602.2)"
    return None


def _resolved(state: GameState, event: ev.Event) -> str | None:
    object_id = event.data.get("id")
    if not state.stack:
        return f"{object_id!r} resolved from an empty stack (CR 608.1)"
    top = state.stack[-1]
    if top.id != object_id:
        return f"{object_id!r} resolved, but the object on top of the stack is {top.id!r} (CR 608.1)"
    return None


def _countered(state: GameState, event: ev.Event) -> str | None:
    object_id = event.data.get("id")
    if _on_stack(state, object_id) is None:
        return f"there is no object {object_id!r} on the stack to counter or remove (CR 701.6a)"
    return None


# -- counters, life, damage -------------------------------------------------------------------
def _counters_added(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    kind = data.get("kind")
    if not isinstance(kind, str) or not kind:
        return f"'kind' must name a kind of counter, got {kind!r}"
    return _no_target(state, data.get("target")) or _amount(data)


def _counters_removed(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    problem = _counters_added(state, event)
    if problem:
        return problem
    have = count_on(state, dict(data["target"]), data["kind"])
    if data["amount"] > have:
        return (
            f"{data['amount']} {data['kind']!r} counter(s) removed from {data['target']}, which has {have}: "
            "only counters that are there can be removed (CR 118.3, 609.3)"
        )
    return None


def _life(sign: int) -> Check:
    def check(state: GameState, event: ev.Event) -> str | None:
        data = event.data
        player_id: Any = data.get("player")
        problem = _no_player(state, player_id) or _amount(data)
        if problem:
            return problem
        before = state.life_of(player_id)
        after = before + sign * data["amount"]
        if data.get("life_after") != after:
            return (
                f"life_after is {data.get('life_after')!r}, but {player_id}'s life goes from {before} "
                f"to {after} (CR 119.3)"
            )
        return None

    return check


def _damage_dealt(state: GameState, event: ev.Event) -> str | None:
    missing = _no_target(state, event.data.get("target"))
    if missing:
        return missing
    zero = _amount(event.data)
    return f"{zero}: a source that would deal 0 damage deals no damage (CR 120.8)" if zero else None


# -- cards in zones ---------------------------------------------------------------------------
def _from_the_top(state: GameState, player_id: str, names: list[str], rule: str) -> str | None:
    """The cards come off the top of the library: the known top cards, in order."""
    player = state.players[player_id]
    for i, (given, known) in enumerate(zip(names, player.library, strict=False)):
        if given != known.name:
            return f"card {i + 1} from the top of {player_id}'s library is {known.name!r}, not {given!r} ({rule})"
    return None


def _cards_milled(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    missing = _no_player(state, player_id)
    if missing:
        return missing
    requested: Any = data.get("requested")
    if not _count(requested, minimum=0):
        return f"'requested' must be a whole number, got {requested!r}"
    names = _names(data.get("cards"))
    size = state.players[player_id].library_size
    n = min(requested, size)
    if len(names) != n:
        return (
            f"{len(names)} card(s) milled, but mill {requested} from {player_id}'s library of {size} "
            f"mills {n}: as many as possible (CR 701.17a, 701.17b)"
        )
    wrong = _from_the_top(state, player_id, names, "CR 701.17a")
    if wrong:
        return wrong
    nonland = sum(1 for c in data["cards"] if not Card.from_json(c).is_land)
    if data.get("nonland_count") != nonland:
        return f"nonland_count is {data.get('nonland_count')!r}, but {nonland} of the milled cards are nonland"
    return None


def _cards_drawn(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    missing = _no_player(state, player_id)
    if missing:
        return missing
    requested: Any = data.get("requested")
    unknown: Any = data.get("unknown_count", 0)
    if not _count(requested, minimum=0) or not _count(unknown, minimum=0):
        return f"'requested' and 'unknown_count' must be whole numbers, got {requested!r}, {unknown!r}"
    names = _names(data.get("cards"))
    player = state.players[player_id]
    n = min(requested, player.library_size)
    if len(names) + unknown != n:
        return (
            f"{len(names) + unknown} card(s) drawn, but draw {requested} from {player_id}'s library of "
            f"{player.library_size} draws {n} (CR 121.1, 121.2)"
        )
    if bool(data.get("from_empty")) != (requested > player.library_size):
        return (
            f"from_empty is {data.get('from_empty')!r} for draw {requested} from a library of "
            f"{player.library_size} (CR 121.4)"
        )
    if unknown and len(names) < len(player.library):
        return f"known library cards can't be drawn unseen: name the top {len(player.library)} (CR 121.1)"
    return _from_the_top(state, player_id, names, "CR 121.1")


def _cards_moved(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    missing = _no_player(state, player_id)
    if missing:
        return missing
    names = _names(data.get("cards"))
    player = state.players[player_id]
    origin = data.get("from")
    zones = {"graveyard": (player.graveyard, 0), "hand": (player.hand, player.hand_unknown)}
    zones["library"] = (player.library, player.library_unknown)
    if origin not in zones:
        return None  # from the stack: the resolving spell's own card (CR 608.3b)
    cards, hidden = zones[origin]
    rest = [c.name for c in cards]
    for name in names:
        if name in rest:
            rest.remove(name)
        elif hidden > 0:
            hidden -= 1
        else:
            return f"{name!r} is not in {player_id}'s {origin} (CR 400.1)"
    return None


# -- the battlefield --------------------------------------------------------------------------
def _permanent_entered(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    raw = data["permanent"]
    if raw["id"] in state.battlefield:
        return f"a permanent {raw['id']!r} is already on the battlefield"
    problem = _no_player(state, raw["owner"]) or _no_player(state, raw["controller"])
    if problem:
        return problem
    name = Card.from_json(raw["card"]).name
    origin = data.get("from")
    if origin == "hand":
        player = state.players[raw["owner"]]
        if name not in {c.name for c in player.hand} and player.hand_unknown == 0:
            return f"{name!r} is not in {player.id}'s hand (CR 305.1)"
        if data.get("land_play") and player.lands_played >= 1:
            return f"{player.id!r} has already played a land this turn (CR 305.2)"
    if origin == "stack":
        top = state.stack[-1] if state.stack else None
        if top is None or top.card is None or top.card.name != name:
            return f"{name!r} enters from the stack but is not the spell on top of it (CR 608.3)"
    return None


#: The fields of ``PermanentLeft.last_known`` that must be the permanent as it is (CR 603.10a).
LAST_KNOWN = ("id", "owner", "controller", "tapped", "counters", "controlled_since_turn_began", "token")


def _permanent_left(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    missing = _no_permanent(state, data.get("permanent"))
    if missing:
        return missing
    perm = state.battlefield[data["permanent"]]
    if data.get("to") not in LEAVE_TO:
        return f"'to' must be one of {sorted(LEAVE_TO)}, got {data.get('to')!r}"
    last = data.get("last_known")
    actual = {
        "id": perm.id,
        "owner": perm.owner,
        "controller": perm.controller,
        "tapped": perm.tapped,
        "counters": dict(perm.counters),
        "controlled_since_turn_began": perm.controlled_since_turn_began,
        "token": perm.token,
    }
    if (
        not isinstance(last, Mapping)
        or _normal({k: last.get(k) for k in LAST_KNOWN}) != _normal(actual)
        or last.get("attached_to") != perm.attached_to
        or Card.from_json(last["card"]).name != perm.card.name
        or data.get("name") != perm.card.name
    ):
        return f"last_known is not {perm.id!r} as it last existed on the battlefield (CR 603.10a)"
    return None


def _tapped(tapped: bool) -> Check:
    def check(state: GameState, event: ev.Event) -> str | None:
        missing = _no_permanent(state, event.data.get("permanent"))
        if missing:
            return missing
        perm = state.battlefield[event.data["permanent"]]
        if perm.tapped == tapped:
            verb, rule = ("tapped", "CR 701.26a") if tapped else ("untapped", "CR 701.26b")
            return f"{perm.id!r} ({perm.card.name}) is already {verb} ({rule})"
        return None

    return check


def _control_changed(state: GameState, event: ev.Event) -> str | None:
    return _no_permanent(state, event.data.get("permanent")) or _not_in_game(state, event.data.get("controller"))


def _power_toughness_modified(state: GameState, event: ev.Event) -> str | None:
    return _no_permanent(state, event.data.get("permanent"))


def _attackers_declared(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    if player_id not in state.active_players() or state.turn.step != "declare_attackers":
        return f"{player_id!r} declared attackers outside the declare attackers step of their turn (CR 508.1)"
    for entry in data["attackers"]:
        missing = _no_permanent(state, entry["permanent"])
        if missing:
            return missing
        perm = state.battlefield[entry["permanent"]]
        if perm.controller != player_id or not perm.card.is_creature or perm.tapped:
            return f"{perm.id!r} ({perm.card.name}) is not an untapped creature {player_id!r} controls (CR 508.1a)"
    return None


# -- mana -------------------------------------------------------------------------------------
def _mana_added(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    missing = _no_player(state, data.get("player"))
    if missing:
        return missing
    mana = data.get("mana")
    if (
        not isinstance(mana, Mapping)
        or not mana
        or not all(m in MANA_TYPES and _count(n, minimum=1) for m, n in mana.items())
    ):
        return f"'mana' must map mana types {list(MANA_TYPES)} to amounts of at least 1, got {mana!r} (CR 106.1)"
    return None


def _mana_pool_emptied(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    missing = _no_player(state, data.get("player"))
    if missing:
        return missing
    pool = {m: n for m, n in state.players[data["player"]].mana_pool.items() if n}
    if not pool or data.get("lost") != pool:
        return f"'lost' must be the mana in {data['player']}'s pool, {pool} (CR 106.4)"
    return None


# -- the end of the game ----------------------------------------------------------------------
def _player_lost(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    gone = _not_in_game(state, player_id)
    if gone:
        return gone
    player = state.players[player_id]
    rule = data.get("rule")
    if player.team is not None and player.team in state.teams and state.teams[player.team].lost:
        return None  # 810.8a: the players of a team that lost lose with it
    holds = {
        "CR 104.3a": True,  # a player may concede at any time
        "CR 704.5a": state.life_of(player_id) <= 0,
        "CR 704.5b": player.drew_from_empty,
        "CR 704.5c": state.counters_of_player(player_id).get("poison", 0) >= 10,
    }
    if rule not in holds:
        return f"{player_id!r} lost by {rule!r}, which is not a reason a player loses the game (CR 104.3, 704.5)"
    if not holds[rule]:
        return f"{player_id!r} lost by {rule}, which doesn't apply to them now"
    return None


def _team_lost(state: GameState, event: ev.Event) -> str | None:
    team_id = event.data.get("team")
    team = state.teams.get(team_id) if isinstance(team_id, str) else None
    if team is None or team.lost:
        return f"{event.data.get('team')!r} is not a team still in the game (CR 810.8a)"
    members = [state.players[p] for p in team.players]
    holds = {
        "CR 704.6a": team.life is not None and team.life <= 0,
        "CR 704.6b": team.counters.get("poison", 0) >= 15,
        "CR 704.5b": any(p.drew_from_empty for p in members),
        "CR 810.8a": any(p.lost for p in members),
    }
    rule = event.data.get("rule")
    if not (isinstance(rule, str) and holds.get(rule, False)):
        return f"team {team.id!r} lost by {rule!r}, which doesn't apply to it now (CR 704.6, 810.8a)"
    return None


def _game_ended(state: GameState, event: ev.Event) -> str | None:
    """The game ends when one player or team is left (104.2a), or in a draw when all remaining
    lose at once (104.4a): exactly what ``check_game_over`` says of this state."""
    b = Builder(state)
    check_game_over(b)
    if not b.events:
        return f"the game ended while {_sides(state)} players or teams are still in it (CR 104.2a)"
    expected = b.events[0]
    if _normal(dict(event.data)) != _normal(dict(expected.data)) or event.rule != expected.rule:
        return f"the game ends with {dict(expected.data)} ({expected.rule}), not {dict(event.data)} (CR 104.2a, 104.4a)"
    return None


def _note_added(state: GameState, event: ev.Event) -> str | None:
    text = event.data.get("text")
    return None if isinstance(text, str) and text else f"a note needs its text, got {text!r}"


def _game_started(state: GameState, event: ev.Event) -> str | None:
    return "GameStarted may only be the first event"


def _proliferated(state: GameState, event: ev.Event) -> str | None:
    return _not_in_game(state, event.data.get("player"))


CHECKS: dict[str, Check] = {
    ev.GAME_STARTED: _game_started,
    ev.TURN_BEGAN: _turn_began,
    ev.STEP_BEGAN: _step_began,
    ev.TRIGGERS_PENDING: _triggers_pending,
    ev.TRIGGER_PUT_ON_STACK: _trigger_put_on_stack,
    ev.STACK_OBJECT_RESOLVED: _resolved,
    ev.STACK_OBJECT_COUNTERED: _countered,
    ev.SPELL_CAST: _spell_cast,
    ev.ABILITY_ACTIVATED: _ability_activated,
    ev.COUNTERS_ADDED: _counters_added,
    ev.COUNTERS_REMOVED: _counters_removed,
    ev.LIFE_LOST: _life(-1),
    ev.LIFE_GAINED: _life(+1),
    ev.DAMAGE_DEALT: _damage_dealt,
    ev.CARDS_MILLED: _cards_milled,
    ev.CARDS_DRAWN: _cards_drawn,
    ev.CARDS_MOVED: _cards_moved,
    ev.PROLIFERATED: _proliferated,
    ev.PERMANENT_ENTERED: _permanent_entered,
    ev.PERMANENT_LEFT: _permanent_left,
    ev.PERMANENT_TAPPED: _tapped(True),
    ev.PERMANENT_UNTAPPED: _tapped(False),
    ev.CONTROL_CHANGED: _control_changed,
    ev.POWER_TOUGHNESS_MODIFIED: _power_toughness_modified,
    ev.ATTACKERS_DECLARED: _attackers_declared,
    ev.MANA_ADDED: _mana_added,
    ev.MANA_POOL_EMPTIED: _mana_pool_emptied,
    ev.PLAYER_LOST: _player_lost,
    ev.TEAM_LOST: _team_lost,
    ev.GAME_ENDED: _game_ended,
    ev.NOTE_ADDED: _note_added,
    # ActionsReverted needs the history (its restored_state is checked by the import itself).
}


def check_event(state: GameState, event: ev.Event) -> str | None:
    """Why ``event`` can't follow ``state`` (the state just before it) by the rules, or ``None``."""
    if state.status == "finished" and event.type not in AFTER_THE_END:
        return f"{event.type} after the game ended: only notes and undos may follow (CR 104.1)"
    check = CHECKS.get(event.type)
    if check is None:
        return None
    try:
        return check(state, event)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, StopIteration, GameError) as err:
        return f"malformed {event.type} data ({type(err).__name__}: {err})"


def _describe(event: ev.Event) -> str:
    data = event.data
    what = data.get("player") or data.get("team") or data.get("permanent") or data.get("target") or ""
    return f"{event.type} {what} ({event.rule})".replace("  ", " ")


def check_settled(state: GameState) -> str | None:
    """Why ``state`` can't be the state at the end of an action, or ``None``.

    Every action ends where a player would receive priority (CR 117.5): state-based actions have
    been performed until none applies (CR 704.3), and the game is over if at most one player or
    team is left in it (CR 104.2a, 104.4a), and only then. (A Saga whose final chapter triggered
    as the game ended keeps its chapter off the stack and stays: CR 704.5s doesn't apply to it
    then, so that one state-based action is not asked of a finished game.)
    """
    b = Builder(state)
    check_state_based_actions(b)
    undone = [e for e in b.events if not (state.status == "finished" and e.rule == "CR 704.5s")]
    if undone:
        shown = ", ".join(_describe(e) for e in undone[:4]) + (", ..." if len(undone) > 4 else "")
        return f"state-based actions still apply (CR 704.3): {shown}"
    sides = _sides(state)
    if state.status == "in_progress" and sides <= 1:
        return f"the game goes on with {sides} player(s) or team(s) left in it: it is over (CR 104.2a, 104.4a)"
    if state.status == "finished" and sides > 1:
        return f"the game is over with {sides} players or teams still in it (CR 104.2a)"
    return None
