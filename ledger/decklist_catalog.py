"""The card facts decklists are checked against (issue 42): the catalog's cards with what
Scryfall's data says of each one's format legality and colour identity.

The facts come from the same entries the game catalog is built from: the bundled cards
(``domain/cards/data/catalog.json``) and those ``mtg-ledger cards import`` stored beside the
store, which keeps each card's ``legalities`` and ``color_identity`` (``api.catalog_store``).
The basic lands are always known: any deck may hold any number of them (CR 100.2a) and every
format allows them, whatever was imported.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from domain.cards.catalog import bundled_entries
from domain.tournament.decklists_legality import CardFacts

BASIC_LANDS = {
    "Plains": "W",
    "Island": "U",
    "Swamp": "B",
    "Mountain": "R",
    "Forest": "G",
    "Wastes": "",
}
"""CR 205.3i's basic land types (and Wastes, the colourless basic): their identity by mana."""


def facts_of(entry: Mapping[str, Any]) -> CardFacts | None:
    """One Scryfall-format entry's facts (``None`` for an entry without a name)."""
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        return None
    faces = entry.get("card_faces")
    front: Mapping[str, Any] = faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], dict) else {}
    if "card_faces" in entry and isinstance(front.get("name"), str):
        name = front["name"]  # the game catalog's name for a double-faced card (CR 712.8a)
    legalities = entry.get("legalities")
    identity = entry.get("color_identity")
    return CardFacts(
        name=name,
        type_line=str(entry.get("type_line") or front.get("type_line") or ""),
        oracle_text=str(entry.get("oracle_text") or front.get("oracle_text") or ""),
        legalities=dict(legalities) if isinstance(legalities, dict) else None,
        color_identity=tuple(identity) if isinstance(identity, list) else None,
    )


def card_facts(entries: Iterable[Mapping[str, Any]]) -> dict[str, CardFacts]:
    """Facts by case-folded name: the basic lands, then ``entries`` (a later one wins)."""
    found: dict[str, CardFacts] = {}
    for name, colour in BASIC_LANDS.items():
        found[name.casefold()] = CardFacts(
            name=name,
            type_line=f"Basic Land — {name}" if name != "Wastes" else "Basic Land",
            color_identity=tuple(colour),
        )
    for entry in entries:
        facts = facts_of(entry)
        if facts is not None:
            found[facts.name.casefold()] = facts
    return found


def load_card_facts(imported: Path | None) -> dict[str, CardFacts]:
    """The bundled cards' facts and those of the imported file (if there is one)."""
    entries: list[Mapping[str, Any]] = list(bundled_entries())
    if imported is not None and imported.exists():
        raw = json.loads(imported.read_text(encoding="utf-8"))
        entries += [e for e in raw if isinstance(e, dict)]
    return card_facts(entries)
