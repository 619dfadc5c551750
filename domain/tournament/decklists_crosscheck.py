"""The game record cross-checked against the registered lists (issue 42), pure.

Every card a game's record names as a player's own (a spell cast, a permanent put onto the
battlefield or leaving it, cards milled or moved into a graveyard, exile or a hand from a public
zone) is compared with that player's registered list: the main deck (and commander) in game 1,
the sideboard too from game 2 on (MTR 2.x: sideboarding between games). A card not on the list
is a *mismatch*: the floor view shows it as a judge call with the game version that showed it.
It is never a penalty by itself (IPG 3.5 is a judge's decision): a token, a card an opponent
owns, or a list entered wrong can all explain it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

_WHAT = {
    "SpellCast": "cast",
    "PermanentEntered": "put onto the battlefield",
    "PermanentLeft": "left the battlefield",
    "CardsMilled": "milled",
    "CardsMoved": "moved",
}


@dataclass(frozen=True, slots=True)
class Named:
    """One card a game event names as ``player``'s."""

    player: str
    name: str
    what: str


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A card the record showed that the player's registered list doesn't have."""

    game_id: str
    version: int
    player: str
    card: str
    what: str

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "version": self.version,
            "player": self.player,
            "card": self.card,
            "what": self.what,
        }


def _card_name(card: object) -> str | None:
    if isinstance(card, Mapping) and isinstance(card.get("name"), str):
        return str(card["name"])
    return None


def _permanent(permanent: object, what: str) -> Iterator[Named]:
    if not isinstance(permanent, Mapping) or permanent.get("token"):
        return  # a token is on no list (CR 111.1)
    name, owner = _card_name(permanent.get("card")), permanent.get("owner")
    if name is not None and isinstance(owner, str):
        yield Named(owner, name, what)


def cards_named(type_: str, data: Mapping[str, Any]) -> list[Named]:
    """The cards one stored game event names, each with the player whose card it is."""
    what = _WHAT.get(type_)
    if what is None:
        return []
    if type_ == "SpellCast":
        obj = data.get("object")
        name = _card_name(obj.get("card")) if isinstance(obj, Mapping) else None
        player = data.get("player")
        return [Named(player, name, what)] if name is not None and isinstance(player, str) else []
    if type_ == "PermanentEntered":
        return list(_permanent(data.get("permanent"), what))
    if type_ == "PermanentLeft":
        return list(_permanent(data.get("last_known"), what))
    player = data.get("player")
    cards = data.get("cards")
    if not isinstance(player, str) or not isinstance(cards, list):
        return []
    if type_ == "CardsMoved":
        what = f"moved to {data.get('to')}"
    return [Named(player, n, what) for n in map(_card_name, cards) if n is not None]


def game_number(game_id: str) -> int:
    """A match game's number from its id (``<event>.r<round>.t<table>.g<n>``)."""
    tail = game_id.rsplit(".g", 1)
    return int(tail[1]) if len(tail) == 2 and tail[1].isdigit() else 1


def check_event(
    game_id: str,
    version: int,
    type_: str,
    data: Mapping[str, Any],
    lists: Mapping[str, frozenset[str]],
    seen: set[tuple[str, str]],
) -> list[Mismatch]:
    """The mismatches one event shows: ``lists`` holds each player's allowed names (case-folded)
    for this game; ``seen`` the (player, name) pairs already reported for it (each is reported
    once per game, at the first version that showed it). A player with no list is not checked."""
    found: list[Mismatch] = []
    for named in cards_named(type_, data):
        allowed = lists.get(named.player)
        key = (named.player, named.name.casefold())
        if allowed is None or named.name.casefold() in allowed or key in seen:
            continue
        seen.add(key)
        found.append(Mismatch(game_id, version, named.player, named.name, named.what))
    return found
