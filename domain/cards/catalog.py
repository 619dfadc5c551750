"""The card catalog: Oracle data by name, and resolving card references in requests.

``Catalog`` is a pure lookup over entries given to it. ``bundled_catalog()`` reads the data file
shipped inside the package (read-only package data, the same on every machine).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from domain.cards.model import Card
from domain.errors import Code, IllegalAction, InvalidCommand


def card_from_oracle(entry: Mapping[str, Any]) -> Card:
    """A ``Card`` from a Scryfall-format entry (``oracle cards`` bulk data); double-faced cards
    are judged by their front face (CR 712.8a)."""
    faces = entry.get("card_faces")
    front: Mapping[str, Any] = faces[0] if isinstance(faces, list) and faces and "type_line" not in entry else entry
    data = {
        "name": entry["name"] if "card_faces" not in entry else front.get("name", entry["name"]),
        "type_line": front.get("type_line") or entry.get("type_line", ""),
        "mana_cost": front.get("mana_cost") or entry.get("mana_cost") or "",
        "oracle_text": front.get("oracle_text") or entry.get("oracle_text") or "",
        "power": front.get("power"),
        "toughness": front.get("toughness"),
        "loyalty": front.get("loyalty"),
        "colors": front.get("colors", entry.get("colors")),
    }
    return Card.from_json({k: v for k, v in data.items() if v is not None})


class Catalog:
    """Cards by exact name (case-insensitive)."""

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self._by_name: dict[str, Card] = {}
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> None:
        self._by_name[card.name.casefold()] = card

    def get(self, name: str) -> Card | None:
        return self._by_name.get(name.casefold())

    def __len__(self) -> int:
        return len(self._by_name)

    def names(self) -> list[str]:
        return sorted(c.name for c in self._by_name.values())

    def resolve(self, ref: Any) -> Card:
        """A card reference from a request: a name (must be in the catalog: ``unknown_card``) or
        an object; an object's missing fields are filled from the catalog entry of that name."""
        if isinstance(ref, str):
            card = self.get(ref)
            if card is None:
                raise IllegalAction(
                    f'unknown card {ref!r}: not in the catalog; give it as an object {{"name": ..., "type_line": ...}}',
                    Code.UNKNOWN_CARD,
                )
            return card
        if isinstance(ref, Mapping):
            known = self.get(ref["name"]) if isinstance(ref.get("name"), str) else None
            given_type = ref.get("type_line")
            if known is not None and given_type in (None, known.type_line):
                # The catalog card, with whatever the object states on top (e.g. P/T).
                return Card.from_json({**known.to_json(), **ref})
            if given_type is None:
                raise InvalidCommand(
                    f"card {ref.get('name')!r} is not in the catalog: give its 'type_line' (land or nonland, "
                    "creature or not, comes from it)",
                    Code.INVALID_CARD,
                )
            # Another card of that name or a custom card: only what the object says.
            return Card.from_json(ref)
        raise InvalidCommand(f"a card must be a name or an object with a 'name', got {ref!r}", Code.INVALID_CARD)


@lru_cache(maxsize=1)
def bundled_entries() -> tuple[Mapping[str, Any], ...]:
    raw = resources.files("domain.cards").joinpath("data/catalog.json").read_text(encoding="utf-8")
    return tuple(json.loads(raw))


def bundled_catalog() -> Catalog:
    """A fresh catalog holding the bundled cards (callers may add imported ones)."""
    return Catalog(card_from_oracle(entry) for entry in bundled_entries())
