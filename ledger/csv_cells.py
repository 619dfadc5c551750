"""The one way the server writes CSV (results exports, rosters, standings): every cell goes
through ``safe_cell``, so a name or id a player or scorekeeper typed can't become a formula in
the spreadsheet that opens the file (CSV formula injection, OWASP).

A text cell whose first character is one a spreadsheet reads as the start of a formula or a
field separator (``=``, ``+``, ``-``, ``@``, TAB, CR, LF) is written with a ``'`` before it,
which every common spreadsheet shows as text (also after leading spaces, which a reader may
trim). Numbers are written as they are (``-1`` is a number, not a formula); booleans as
``true``/``false``, ``None`` as an empty cell.

The file is comma-separated, but a spreadsheet set to a European locale reads it with ``;`` as
the separator, and one pasting it may split at tabs (issue 40, finding 4: ``Bob;=1+cmd|' /C
calc'!A0`` became a live formula). So every place inside a cell where such a reading starts a
new cell (after a ``;``, a tab, a ``,`` or a ``"``, and any spaces) gets the same ``'`` before a formula's first
character, and a cell holding a ``;`` or a tab is quoted, so a reader that honours quotes keeps
it whole."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
"""First characters that make a spreadsheet read a cell as a formula (or split it)."""
_INNER_FORMULA = re.compile(r"([;,\t\"] *)(?=[=+\-@])")
"""A ``;``, tab, ``,`` or ``"`` (and spaces) before a formula's first character: a cell of its
own when the file is read with ``;`` or tab as the separator, or by a reader that ignores quotes
(a quote, doubled in the file, ends a quoted cell for a reader that splits elsewhere)."""
_QUOTED = re.compile(r'[",;\t\r\n]')
"""Characters that make a cell quoted: RFC 4180's (``"`` ``,`` CR LF), and the other readings'
separators."""


def safe_cell(value: Any) -> str:
    """The cell's text as written, before quoting (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return str(value)
    text = _INNER_FORMULA.sub(r"\1'", str(value))
    return f"'{text}" if text.lstrip(" ").startswith(FORMULA_STARTS) else text


def _field(text: str) -> str:
    return f'"{text.replace(chr(34), chr(34) * 2)}"' if _QUOTED.search(text) else text


def to_csv(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """A header line of ``columns`` and one line per row (CRLF line ends, RFC 4180)."""
    out = io.StringIO()
    out.write(",".join(_field(safe_cell(c)) for c in columns) + "\r\n")
    for row in rows:
        out.write(",".join(_field(safe_cell(row.get(c))) for c in columns) + "\r\n")
    return out.getvalue()
