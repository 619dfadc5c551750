"""What any stored string and any JSON value may hold, checked once over a whole parsed body
(an HTTP body, or an event line of an import file) before any model reads it.

- No control characters: NUL breaks PostgreSQL's text columns (the read model then failed on
  that record at every start), and the others have no place in a record meant to be read. Free
  text values may hold a tab, a newline or a carriage return; keys may hold none of them. Lone
  surrogates (``"\\ud800"``) can't be encoded as UTF-8 and are refused the same way.
- Bounded sizes: every string, every list, and card fields (``oracle_text`` the longest), so a
  low role can't make every read of a game megabytes long (docs/api.md, Limits).
- Integers of at most ``MAX_INT_DIGITS`` digits (``parse_int`` for ``json.loads``): Python
  refuses to convert more than 4,300 digits with a ``ValueError``, which was a 500.

Pure: raises ``InvalidCommand`` (``invalid_character``, ``value_out_of_range``) or
``LimitExceeded`` (``limit_exceeded``, 422), each naming the field by its path.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from domain.errors import Code, InvalidCommand, LimitExceeded

MAX_INT_DIGITS = 20
"""Digits of an integer in a body (2^63 has 19); every accepted amount is far smaller."""
MAX_STRING = 10_000
"""Longest string anywhere in a body (a note's text is the longest field)."""
MAX_NAME = 200
"""Longest name: a token's (what events record as their actor), a rule's citation, a field's."""
OLD_EVENT_LINK_NAME = 64 + 1 + MAX_NAME
"""Longest actor name an older server wrote (before issue 40): an event link's token was named
``<tournament id> <player name>`` uncut, a 64-character id and a 200-character name. Imports
accept it for a player token's records; the server now cuts the name to ``MAX_NAME``
(``fit_name``)."""
MAX_LIST = 1_000
"""Most items in any list of a body: cards in a zone, permanents, choices, ..."""
MAX_PLAYERS = 64
"""Most players in one game."""
CARD_FIELD_LIMITS: Mapping[str, int] = {
    "oracle_text": 2_000,
    "type_line": 200,
    "mana_cost": 200,
    "power": 200,
    "toughness": 200,
    "loyalty": 200,
}
"""Longest value of a card field (the longest printed rules text is about 1,100 characters)."""

_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_IN_OLD_NAME = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
"""What a name in an older server's record may not hold: a roster file let C1 controls
(U+0080-U+009F) into player names before issue 40, and their games' records must import."""
_CONTROL_IN_KEY = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_BREAKS = re.compile("[\t\n\r]")


def parse_int(digits: str) -> int:
    """``json.loads(parse_int=...)``: an integer of at most ``MAX_INT_DIGITS`` digits."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise InvalidCommand(
            f"an integer of {len(digits.lstrip('-'))} digits is out of range (at most {MAX_INT_DIGITS})",
            Code.VALUE_OUT_OF_RANGE,
        )
    return int(digits)


def refuse_constant(name: str) -> Any:
    """``json.loads(parse_constant=...)``: ``NaN`` and ``Infinity`` are not JSON numbers."""
    raise InvalidCommand(f"{name} is not a JSON number", Code.VALUE_OUT_OF_RANGE)


def _where(path: str) -> str:
    return path or "the body"


def _bad_character(text: str, pattern: re.Pattern[str]) -> str | None:
    found = pattern.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def bad_id_character(text: str) -> str | None:
    """The first character an id or an event's name may not hold (``U+0009``), or ``None``: no
    control character at all, not even the tab and line breaks free text may hold (a CSV cell
    starting with one is read as a formula or split, and nobody types one in an id)."""
    return _bad_character(text, _CONTROL_IN_KEY)


def line_break_or_tab(text: str) -> str | None:
    """The first tab, CR or LF of ``text`` (``U+0009``), or ``None``: what ``check_value`` lets
    through in free text but an id refuses (the other control characters ``check_value``
    refuses in every body already)."""
    return _bad_character(text, _BREAKS)


def fit_name(text: str) -> str:
    """``text`` within ``MAX_NAME`` characters: cut, with ``…`` as its last character, when
    longer. For names the server composes (a link's token name is its events' actor name, which
    an import holds to ``MAX_NAME``)."""
    return text if len(text) <= MAX_NAME else f"{text[: MAX_NAME - 1]}…"


def check_string(value: str, path: str, limit: int = MAX_STRING, *, old_name: bool = False) -> None:
    """One string value: no control character, at most ``limit`` characters. With
    ``old_name`` (a name in a stored record) C1 controls pass: older servers let them in."""
    bad = _bad_character(value, _CONTROL_IN_OLD_NAME if old_name else _CONTROL_IN_TEXT)
    if bad is not None:
        raise InvalidCommand(f"{_where(path)}: control character {bad} is not allowed in text", Code.INVALID_CHARACTER)
    if len(value) > limit:
        raise LimitExceeded(f"{_where(path)}: {len(value)} characters; the limit is {limit}")


def check_value(value: Any, path: str = "", *, lists: bool = True, old_names: bool = False) -> None:
    """Every string (key or value) and, with ``lists``, every list of a parsed JSON value,
    recursively. Stored event data is checked without ``lists``: a state the server restores
    may hold more cards in a zone than one request may name (a long game's graveyard); and with
    ``old_names``: a ``name`` field may hold C1 controls (``check_string``)."""
    todo: list[tuple[Any, str, str | None]] = [(value, path, None)]
    while todo:
        current, where, key = todo.pop()
        if isinstance(current, str):
            limit = CARD_FIELD_LIMITS.get(key or "", MAX_STRING)
            check_string(current, where, limit, old_name=old_names and key == "name")
        elif isinstance(current, dict):
            for k, v in current.items():
                sub = f"{where}.{k}" if where else str(k)
                if not isinstance(k, str):
                    continue
                bad = _bad_character(k, _CONTROL_IN_KEY)
                if bad is not None:
                    raise InvalidCommand(
                        f"{_where(where)}: a field name holds control character {bad}", Code.INVALID_CHARACTER
                    )
                if len(k) > 200:
                    raise LimitExceeded(f"{_where(where)}: a field name of {len(k)} characters; the limit is 200")
                todo.append((v, sub, k))
        elif isinstance(current, list):
            limit = MAX_PLAYERS if key == "players" else MAX_LIST
            if lists and len(current) > limit:
                raise LimitExceeded(f"{_where(where)}: {len(current)} items; the limit is {limit}")
            todo.extend((v, f"{where}[{i}]", key) for i, v in enumerate(current))
