"""Audit checks of designations and dungeons (CR 725, 726, 731, 702.131, 309, 701.49, 704.5t)."""

from __future__ import annotations

from typing import Any

from domain import events as ev
from domain.audit.common import CHECKS, is_one_of, not_in_game
from domain.rules.designations import day_night_change
from domain.rules.dungeons import UNDERCITY, next_rooms
from domain.state import GameState

PLAYER_DESIGNATIONS = frozenset({"monarch", "initiative", "city_blessing"})


@CHECKS.on(ev.DesignationChanged)
def _designation_changed(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    kind: Any = data.get("designation")
    if is_one_of(kind, PLAYER_DESIGNATIONS):
        gone = not_in_game(state, data.get("player"))
        if gone or data.get("value") is not None:
            return gone or f"{kind} names a player, not a value"
        if kind == "monarch" and state.monarch == data["player"]:
            return f"{data['player']!r} is already the monarch (CR 725.3)"
        if kind == "city_blessing" and state.players[data["player"]].city_blessing:
            return f"{data['player']!r} already has the city's blessing (CR 702.131)"
        return None
    if kind != "day_night" or data.get("value") not in ("day", "night") or data.get("player") is not None:
        return (
            "a designation is monarch, initiative, city_blessing (a player's) or day_night (day or night), "
            f"got {dict(data)}"
        )
    if event.rule in ("CR 731.2a", "CR 731.2b"):
        expected = day_night_change(state)
        if state.turn.step != "untap" or expected != (data["value"], event.rule):
            return (
                f"the untap step's check makes it {expected[0] if expected else 'stay ' + str(state.day_night)}, "
                f"not {data['value']} (CR 731.2)"
            )
    return None


@CHECKS.on(ev.RoomEntered)
def _room_entered(state: GameState, event: ev.Event) -> str | None:
    data = event.data
    gone = not_in_game(state, data.get("player"))
    if gone:
        return gone
    if data.get("dungeon") != UNDERCITY:
        return f"the dungeon the server tracks is Undercity, got {data.get('dungeon')!r} (CR 726.2)"
    options = next_rooms(state, data["player"])
    if data.get("room") not in options:
        return (
            f"{data['player']}'s venture marker moves into one of {list(options)}, not {data.get('room')!r} (CR 701.49)"
        )
    return None


@CHECKS.on(ev.DungeonCompleted)
def _dungeon_completed(state: GameState, event: ev.Event) -> str | None:
    player_id: Any = event.data.get("player")
    gone = not_in_game(state, player_id)
    if gone:
        return gone
    player = state.players[player_id]
    if player.dungeon is None or next_rooms(state, player_id) or event.data.get("dungeon") != player.dungeon:
        return (
            f"{player_id}'s venture marker is not on the bottommost room of {event.data.get('dungeon')!r} (CR 704.5t)"
        )
    waiting = [*state.stack, *(t for g in state.pending for t in g.triggers)]
    if any("room" in o.params and o.params.get("player") == player_id for o in waiting):
        return f"{player_id}'s room ability hasn't left the stack: the dungeon isn't completed yet (CR 704.5t)"
    return None
