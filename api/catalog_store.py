"""The server's card catalog: the bundled cards plus those imported from Scryfall bulk data.

``mtg-ledger cards import FILE`` reads Scryfall's "oracle cards" JSON (a list of card objects)
and keeps the imported entries in a JSON file beside the store (``MTG_LEDGER_CATALOG_PATH``), so
every worker loads the same catalog at start-up. No network is used at run time.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from domain.cards.catalog import Catalog, bundled_catalog, card_from_oracle
from domain.errors import GameError


def load_catalog(imported: Path | None) -> Catalog:
    catalog = bundled_catalog()
    if imported is not None and imported.exists():
        for entry in json.loads(imported.read_text(encoding="utf-8")):
            catalog.add(card_from_oracle(entry))
    return catalog


def import_scryfall(source: Path, target: Path) -> tuple[int, int]:
    """Merge the cards of a Scryfall-format file into ``target``; returns (read, skipped)."""
    raw = json.loads(source.read_text(encoding="utf-8"))
    if isinstance(raw, dict) and raw.get("object") == "list":
        raw = raw.get("data", [])
    if not isinstance(raw, list):
        raise ValueError(f"{source}: expected a JSON list of Scryfall card objects")
    existing: dict[str, dict[str, Any]] = {}
    if target.exists():
        existing = {e["name"].casefold(): e for e in json.loads(target.read_text(encoding="utf-8"))}
    read = skipped = 0
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            skipped += 1
            continue
        if entry.get("layout") in ("token", "art_series", "emblem", "double_faced_token"):
            skipped += 1
            continue
        try:
            card = card_from_oracle(entry)
        except (GameError, KeyError, TypeError):
            skipped += 1
            continue
        kept = {**card.to_json(), "colors": list(card.color_set)}
        # Decklists are checked against these (issue 42: ledger.decklist_catalog).
        for key in ("legalities", "color_identity"):
            if isinstance(entry.get(key), (dict, list)):
                kept[key] = entry[key]
        existing[card.name.casefold()] = kept
        read += 1
    target.parent.mkdir(parents=True, exist_ok=True)
    # Write beside the target, then rename: a crash never leaves half a catalog.
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".cards-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(sorted(existing.values(), key=lambda e: e["name"]), handle, ensure_ascii=False, indent=0)
    os.replace(tmp, target)
    return read, skipped
