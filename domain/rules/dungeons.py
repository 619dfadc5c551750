"""Dungeons and venturing (CR 309, 701.49): Undercity, the dungeon of the initiative (CR 726.2).

A dungeon's rooms are joined by arrows; venturing moves the venture marker from its room to one
the arrows lead to, the player choosing where there are two (701.49b); a player who is in no
dungeon puts Undercity into the command zone, its marker on the top room (701.49a, 309.4). Each
room has a room ability, "When you move your venture marker into this room, [effect]" (309.4c):
it goes on the stack, and its effect is reported by hand as ordinary actions (the server doesn't
automate the rooms). Once the marker is on the bottommost room and that room's ability has left
the stack, the dungeon is completed and removed (704.5t, 309.7).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain import events as ev
from domain.builder import Builder, TriggerContext
from domain.cards.behaviour import TriggerSpec
from domain.commands import Choices
from domain.errors import Code, IllegalAction
from domain.state import GameState, StackObject

UNDERCITY = "Undercity"


@dataclass(frozen=True, slots=True)
class Room:
    name: str
    effect: str
    """The room ability's effect, as printed."""
    leads_to: tuple[str, ...]


#: Undercity (Commander Legends: Battle for Baldur's Gate), top room first, as printed.
UNDERCITY_ROOMS: dict[str, Room] = {
    r.name: r
    for r in (
        Room(
            "Secret Entrance",
            "Search your library for a basic land card, reveal it, put it into your hand, then shuffle.",
            ("Forge", "Lost Well"),
        ),
        Room("Forge", "Put two +1/+1 counters on target creature.", ("Trap!", "Arena")),
        Room("Lost Well", "Scry 2.", ("Arena", "Stash")),
        Room("Trap!", "Target player loses 5 life.", ("Archives",)),
        Room("Arena", "Goad target creature.", ("Archives", "Catacombs")),
        Room("Stash", "Create a Treasure token.", ("Catacombs",)),
        Room("Archives", "Draw a card.", ("Throne of the Dead Three",)),
        Room("Catacombs", "Create a 4/1 black Skeleton creature token with menace.", ("Throne of the Dead Three",)),
        Room(
            "Throne of the Dead Three",
            "Reveal the top ten cards of your library. Put a creature card from among them onto the "
            "battlefield with three +1/+1 counters on it. It gains hexproof until your next turn. Then shuffle.",
            (),
        ),
    )
}
TOP_ROOM = "Secret Entrance"


def next_rooms(state: GameState, player_id: str) -> tuple[str, ...]:
    """The rooms venturing into Undercity can move ``player_id``'s marker to now (701.49a-c)."""
    player = state.players[player_id]
    if player.dungeon is None:
        return (TOP_ROOM,)
    room = UNDERCITY_ROOMS.get(player.room or "")
    return room.leads_to if room is not None else ()


def venture_trigger(player_id: str, cause: str) -> TriggerSpec:
    """The initiative's venture into Undercity (726.2), controlled by the player who ventures."""
    return TriggerSpec(
        controller=player_id,
        source=None,
        description=f"Initiative (CR 726.2): {player_id} ventures into Undercity ({cause})",
        effect="venture_undercity",
        params={"player": player_id},
    )


def venture_needs(state: GameState, obj: StackObject) -> list[str]:
    """A venture with two rooms to go to needs the player's choice (701.49b)."""
    return ["room"] if len(next_rooms(state, obj.params["player"])) > 1 else []


def venture(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    """Move the venture marker (701.49); the chosen room must be one the arrows lead to."""
    pid = obj.params["player"]
    if b.state.players[pid].lost:
        return "does nothing: the player left the game (CR 800.4a)"
    options = next_rooms(b.state, pid)
    if not options:
        return "does nothing: the venture marker is on the bottommost room (CR 309.7)"
    room = choices.room if len(options) > 1 else options[0]
    if room not in options:
        raise IllegalAction(
            f"{pid!r} ventures into one of {list(options)}, not {room!r} (CR 701.49b)", Code.ILLEGAL_CHOICE
        )
    b.emit(ev.RoomEntered(player=pid, dungeon=UNDERCITY, room=room), "CR 701.49a")
    return None


def room_triggers(event: ev.Event) -> list[TriggerSpec]:
    """The room ability of the room a marker just moved into (309.4c), reported by hand."""
    e = event.payload
    if not isinstance(e, ev.RoomEntered) or e.room not in UNDERCITY_ROOMS:
        return []
    room = UNDERCITY_ROOMS[e.room]
    return [
        TriggerSpec(
            controller=e.player,
            source=None,
            description=f"{e.dungeon}, {room.name} (CR 309.4c): {room.effect} (reported by hand)",
            effect="described",
            params={"room": room.name, "player": e.player},
        )
    ]


def completed_dungeons(state: GameState, waiting: list[StackObject]) -> list[str]:
    """Players whose marker is on the bottommost room with no room ability of theirs waiting or
    on the stack: their dungeon is completed (704.5t)."""
    busy = {o.params.get("player") for o in waiting if "room" in o.params}
    return [
        p.id
        for p in state.players.values()
        if not p.lost and p.dungeon is not None and not next_rooms(state, p.id) and p.id not in busy
    ]


def waiting_objects(state: GameState, context: TriggerContext | None) -> list[StackObject]:
    """Every ability on the stack, waiting for an order, or triggered and not yet put there."""
    fired = list(context.fired) if context is not None else []
    return [*state.stack, *fired, *(t for g in state.pending for t in g.triggers)]
