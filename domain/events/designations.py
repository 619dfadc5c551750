"""Events of designations and dungeons: the monarch (CR 725), the initiative (CR 726), day and
night (CR 731), the city's blessing (CR 702.131), and venturing into a dungeon (CR 309, 701.49)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.events.base import DomainEvent, doc, event_type, optional


@event_type("DesignationChanged")
@dataclass(frozen=True, slots=True, kw_only=True)
class DesignationChanged(DomainEvent):
    """A player becomes the monarch (CR 725.3), takes the initiative (CR 726.3) or gets the city's
    blessing (CR 702.131), or the game becomes day or night (CR 731.1)."""

    designation: str = doc("`monarch`, `initiative`, `city_blessing` or `day_night`.")
    player: str | None = optional("Who gets it (`monarch`, `initiative`, `city_blessing`).")
    value: str | None = optional("`day` or `night` (`day_night`).")
    cause: str = doc("What made it happen (`manual`, a card name, `combat damage`, `untap step`, ...).")


@event_type("RoomEntered")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoomEntered(DomainEvent):
    """A player ventures into a dungeon: their venture marker moves into a room (CR 701.49); the
    dungeon goes to the command zone first when they weren't in one (CR 309.4)."""

    player: str = doc("Who ventured.")
    dungeon: str = doc("The dungeon's name (`Undercity`).")
    room: str = doc("The room's printed name.")


@event_type("DungeonCompleted")
@dataclass(frozen=True, slots=True, kw_only=True)
class DungeonCompleted(DomainEvent):
    """A player's venture marker is on the dungeon's bottommost room and its room ability has left
    the stack: the dungeon is removed from the game, completed (CR 704.5t, 309.7)."""

    player: str = doc("Whose dungeon.")
    dungeon: str = doc("The dungeon's name.")
