"""The one way the server writes CSV (results exports, rosters, standings): every cell goes
through ``safe_cell``, so a name or id a player or scorekeeper typed can't become a formula in
the spreadsheet that opens the file (CSV formula injection, OWASP).

A text cell whose first character is one a spreadsheet reads as the start of a formula or a
field separator (``=``, ``+``, ``-``, ``@``, TAB, CR, LF) is written with a ``'`` before it,
which every common spreadsheet shows as text. Numbers are written as they are (``-1`` is a
number, not a formula); booleans as ``true``/``false``, ``None`` as an empty cell."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
"""First characters that make a spreadsheet read a cell as a formula (or split it)."""


def safe_cell(value: Any) -> str:
    """The cell as written (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def to_csv(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """A header line of ``columns`` and one line per row (CRLF line ends, RFC 4180)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([safe_cell(row.get(c)) for c in columns])
    return out.getvalue()
