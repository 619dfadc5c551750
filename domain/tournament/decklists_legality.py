"""Is a decklist legal for the event's format? Deck construction by the Comprehensive Rules,
banned and restricted cards by the card catalog's own data (issue 42).

- CR 100.2a: a constructed deck has at least 60 cards and at most four of any card with a
  particular English name other than basic lands; CR 100.4a: its sideboard has at most 15
  cards and the four-card limit counts deck and sideboard together.
- CR 100.2b: a limited deck has at least 40 cards, any number of copies from its pool.
- CR 903.5a: a Commander deck has exactly 100 cards, its commander included; 903.5b: other
  than basic lands each card has a different English name; 903.5c: each card's colour identity
  is within its commander's; 903.3: the commander is a legendary creature, Vehicle or Spacecraft (or
  says it can be your commander, 903.3a).
- A card whose text says so may break the copy limit ("A deck can have any number of cards
  named ...", "up to seven cards named ...").
- Banned, restricted (at most one copy, deck and sideboard together) and not legal: each card's ``legalities`` in
  the catalog (Scryfall's data, imported with ``mtg-ledger cards import``), keyed by the
  event's format. There is no hand-written list here: a card the catalog has no legality for
  is a warning, not a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from domain.errors import Code, IllegalAction
from domain.tournament.decklists_text import DecklistText, Entry

CONSTRUCTED, LIMITED, COMMANDER_FORMAT = "constructed", "limited", "commander"
LIMITED_FORMATS = frozenset({"sealed", "draft", "boosterdraft", "limited", "cube", "cubedraft", "sealeddeck"})
COMMANDER_FORMATS = frozenset({"commander", "edh", "duel", "paupercommander", "oathbreaker"})
MIN_CONSTRUCTED, MIN_LIMITED, COMMANDER_SIZE, MAX_SIDEBOARD, MAX_COPIES = 60, 40, 100, 15, 4
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_ANY_NUMBER = re.compile(r"a deck can have any number of cards named", re.IGNORECASE)
_UP_TO = re.compile(r"a deck can have up to (\w+) cards named", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What deck construction reads of one catalog card."""

    name: str
    type_line: str
    oracle_text: str = ""
    legalities: Mapping[str, str] | None = None
    """Scryfall's ``legalities``: format key -> ``legal``/``not_legal``/``restricted``/``banned``."""
    color_identity: tuple[str, ...] | None = None

    @property
    def basic_land(self) -> bool:
        return self.type_line.startswith("Basic") and "Land" in self.type_line

    def copy_limit(self, usual: int) -> int | None:
        """How many copies a deck may have (``None``: any number), by the card's own text."""
        if self.basic_land or _ANY_NUMBER.search(self.oracle_text):
            return None
        up_to = _UP_TO.search(self.oracle_text)
        if up_to is not None:
            word = up_to.group(1).casefold()
            return int(word) if word.isdigit() else _NUMBERS.get(word, usual)
        return usual


@dataclass(frozen=True, slots=True)
class Checked:
    """A legal list with the catalog's spelling of each name, and what could not be checked."""

    main: tuple[Entry, ...]
    sideboard: tuple[Entry, ...]
    commander: tuple[Entry, ...]
    warnings: tuple[str, ...]


class DecklistRefused(IllegalAction):
    """``decklist_illegal`` or ``decklist_unknown_card``, with every reason (the API lists them)."""

    def __init__(self, code: Code, reasons: list[str]) -> None:
        super().__init__("; ".join(reasons), code)
        self.reasons = tuple(reasons)


def format_kind(fmt: str, event_kind: str) -> tuple[str, str]:
    """(``constructed``/``limited``/``commander``, the format's key in the catalog's data)."""
    key = re.sub(r"[^a-z0-9]", "", fmt.casefold())
    if event_kind == "commander" or key in COMMANDER_FORMATS:
        return COMMANDER_FORMAT, key if key in COMMANDER_FORMATS else "commander"
    if key in LIMITED_FORMATS:
        return LIMITED, key
    return CONSTRUCTED, key


def check_decklist(deck: DecklistText, fmt: str, event_kind: str, catalog: Mapping[str, CardFacts]) -> Checked:
    """The list checked against ``catalog`` (card facts by case-folded name) for the event's
    format; ``DecklistRefused`` with every reason when it is not legal."""
    unknown = [e.name for e in (*deck.commander, *deck.main, *deck.sideboard) if e.name.casefold() not in catalog]
    if unknown:
        raise DecklistRefused(Code.DECKLIST_UNKNOWN_CARD, [f"not in the card catalog: {n}" for n in unknown])

    def named(entries: tuple[Entry, ...]) -> tuple[Entry, ...]:
        return tuple(Entry(e.count, catalog[e.name.casefold()].name) for e in entries)

    main, side, commander = named(deck.main), named(deck.sideboard), named(deck.commander)
    kind, key = format_kind(fmt, event_kind)
    reasons: list[str] = []
    warnings: list[str] = []
    copies: dict[str, int] = {}
    for entry in (*commander, *main, *side):
        copies[entry.name] = copies.get(entry.name, 0) + entry.count
    main_size = sum(e.count for e in main) + sum(e.count for e in commander)
    side_size = sum(e.count for e in side)
    if kind == CONSTRUCTED:
        if main_size < MIN_CONSTRUCTED:
            reasons.append(f"the main deck has {main_size} cards: at least {MIN_CONSTRUCTED} (CR 100.2a)")
        if side_size > MAX_SIDEBOARD:
            reasons.append(f"the sideboard has {side_size} cards: at most {MAX_SIDEBOARD} (CR 100.4a)")
    elif kind == LIMITED:
        if main_size < MIN_LIMITED:
            reasons.append(f"the main deck has {main_size} cards: at least {MIN_LIMITED} (CR 100.2b)")
    else:
        reasons += _commander_reasons(commander, main, main_size, catalog)
    for name, count in copies.items():
        card = catalog[name.casefold()]
        if kind != LIMITED:
            usual = 1 if kind == COMMANDER_FORMAT else MAX_COPIES
            limit = card.copy_limit(usual)
            if limit is not None and count > limit:
                rule = "CR 903.5b: singleton" if kind == COMMANDER_FORMAT and limit == 1 else "CR 100.2a"
                reasons.append(f"{count} copies of {name}: at most {limit} ({rule})")
        if kind == LIMITED or card.basic_land:
            continue
        legality = (card.legalities or {}).get(key)
        if legality is None:
            warnings.append(f"the catalog has no {fmt} legality for {name}")
        elif legality == "banned":
            reasons.append(f"{name} is banned in {fmt} (the catalog's legalities)")
        elif legality == "not_legal":
            reasons.append(f"{name} is not legal in {fmt} (the catalog's legalities)")
        elif legality == "restricted" and count > 1:
            reasons.append(f"{name} is restricted in {fmt}: at most 1 copy, not {count} (the catalog's legalities)")
    if reasons:
        raise DecklistRefused(Code.DECKLIST_ILLEGAL, reasons)
    return Checked(main, side, commander, tuple(warnings))


def _commander_reasons(
    commander: tuple[Entry, ...], main: tuple[Entry, ...], size: int, catalog: Mapping[str, CardFacts]
) -> list[str]:
    reasons: list[str] = []
    if size != COMMANDER_SIZE:
        reasons.append(f"the deck has {size} cards with its commander: exactly {COMMANDER_SIZE} (CR 903.5a)")
    if not commander or sum(e.count for e in commander) > 2:
        reasons.append("name one commander (two with Partner) in a `Commander` section (CR 903.3)")
        return reasons
    identity: set[str] = set()
    for entry in commander:
        card = catalog[entry.name.casefold()]
        kinds = ("Creature", "Vehicle", "Spacecraft")
        eligible = "Legendary" in card.type_line and any(k in card.type_line for k in kinds)
        if not eligible and "can be your commander" not in card.oracle_text:
            reasons.append(
                f"{card.name} is not a legendary creature, Vehicle or Spacecraft: it can't be a commander (CR 903.3)"
            )
        identity |= set(card.color_identity or ())
    for entry in main:
        card = catalog[entry.name.casefold()]
        outside = sorted(set(card.color_identity or ()) - identity)
        if outside:
            reasons.append(
                f"{card.name}'s colour identity has {''.join(outside)}, outside the commander's "
                f"{''.join(sorted(identity)) or 'colourless'} (CR 903.5c)"
            )
    return reasons
