"""Card values: what the server knows about a card, independent of where it is."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.errors import Code, InvalidCommand

#: Card types that make a card a permanent card (CR 110.4).
PERMANENT_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker"})
COLOR_LETTERS = ("W", "U", "B", "R", "G")
_MANA_SYMBOL = re.compile(r"\{([^}]*)\}")
_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7}


@dataclass(frozen=True, slots=True)
class Card:
    """A card as printed (Oracle): enough to track it by name and types."""

    name: str
    """The card's English name; also the key for automated behaviour."""
    type_line: str = ""
    """The full type line, e.g. ``Artifact Creature — Phyrexian Myr``."""
    mana_cost: str = ""
    """Mana cost in Oracle braces, e.g. ``{X}{G}``."""
    power: str | None = None
    """Printed power (a string: it may be ``*``)."""
    toughness: str | None = None
    """Printed toughness (a string: it may be ``*``)."""
    loyalty: str | None = None
    """Printed loyalty of a planeswalker."""
    oracle_text: str = ""
    """Current Oracle text, abilities separated by newlines."""
    colors: tuple[str, ...] | None = None
    """Colours (CR 105.2); ``None`` means: derive them from the mana cost."""

    @property
    def front_type_line(self) -> str:
        """The front face's type line: a double-faced or modal card is judged by its front face
        outside the stack and battlefield (CR 712.8a), e.g. ``Sorcery // Land`` is a sorcery."""
        return self.type_line.split("//", 1)[0].strip()

    @property
    def types(self) -> frozenset[str]:
        """Card types and supertypes (front face): the words before the dash."""
        return frozenset(self.front_type_line.split("—")[0].split())

    @property
    def subtypes(self) -> frozenset[str]:
        """Subtypes (front face): the words after the dash (creature types, land types, Saga, ...)."""
        parts = self.front_type_line.split("—", 1)
        return frozenset(parts[1].split()) if len(parts) == 2 else frozenset()

    @property
    def is_land(self) -> bool:
        """Land or nonland (a Dryad Arbor is a land)."""
        return "Land" in self.types

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_artifact(self) -> bool:
        return "Artifact" in self.types

    @property
    def is_permanent_card(self) -> bool:
        """Whether the card becomes a permanent when it resolves (CR 110.4)."""
        return bool(self.types & PERMANENT_TYPES)

    @property
    def is_instant(self) -> bool:
        return "Instant" in self.types

    @property
    def is_saga(self) -> bool:
        return "Saga" in self.subtypes

    @property
    def color_set(self) -> frozenset[str]:
        """Colours from the colour field, else from the mana cost's coloured symbols (CR 202.2)."""
        if self.colors is not None:
            return frozenset(self.colors)
        found: set[str] = set()
        for symbol in _MANA_SYMBOL.findall(self.mana_cost):
            found.update(letter for letter in COLOR_LETTERS if letter in symbol.split("/"))
            found.update(letter for letter in COLOR_LETTERS if symbol == letter)
        return frozenset(found)

    def has_keyword(self, keyword: str) -> bool:
        """Whether one of the card's Oracle lines is (or starts with) the keyword."""
        key = keyword.lower()
        for line in self.oracle_text.lower().splitlines():
            words = [w.strip() for w in line.split(",")]
            if key in words or line.startswith(key + " "):
                return True
        return False

    @property
    def final_chapter(self) -> int:
        """The highest chapter number of a Saga (CR 714.2d), 0 if it has none."""
        return max(chapter_numbers(self), default=0)

    def int_stat(self, value: str | None) -> int | None:
        """A printed number, or ``None`` for ``*`` and friends."""
        if value is None:
            return None
        try:
            return int(value)
        except ValueError:
            return None

    def to_json(self) -> dict[str, Any]:
        """The card as the API shows it; empty fields left out."""
        out: dict[str, Any] = {"name": self.name, "type_line": self.type_line}
        if self.mana_cost:
            out["mana_cost"] = self.mana_cost
        for key in ("power", "toughness", "loyalty"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.oracle_text:
            out["oracle_text"] = self.oracle_text
        if self.colors is not None:
            out["colors"] = list(self.colors)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Card:
        """Read a card object; raises ``InvalidCommand`` naming the bad field."""
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidCommand(f"a card needs a non-empty 'name', got {data!r}", Code.INVALID_CARD)
        fields: dict[str, Any] = {"name": name}
        for key in ("type_line", "mana_cost", "oracle_text"):
            value = data.get(key)
            if value is not None:
                if not isinstance(value, str):
                    raise InvalidCommand(f"card {name!r}: {key} must be a string, got {value!r}", Code.INVALID_CARD)
                fields[key] = value
        for key in ("power", "toughness", "loyalty"):
            value = data.get(key)
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, str | int):
                    raise InvalidCommand(f"card {name!r}: {key} must be a string, got {value!r}", Code.INVALID_CARD)
                fields[key] = str(value)
        colors = data.get("colors")
        if colors is not None:
            if not isinstance(colors, list) or any(c not in COLOR_LETTERS for c in colors):
                raise InvalidCommand(f"card {name!r}: colors must list W/U/B/R/G, got {colors!r}", Code.INVALID_CARD)
            fields["colors"] = tuple(colors)
        return Card(**fields)


def chapter_numbers(card: Card) -> tuple[int, ...]:
    """Chapter numbers printed on a Saga, in order (``I, II — ...`` counts both)."""
    found: list[int] = []
    for line in card.oracle_text.splitlines():
        head, sep, _ = line.partition(" —")
        if not sep:
            continue
        numerals = [part.strip() for part in head.split(",")]
        if all(n in _ROMAN for n in numerals):
            found.extend(_ROMAN[n] for n in numerals)
    return tuple(sorted(set(found)))
