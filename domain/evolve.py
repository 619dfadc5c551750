"""``evolve(state, event) -> state``: the pure fold of one event into the game state.

Evolve never checks rules (``decide`` did) and never fails on an event ``decide`` produced.
``ActionsReverted`` carries the state it restores (computed by the projections from the
history, and checked against it on import), so it folds like any other event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain import events as ev
from domain.cards.model import Card
from domain.state import (
    EMPTY_POOL,
    GameState,
    PendingGroup,
    Permanent,
    Player,
    Result,
    StackObject,
    Team,
    Turn,
    replace,
    with_count,
)

Handler = Callable[[GameState, Mapping[str, Any]], GameState]


def _cards(raw: Any) -> tuple[Card, ...]:
    return tuple(Card.from_json(c) for c in raw or ())


def _seq_after(state: GameState, data: Mapping[str, Any]) -> int:
    seq = data.get("seq")
    return max(state.next_seq, int(seq) + 1) if isinstance(seq, int) else state.next_seq


def player_from_json(raw: Mapping[str, Any]) -> Player:
    return Player(
        id=raw["id"],
        name=raw.get("name") or raw["id"],
        team=raw.get("team"),
        life=raw["life"],
        counters=dict(raw.get("counters") or {}),
        library=_cards(raw.get("library")),
        library_unknown=raw.get("library_unknown", 0),
        hand=_cards(raw.get("hand")),
        hand_unknown=raw.get("hand_unknown", 0),
        graveyard=_cards(raw.get("graveyard")),
        exile=_cards(raw.get("exile")),
    )


def permanent_from_json(raw: Mapping[str, Any]) -> Permanent:
    return Permanent(
        id=raw["id"],
        card=Card.from_json(raw["card"]),
        owner=raw["owner"],
        controller=raw["controller"],
        tapped=bool(raw.get("tapped", False)),
        counters=dict(raw.get("counters") or {}),
        controlled_since_turn_began=bool(raw.get("controlled_since_turn_began", False)),
        token=bool(raw.get("token", False)),
        attached_to=raw.get("attached_to"),
        power_until_eot=int(raw.get("power_until_eot", 0)),
        toughness_until_eot=int(raw.get("toughness_until_eot", 0)),
    )


def _game_started(_: GameState, data: Mapping[str, Any]) -> GameState:
    players = {p["id"]: player_from_json(p) for p in data["players"]}
    teams = {
        tid: Team(
            id=tid,
            players=tuple(t["players"]),
            life=t.get("life"),
            counters=dict(t.get("counters") or {}),
        )
        for tid, t in (data.get("teams") or {}).items()
    }
    battlefield = {p["id"]: permanent_from_json(p) for p in data.get("battlefield") or ()}
    turn = data["turn"]
    return GameState(
        game_id=data["game_id"],
        variant=data["variant"],
        rules_edition=data["rules_edition"],
        tournament=data.get("tournament"),
        players=players,
        teams=teams,
        battlefield=battlefield,
        turn=Turn(turn["number"], turn["active_player"], turn.get("active_team"), turn["step"]),
        next_seq=data.get("next_seq", 1),
    )


def _set_player(state: GameState, player: Player) -> GameState:
    players = dict(state.players)
    players[player.id] = player
    return replace(state, players=players)


def _set_team(state: GameState, team: Team) -> GameState:
    teams = dict(state.teams)
    teams[team.id] = team
    return replace(state, teams=teams)


def _set_permanent(state: GameState, permanent: Permanent) -> GameState:
    battlefield = dict(state.battlefield)
    battlefield[permanent.id] = permanent
    return replace(state, battlefield=battlefield)


def _remember(state: GameState, key: Any) -> GameState:
    """Note a "once each turn" fact (``GameState.turn_memory``)."""
    if not isinstance(key, str) or key in state.turn_memory:
        return state
    return replace(state, turn_memory=state.turn_memory | {key})


def _turn_began(state: GameState, data: Mapping[str, Any]) -> GameState:
    turn = Turn(data["number"], data["active_player"], data.get("active_team"), "untap")
    state = replace(state, turn=turn, turn_memory=frozenset())
    active = set(state.active_players())
    # 302.6: permanents of the new active player(s) have now been controlled since the turn began.
    battlefield = {
        pid: replace(p, controlled_since_turn_began=True) if p.controller in active else p
        for pid, p in state.battlefield.items()
    }
    players = {pid: replace(p, lands_played=0) for pid, p in state.players.items()}
    return replace(state, battlefield=battlefield, players=players)


def _step_began(state: GameState, data: Mapping[str, Any]) -> GameState:
    state = replace(state, turn=replace(state.turn, step=data["step"]))
    if data["step"] == "cleanup":
        # 514.2: damage wears off and "until end of turn" effects end in the cleanup step.
        battlefield = {
            pid: replace(p, damage=0, power_until_eot=0, toughness_until_eot=0)
            if p.damage or p.power_until_eot or p.toughness_until_eot
            else p
            for pid, p in state.battlefield.items()
        }
        state = replace(state, battlefield=battlefield)
    return state


def _triggers_pending(state: GameState, data: Mapping[str, Any]) -> GameState:
    group = PendingGroup(
        controller=data["controller"],
        triggers=tuple(StackObject.from_json(t) for t in data["triggers"]),
    )
    for trigger in group.triggers:
        state = _remember(state, trigger.params.get("once_per_turn"))
    return replace(state, pending=(*state.pending, group), next_seq=_seq_after(state, data))


def _trigger_put_on_stack(state: GameState, data: Mapping[str, Any]) -> GameState:
    obj = StackObject.from_json(data["object"])
    pending = []
    for group in state.pending:
        rest = tuple(t for t in group.triggers if t.id != obj.id)
        if rest:
            pending.append(replace(group, triggers=rest))
    state = _remember(state, obj.params.get("once_per_turn"))
    return replace(state, stack=(*state.stack, obj), pending=tuple(pending), next_seq=_seq_after(state, data))


def _stack_object_left(state: GameState, data: Mapping[str, Any]) -> GameState:
    obj = next(o for o in state.stack if o.id == data["id"])
    state = _remember(state, data.get("remember"))
    state = replace(state, stack=tuple(o for o in state.stack if o.id != obj.id))
    if data.get("to") == "graveyard" and obj.card is not None:
        owner = state.players[obj.controller]
        state = _set_player(state, replace(owner, graveyard=(*owner.graveyard, obj.card)))
    return state


def _without_one(cards: tuple[Card, ...], name: str) -> tuple[Card, ...]:
    """``cards`` less the first card named ``name`` (unchanged if there is none)."""
    names = [c.name for c in cards]
    return cards[: names.index(name)] + cards[names.index(name) + 1 :] if name in names else cards


def _spell_cast(state: GameState, data: Mapping[str, Any]) -> GameState:
    obj = StackObject.from_json(data["object"])
    player = state.players[data["player"]]
    if data.get("from", "hand") == "hand":
        hand = list(player.hand)
        names = [c.name for c in hand]
        if obj.card is not None and obj.card.name in names:
            del hand[names.index(obj.card.name)]
            player = replace(player, hand=tuple(hand))
        elif player.hand_unknown > 0:
            player = replace(player, hand_unknown=player.hand_unknown - 1)
    elif obj.card is not None and data["from"] == "graveyard":
        # 601.2a: the card moves from that zone to the stack.
        player = replace(player, graveyard=_without_one(player.graveyard, obj.card.name))
    elif obj.card is not None and data["from"] == "exile":
        player = replace(player, exile=_without_one(player.exile, obj.card.name))
    elif data["from"] == "library":
        if player.library:
            player = replace(player, library=player.library[1:])
        elif player.library_unknown > 0:
            player = replace(player, library_unknown=player.library_unknown - 1)
    state = _set_player(state, player)
    return replace(state, stack=(*state.stack, obj), next_seq=_seq_after(state, data))


def _ability_activated(state: GameState, data: Mapping[str, Any]) -> GameState:
    state = _remember(state, data.get("remember"))
    if data.get("object") is None:
        return state
    obj = StackObject.from_json(data["object"])
    return replace(state, stack=(*state.stack, obj), next_seq=_seq_after(state, data))


def _change_counters(state: GameState, data: Mapping[str, Any], sign: int) -> GameState:
    target, kind, amount = data["target"], data["kind"], data["amount"] * sign
    if "permanent" in target:
        perm = state.battlefield[target["permanent"]]
        return _set_permanent(state, replace(perm, counters=with_count(perm.counters, kind, amount)))
    player = state.players[target["player"]]
    if state.shares_life and kind == "poison" and player.team is not None:
        team = state.teams[player.team]
        return _set_team(state, replace(team, counters=with_count(team.counters, kind, amount)))
    return _set_player(state, replace(player, counters=with_count(player.counters, kind, amount)))


def _life(state: GameState, data: Mapping[str, Any], sign: int) -> GameState:
    player = state.players[data["player"]]
    delta = data["amount"] * sign
    if state.shares_life and player.team is not None and state.teams[player.team].life is not None:
        team = state.teams[player.team]
        assert team.life is not None
        return _set_team(state, replace(team, life=team.life + delta))
    return _set_player(state, replace(player, life=player.life + delta))


def _damage_dealt(state: GameState, data: Mapping[str, Any]) -> GameState:
    target = data["target"]
    if "permanent" in target and not data.get("infect") and target["permanent"] in state.battlefield:
        perm = state.battlefield[target["permanent"]]
        return _set_permanent(state, replace(perm, damage=perm.damage + data["amount"]))
    return state  # damage to players is folded through the LifeLost / CountersAdded that follow


def _cards_milled(state: GameState, data: Mapping[str, Any]) -> GameState:
    player = state.players[data["player"]]
    cards = _cards(data["cards"])
    from_known = min(len(cards), len(player.library))
    from_unknown = len(cards) - from_known
    player = replace(
        player,
        library=player.library[from_known:],
        library_unknown=player.library_unknown - from_unknown,
        graveyard=(*player.graveyard, *cards),
    )
    return _set_player(state, player)


def _cards_drawn(state: GameState, data: Mapping[str, Any]) -> GameState:
    player = state.players[data["player"]]
    cards = _cards(data.get("cards"))
    unknown = data.get("unknown_count", 0)
    from_known = min(len(cards), len(player.library))
    from_unknown_known = len(cards) - from_known  # unknown library cards revealed as drawn
    player = replace(
        player,
        library=player.library[from_known:],
        library_unknown=player.library_unknown - from_unknown_known - unknown,
        hand=(*player.hand, *cards),
        hand_unknown=player.hand_unknown + unknown,
        drew_from_empty=player.drew_from_empty or bool(data.get("from_empty")),
    )
    return _set_player(state, player)


def _permanent_entered(state: GameState, data: Mapping[str, Any]) -> GameState:
    raw = data["permanent"]
    perm = permanent_from_json(raw)
    state = _set_permanent(state, perm)
    origin = data.get("from")
    if origin == "hand":
        player = state.players[perm.owner]
        hand = list(player.hand)
        names = [c.name for c in hand]
        if perm.card.name in names:
            del hand[names.index(perm.card.name)]
            player = replace(player, hand=tuple(hand))
        elif player.hand_unknown > 0:
            player = replace(player, hand_unknown=player.hand_unknown - 1)
        if data.get("land_play"):
            player = replace(player, lands_played=player.lands_played + 1)
        state = _set_player(state, player)
    return replace(state, next_seq=_seq_after(state, data))


def _permanent_left(state: GameState, data: Mapping[str, Any]) -> GameState:
    perm = state.battlefield[data["permanent"]]
    battlefield = dict(state.battlefield)
    del battlefield[perm.id]
    state = replace(state, battlefield=battlefield)
    if perm.token or data["to"] == "none":
        return state  # 111.7: a token that leaves the battlefield ceases to exist
    owner = state.players[perm.owner]
    to = data["to"]
    if to == "graveyard":
        owner = replace(owner, graveyard=(*owner.graveyard, perm.card))
    elif to == "exile":
        owner = replace(owner, exile=(*owner.exile, perm.card))
    elif to == "hand":
        owner = replace(owner, hand=(*owner.hand, perm.card))
    elif to == "library_top":
        owner = replace(owner, library=(perm.card, *owner.library))
    elif to == "library_bottom":
        if owner.library_unknown:
            # Below an unknown rest the card's position can't be listed: it joins the unknown part.
            owner = replace(owner, library_unknown=owner.library_unknown + 1)
        else:
            owner = replace(owner, library=(*owner.library, perm.card))
    return _set_player(state, owner)


def _tapped(state: GameState, data: Mapping[str, Any], tapped: bool) -> GameState:
    perm = state.battlefield[data["permanent"]]
    return _set_permanent(state, replace(perm, tapped=tapped))


def _control_changed(state: GameState, data: Mapping[str, Any]) -> GameState:
    """A new controller; the permanent hasn't been under it since their turn began (302.6)."""
    perm = state.battlefield[data["permanent"]]
    return _set_permanent(state, replace(perm, controller=data["controller"], controlled_since_turn_began=False))


def _without(cards: tuple[Card, ...], taken: tuple[Card, ...]) -> tuple[Card, ...]:
    """``cards`` less one card of each name in ``taken`` (the first one found)."""
    rest = list(cards)
    for card in taken:
        names = [c.name for c in rest]
        if card.name in names:
            del rest[names.index(card.name)]
    return tuple(rest)


def _cards_moved(state: GameState, data: Mapping[str, Any]) -> GameState:
    """Cards moving between a player's zones other than the battlefield: from the graveyard, hand,
    library (cards from among its top ones) or the stack, to the hand, graveyard or bottom of the
    library. Cards put on the bottom "in a random order" become unknown library cards: nobody
    knows their order (they join the unknown rest)."""
    player = state.players[data["player"]]
    cards = _cards(data["cards"])
    origin, to = data["from"], data["to"]
    if origin == "graveyard":
        player = replace(player, graveyard=_without(player.graveyard, cards))
    elif origin == "library":
        # Cards from among the top ones: each leaves the known part (its first copy there), or
        # else the unknown rest, where it had just been revealed.
        known = list(player.library)
        unknown = player.library_unknown
        for card in cards:
            names = [c.name for c in known]
            if card.name in names:
                del known[names.index(card.name)]
            else:
                unknown -= 1
        player = replace(player, library=tuple(known), library_unknown=unknown)
    elif origin == "hand":
        player = replace(player, hand=_without(player.hand, cards))
    if to == "hand":
        player = replace(player, hand=(*player.hand, *cards))
    elif to == "graveyard":
        player = replace(player, graveyard=(*player.graveyard, *cards))
    elif to == "library_bottom":
        if data.get("random_order") or player.library_unknown:
            player = replace(player, library_unknown=player.library_unknown + len(cards))
        else:
            player = replace(player, library=(*player.library, *cards))
    return _set_player(state, player)


def _power_toughness_modified(state: GameState, data: Mapping[str, Any]) -> GameState:
    perm = state.battlefield[data["permanent"]]
    return _set_permanent(
        state,
        replace(
            perm,
            power_until_eot=perm.power_until_eot + int(data.get("power", 0)),
            toughness_until_eot=perm.toughness_until_eot + int(data.get("toughness", 0)),
        ),
    )


def _mana_added(state: GameState, data: Mapping[str, Any]) -> GameState:
    player = state.players[data["player"]]
    pool = dict(player.mana_pool)
    for mana, n in data["mana"].items():
        pool[mana] = pool.get(mana, 0) + n
    return _set_player(state, replace(player, mana_pool=pool))


def _mana_pool_emptied(state: GameState, data: Mapping[str, Any]) -> GameState:
    player = state.players[data["player"]]
    return _set_player(state, replace(player, mana_pool=dict(EMPTY_POOL)))


def _player_lost(state: GameState, data: Mapping[str, Any]) -> GameState:
    player = state.players[data["player"]]
    state = _set_player(state, replace(player, lost=True, loss_reason=data.get("rule"), drew_from_empty=False))
    if any(t.controller == player.id for g in state.pending for t in g.triggers):
        # 800.4d: triggers of a player who left the game aren't put on the stack.
        pending = []
        for group in state.pending:
            rest = tuple(t for t in group.triggers if t.controller != player.id)
            if rest:
                pending.append(replace(group, triggers=rest))
        state = replace(state, pending=tuple(pending))
    return state


def _team_lost(state: GameState, data: Mapping[str, Any]) -> GameState:
    return _set_team(state, replace(state.teams[data["team"]], lost=True))


def _game_ended(state: GameState, data: Mapping[str, Any]) -> GameState:
    return replace(
        state,
        status="finished",
        result=Result(winners=tuple(data["winners"]), draw=bool(data["draw"])),
    )


def _unchanged(state: GameState, _: Mapping[str, Any]) -> GameState:
    return state


def _actions_reverted(_: GameState, data: Mapping[str, Any]) -> GameState:
    """The state after a revert is the state at ``to_version`` (DESIGN.md, Undo), which the
    event carries as ``restored_state`` so that the fold stays a pure function of one event."""
    from domain.serialize import state_from_json

    return state_from_json(data["restored_state"])


HANDLERS: dict[str, Handler] = {
    ev.GAME_STARTED: _game_started,
    ev.TURN_BEGAN: _turn_began,
    ev.STEP_BEGAN: _step_began,
    ev.TRIGGERS_PENDING: _triggers_pending,
    ev.TRIGGER_PUT_ON_STACK: _trigger_put_on_stack,
    ev.STACK_OBJECT_RESOLVED: _stack_object_left,
    ev.STACK_OBJECT_COUNTERED: _stack_object_left,
    ev.SPELL_CAST: _spell_cast,
    ev.ABILITY_ACTIVATED: _ability_activated,
    ev.COUNTERS_ADDED: lambda s, d: _change_counters(s, d, +1),
    ev.COUNTERS_REMOVED: lambda s, d: _change_counters(s, d, -1),
    ev.LIFE_LOST: lambda s, d: _life(s, d, -1),
    ev.LIFE_GAINED: lambda s, d: _life(s, d, +1),
    ev.DAMAGE_DEALT: _damage_dealt,
    ev.CARDS_MILLED: _cards_milled,
    ev.CARDS_DRAWN: _cards_drawn,
    ev.PROLIFERATED: _unchanged,  # the CountersAdded events that follow carry the change
    ev.PERMANENT_ENTERED: _permanent_entered,
    ev.PERMANENT_LEFT: _permanent_left,
    ev.PERMANENT_TAPPED: lambda s, d: _tapped(s, d, True),
    ev.PERMANENT_UNTAPPED: lambda s, d: _tapped(s, d, False),
    ev.MANA_ADDED: _mana_added,
    ev.MANA_POOL_EMPTIED: _mana_pool_emptied,
    ev.PLAYER_LOST: _player_lost,
    ev.TEAM_LOST: _team_lost,
    ev.GAME_ENDED: _game_ended,
    ev.NOTE_ADDED: _unchanged,
    ev.ACTIONS_REVERTED: _actions_reverted,
    ev.ATTACKERS_DECLARED: lambda s, d: _remember(s, d.get("remember")),  # taps follow as events
    ev.CONTROL_CHANGED: _control_changed,
    ev.CARDS_MOVED: _cards_moved,
    ev.POWER_TOUGHNESS_MODIFIED: _power_toughness_modified,
}


def evolve(state: GameState, event: ev.Event) -> GameState:
    """Fold one event into the state. ``GameStarted`` ignores ``state`` (pass any value)."""
    return HANDLERS[event.type](state, event.data)


def fold(events: list[ev.Event], state: GameState | None = None) -> GameState:
    """Fold events from the start (or from ``state``)."""
    current: Any = state
    for event in events:
        current = evolve(current, event)
    if current is None:
        raise ValueError("fold of no events from no state")
    result: GameState = current
    return result
