"""Reading a decklist in the common text format (issue 42): ``4 Lightning Bolt`` lines, a
``Sideboard`` line before the sideboard, and for Commander a ``Commander`` section.

The format is what Arena, MTGO and the deckbuilding sites export: ``4 Lightning Bolt`` or
``4x Lightning Bolt``; ``Deck``/``Main``/``Mainboard``, ``Sideboard`` and ``Commander`` as
section headers (a trailing ``:`` allowed); ``SB: 2 Duress`` for one sideboard line; a blank
line after the main deck starts the sideboard (MTGO's export) unless a header says otherwise;
``//`` and ``#`` start comments; an Arena set code ``(M10) 146`` after the name is dropped.
A line that fits none of these refuses the whole list (``decklist_unreadable``), naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.errors import Code, InvalidCommand

MAX_TEXT = 8_000
"""Characters a list may have (a 100-card Commander list is about 2,500); below the API's
10,000-character limit on a JSON string, so an over-long list gets this module's own code."""
MAX_LINES = 250
"""Card lines a list may have: a 100-card singleton Commander list is 100."""
MAX_COPIES = 250
"""Copies one line may name (a Relentless Rats deck is about 40)."""
MAIN, SIDEBOARD, COMMANDER = "main", "sideboard", "commander"
_HEADERS = {
    "deck": MAIN,
    "main": MAIN,
    "maindeck": MAIN,
    "mainboard": MAIN,
    "sideboard": SIDEBOARD,
    "commander": COMMANDER,
    "commanders": COMMANDER,
}
_LINE = re.compile(r"(\d{1,4})\s*[xX]?\s+(.+)")
_SET_CODE = re.compile(r"\s+\([A-Za-z0-9]{2,6}\)(\s+\S+)?$")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a list: how many copies of which card (its name as written)."""

    count: int
    name: str


@dataclass(frozen=True, slots=True)
class DecklistText:
    """A list as read: its sections, each in the order written (one entry per name)."""

    main: tuple[Entry, ...]
    sideboard: tuple[Entry, ...] = ()
    commander: tuple[Entry, ...] = ()


def parse_decklist(text: object) -> DecklistText:
    """The list ``text`` holds; ``decklist_too_long`` or ``decklist_unreadable`` (nothing kept)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidCommand("a decklist is text: `4 Lightning Bolt` lines", Code.DECKLIST_UNREADABLE)
    if len(text) > MAX_TEXT:
        raise InvalidCommand(f"a decklist has at most {MAX_TEXT} characters, got {len(text)}", Code.DECKLIST_TOO_LONG)
    sections: dict[str, dict[str, Entry]] = {MAIN: {}, SIDEBOARD: {}, COMMANDER: {}}
    section, header_seen, lines = MAIN, False, 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = re.split(r"\s*(//|#)", raw, maxsplit=1)[0].strip()
        if not line:
            # MTGO's export: the sideboard follows the main deck after one blank line.
            if not header_seen and section == MAIN and sections[MAIN]:
                section = SIDEBOARD
            continue
        header = _HEADERS.get(line.rstrip(":").strip().casefold().replace(" ", ""))
        if header is not None:
            section, header_seen = header, True
            continue
        target = section
        if line[:3].casefold() == "sb:":
            target, line = SIDEBOARD, line[3:].strip()
        found = _LINE.fullmatch(line)
        if found is None:
            raise InvalidCommand(
                f"line {number} ({raw.strip()[:80]!r}) is not `<count> <card name>`", Code.DECKLIST_UNREADABLE
            )
        count, name = int(found.group(1)), _SET_CODE.sub("", found.group(2)).strip()
        if not 1 <= count <= MAX_COPIES:
            raise InvalidCommand(f"line {number}: a count is 1-{MAX_COPIES}, got {count}", Code.DECKLIST_UNREADABLE)
        lines += 1
        if lines > MAX_LINES:
            raise InvalidCommand(f"a decklist has at most {MAX_LINES} card lines", Code.DECKLIST_TOO_LONG)
        key = name.casefold()
        known = sections[target].get(key)
        sections[target][key] = Entry(count + (known.count if known else 0), known.name if known else name)
    if not sections[MAIN] and not sections[COMMANDER]:
        raise InvalidCommand("the decklist names no main-deck card", Code.DECKLIST_UNREADABLE)
    return DecklistText(
        main=tuple(sections[MAIN].values()),
        sideboard=tuple(sections[SIDEBOARD].values()),
        commander=tuple(sections[COMMANDER].values()),
    )


def decklist_to_text(main: tuple[Entry, ...], sideboard: tuple[Entry, ...], commander: tuple[Entry, ...]) -> str:
    """The list in the same format (what an export and the page show)."""
    out: list[str] = []
    if commander:
        out += ["Commander", *(f"{e.count} {e.name}" for e in commander), "", "Deck"]
    out += [f"{e.count} {e.name}" for e in main]
    if sideboard:
        out += ["", "Sideboard", *(f"{e.count} {e.name}" for e in sideboard)]
    return "\n".join(out) + "\n"
