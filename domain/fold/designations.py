"""Folds of designations and dungeons (CR 725, 726, 731, 702.131, 309, 701.49)."""

from __future__ import annotations

from domain import events as ev
from domain.fold.shared import set_player
from domain.fold.table import FOLDS
from domain.state import GameState, replace


@FOLDS.on(ev.DesignationChanged)
def _designation_changed(state: GameState, e: ev.DesignationChanged) -> GameState:
    """One monarch and one holder of the initiative at a time (725.3, 726.3): the new one
    replaces the old; day or night, once set, is one of the two from then on (731.1)."""
    if e.designation == "monarch":
        return replace(state, monarch=e.player)
    if e.designation == "initiative":
        return replace(state, initiative=e.player)
    if e.designation == "day_night":
        return replace(state, day_night="night" if e.value == "night" else "day")
    assert e.player is not None  # city_blessing names its player (the audit checks it)
    return set_player(state, replace(state.players[e.player], city_blessing=True))


@FOLDS.on(ev.RoomEntered)
def _room_entered(state: GameState, e: ev.RoomEntered) -> GameState:
    return set_player(state, replace(state.players[e.player], dungeon=e.dungeon, room=e.room))


@FOLDS.on(ev.DungeonCompleted)
def _dungeon_completed(state: GameState, e: ev.DungeonCompleted) -> GameState:
    return set_player(state, replace(state.players[e.player], dungeon=None, room=None))
