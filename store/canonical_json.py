"""RFC 8785 canonical JSON (JCS), fast for the values the ledger stores.

The hash chain, the export check and idempotency fingerprints all need RFC 8785 bytes. The
``rfc8785`` package writes them node by node in Python, which was a fifth of an action's own
CPU (docs/performance.md). For the values events carry (strings, integers within 2**53,
booleans, null, lists and objects with BMP keys) RFC 8785 is exactly what the standard
library's C encoder writes with sorted keys, no whitespace and no ASCII escaping:

- strings: both escape only ``"``, ``\\`` and U+0000-U+001F (``\\b \\f \\n \\r \\t`` short,
  the rest ``\\u00xx`` in lower case), and write the rest as UTF-8;
- integers: both write the decimal digits (RFC 8785's number form for an integral double);
- keys: RFC 8785 sorts by UTF-16 code units, Python by code points; the two orders are the
  same while every key character is in the Basic Multilingual Plane.

Anything else (a float, an integer past 2**53 - 1, a key beyond the BMP, a lone surrogate, a
non-string key) goes to ``rfc8785`` itself, so such values are written, or refused, exactly as
before. ``tests/store/test_canonical_json.py`` checks the two against each other.
"""

from __future__ import annotations

import json
from typing import Any

import rfc8785

__all__ = ["CanonicalizationError", "canonical"]

CanonicalizationError = rfc8785.CanonicalizationError

_SAFE_INT = 2**53 - 1
_BMP_MAX = "\uffff"
_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")).encode


def canonical(value: Any) -> bytes:
    """The RFC 8785 bytes of ``value``; raises ``CanonicalizationError`` for a value RFC 8785
    can't carry (NaN, an integer past 2**53 - 1, a lone surrogate, ...)."""
    if _plain(value):
        try:
            return _encode(value).encode("utf-8")
        except UnicodeEncodeError:
            pass  # a lone surrogate: rfc8785 refuses it with its own error
    return rfc8785.dumps(value)


def _plain(value: Any) -> bool:
    """Is ``value`` made only of what the C encoder writes as RFC 8785 does? Exact types only:
    a subclass (an ``IntEnum``, a ``str`` enum) may encode differently, so it takes the slow path."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-_SAFE_INT <= value <= _SAFE_INT)
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str or not (key.isascii() or max(key, default="") <= _BMP_MAX):
                return False
            if not _plain(item):
                return False
        return True
    if kind is list or kind is tuple:
        return all(_plain(item) for item in value)
    return False
