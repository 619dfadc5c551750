"""Audit checks of cards in zones, the battlefield and mana (CR 106, 110, 400.7, 701.17)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain import events as ev
from domain.audit.common import (
    CHECKS,
    LEAVE_TO,
    Check,
    as_json,
    card_names,
    card_of,
    is_count,
    is_one_of,
    list_of,
    no_permanent,
    no_player,
    not_in_game,
    object_of,
)
from domain.state import MANA_TYPES, GameState


# -- cards in zones ---------------------------------------------------------------------------
def from_the_top(state: GameState, player_id: str, names: list[str], rule: str) -> str | None:
    """The cards come off the top of the library: the known top cards, in order."""
    player = state.players[player_id]
    for i, (given, known) in enumerate(zip(names, player.library, strict=False)):
        if given != known.name:
            return f"card {i + 1} from the top of {player_id}'s library is {known.name!r}, not {given!r} ({rule})"
    return None


@CHECKS.on(ev.CardsMilled)
def _cards_milled(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    missing = no_player(state, player_id)
    if missing:
        return missing
    requested: Any = data.get("requested")
    if not is_count(requested, minimum=0):
        return f"'requested' must be a whole number, got {requested!r}"
    unnamed: Any = data.get("unnamed_count", 0)
    if not is_count(unnamed, minimum=0):
        return f"'unnamed_count' must be a whole number, got {unnamed!r}"
    names = card_names(data.get("cards"))
    player = state.players[player_id]
    size = player.library_size
    n = min(requested, size)
    if len(names) + unnamed != n:
        return (
            f"{len(names) + unnamed} card(s) milled, but mill {requested} from {player_id}'s library of {size} "
            f"mills {n}: as many as possible (CR 701.17a, 701.17b)"
        )
    if unnamed and len(names) != min(n, len(player.library)):
        # Only cards the server doesn't know go unnamed: the known top ones are named.
        return (
            f"{unnamed} unnamed card(s) milled below {len(names)} named: the known top cards of {player_id}'s "
            "library are named, only its unknown rest may go unnamed"
        )
    wrong = from_the_top(state, player_id, names, "CR 701.17a")
    if wrong:
        return wrong
    nonland = sum(1 for c in data["cards"] if not card_of(c).is_land)
    given: Any = data.get("nonland_count")
    if not (is_count(given, minimum=0) and nonland <= given <= nonland + unnamed):
        more = f", and {unnamed} more are unnamed" if unnamed else ""
        return f"nonland_count is {given!r}, but {nonland} of the named milled cards are nonland{more}"
    return None


@CHECKS.on(ev.CardsDrawn)
def _cards_drawn(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    missing = no_player(state, player_id)
    if missing:
        return missing
    requested: Any = data.get("requested")
    unknown: Any = data.get("unknown_count", 0)
    if not is_count(requested, minimum=0) or not is_count(unknown, minimum=0):
        return f"'requested' and 'unknown_count' must be whole numbers, got {requested!r}, {unknown!r}"
    names = card_names(data.get("cards"))
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
    return from_the_top(state, player_id, names, "CR 121.1")


@CHECKS.on(ev.CardsMoved)
def _cards_moved(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    missing = no_player(state, player_id)
    if missing:
        return missing
    names = card_names(data.get("cards"))
    player = state.players[player_id]
    origin = data.get("from")
    if data.get("to") == "command" and (
        origin not in ("graveyard", "exile") or any(n not in player.commanders for n in names)
    ):
        return f"only {player_id}'s commanders go to the command zone, from a graveyard or exile (CR 903.9a)"
    zones = {"graveyard": (player.graveyard, 0), "hand": (player.hand, player.hand_unknown)}
    zones["library"] = (player.library, player.library_unknown)
    zones["exile"] = (player.exile, 0)
    zones["command"] = (player.command, 0)
    if not is_one_of(origin, zones):
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
@CHECKS.on(ev.PermanentEntered)
def _permanent_entered(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    raw = object_of(data["permanent"], "'permanent'")
    if not isinstance(raw.get("id"), str) or not raw["id"]:
        return f"a permanent needs an id, got {raw.get('id')!r}"
    if raw["id"] in state.battlefield:
        return f"a permanent {raw['id']!r} is already on the battlefield"
    problem = no_player(state, raw.get("owner")) or no_player(state, raw.get("controller"))
    if problem:
        return problem
    name = card_of(raw.get("card"), "the permanent's card").name
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


@CHECKS.on(ev.PermanentLeft)
def _permanent_left(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    missing = no_permanent(state, data.get("permanent"))
    if missing:
        return missing
    perm = state.battlefield[data["permanent"]]
    if not is_one_of(data.get("to"), LEAVE_TO):
        return f"'to' must be one of {sorted(LEAVE_TO)}, got {data.get('to')!r}"
    if data.get("to") == "command" and state.commander_key(perm) is None:
        return (
            f"{perm.id!r} ({perm.card.name}) is not a commander: only a commander goes to the command zone (CR 903.9b)"
        )
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
        or as_json({k: last.get(k) for k in LAST_KNOWN}) != as_json(actual)
        or last.get("attached_to") != perm.attached_to
        or card_of(last.get("card"), "last_known's card").name != perm.card.name
        or data.get("name") != perm.card.name
    ):
        return f"last_known is not {perm.id!r} as it last existed on the battlefield (CR 603.10a)"
    return None


def _tapped(tapped: bool) -> Check:
    def check(state: GameState, event: ev.Event) -> str | None:
        missing = no_permanent(state, event.data.get("permanent"))
        if missing:
            return missing
        perm = state.battlefield[event.data["permanent"]]
        if perm.tapped == tapped:
            verb, rule = ("tapped", "CR 701.26a") if tapped else ("untapped", "CR 701.26b")
            return f"{perm.id!r} ({perm.card.name}) is already {verb} ({rule})"
        return None

    return check


@CHECKS.on(ev.ControlChanged)
def _control_changed(state: GameState, event: ev.Event) -> str | None:
    return no_permanent(state, event.data.get("permanent")) or not_in_game(state, event.data.get("controller"))


@CHECKS.on(ev.PowerToughnessModified)
def _power_toughness_modified(state: GameState, event: ev.Event) -> str | None:
    return no_permanent(state, event.data.get("permanent"))


@CHECKS.on(ev.AttackersDeclared)
def _attackers_declared(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    player_id: Any = data.get("player")
    if player_id not in state.active_players() or state.turn.step != "declare_attackers":
        return f"{player_id!r} declared attackers outside the declare attackers step of their turn (CR 508.1)"
    for entry in list_of(data["attackers"], "'attackers'"):
        missing = no_permanent(state, object_of(entry, "an attacker").get("permanent"))
        if missing:
            return missing
        perm = state.battlefield[entry["permanent"]]
        if perm.controller != player_id or not perm.card.is_creature or perm.tapped:
            return f"{perm.id!r} ({perm.card.name}) is not an untapped creature {player_id!r} controls (CR 508.1a)"
    return None


# -- mana -------------------------------------------------------------------------------------
@CHECKS.on(ev.ManaAdded)
def _mana_added(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    missing = no_player(state, data.get("player"))
    if missing:
        return missing
    mana = data.get("mana")
    if (
        not isinstance(mana, Mapping)
        or not mana
        or not all(m in MANA_TYPES and is_count(n, minimum=1) for m, n in mana.items())
    ):
        return f"'mana' must map mana types {list(MANA_TYPES)} to amounts of at least 1, got {mana!r} (CR 106.1)"
    return None


@CHECKS.on(ev.ManaPoolEmptied)
def _mana_pool_emptied(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    missing = no_player(state, data.get("player"))
    if missing:
        return missing
    pool = {m: n for m, n in state.players[data["player"]].mana_pool.items() if n}
    if not pool or data.get("lost") != pool:
        return f"'lost' must be the mana in {data['player']}'s pool, {pool} (CR 106.4)"
    return None


CHECKS.put(ev.PermanentTapped, _tapped(True))
CHECKS.put(ev.PermanentUntapped, _tapped(False))
