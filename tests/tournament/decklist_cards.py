"""Card entries in Scryfall's "oracle cards" format (the fields ``mtg-ledger cards import``
reads, ``legalities`` and ``color_identity`` included) for the decklist tests. Legality verdicts
in the tests come from these entries' ``legalities``, as they come from the imported catalog on
a server: nothing in the code under test lists a banned card."""

from __future__ import annotations

from typing import Any

FORMATS = ("standard", "pioneer", "modern", "legacy", "vintage", "pauper", "commander")


def legal(**overrides: str) -> dict[str, str]:
    return {**dict.fromkeys(FORMATS, "legal"), **overrides}


def card(name: str, type_line: str, identity: list[str], text: str = "", **legalities: str) -> dict[str, Any]:
    return {
        "object": "card",
        "name": name,
        "layout": "normal",
        "type_line": type_line,
        "mana_cost": "",
        "oracle_text": text,
        "colors": identity,
        "color_identity": identity,
        "legalities": legal(**legalities),
    }


ENTRIES: list[dict[str, Any]] = [
    card("Lightning Bolt", "Instant", ["R"], "Lightning Bolt deals 3 damage to any target.", standard="not_legal"),
    card("Goblin Guide", "Creature — Goblin Scout", ["R"], "Haste"),
    card("Monastery Swiftspear", "Creature — Human Monk", ["R"], "Haste\nProwess"),
    card("Lava Spike", "Sorcery", ["R"], "Lava Spike deals 3 damage to target player or planeswalker."),
    card("Skewer the Critics", "Sorcery", ["R"], "Spectacle {R}"),
    card("Smash to Smithereens", "Instant", ["R"], "Destroy target artifact."),
    card("Duress", "Sorcery", ["B"], "Target opponent reveals their hand."),
    card("Splinter Twin", "Enchantment — Aura", ["R"], "Enchant creature", modern="banned", pioneer="not_legal"),
    card(
        "Black Lotus",
        "Artifact",
        [],
        "{T}, Sacrifice this artifact: Add three mana of any one color.",
        vintage="restricted",
        legacy="banned",
        modern="not_legal",
        commander="banned",
    ),
    card("Relentless Rats", "Creature — Rat", ["B"], "A deck can have any number of cards named Relentless Rats."),
    card("Seven Dwarves", "Creature — Dwarf", ["R"], "A deck can have up to seven cards named Seven Dwarves."),
    card("Krenko, Mob Boss", "Legendary Creature — Goblin Warrior", ["R"], "{T}: Create X 1/1 red Goblin tokens."),
    card("Counterspell", "Instant", ["U"], "Counter target spell."),
    card("Sol Ring", "Artifact", [], "{T}: Add {C}{C}.", modern="not_legal"),
]
