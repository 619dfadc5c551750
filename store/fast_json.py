"""JSON in C for the hot paths: the stored records (``store.records.PlainJSONTranscoder``) and an
action's answer (``api.presenters.AnswerResponse``).

``orjson`` writes and reads the values the ledger stores several times faster than the standard
library (an action's answer, the whole game state, cost about 280,000 instructions to encode
with ``json``; bench/instructions.py). Where the two could differ, the standard library decides,
so what is stored and answered reads back exactly as before:

- ``dumps`` falls back to ``json.dumps(ensure_ascii=False, separators=(",", ":"))`` for what
  orjson refuses: a key that is not a string (``json`` writes ``1`` as ``"1"``), an integer past
  64 bits, a lone surrogate, a type neither knows (then ``json`` raises its own error);
- ``loads`` falls back to ``json.loads`` for what orjson refuses (``NaN`` and ``Infinity``
  tokens, an escaped lone surrogate, ``"\\ud800"``) and for any text with a run of 20 digits or
  more: orjson reads an integer past 64 bits as a float, ``json`` reads it exactly.

Both write compact UTF-8 (no ASCII escaping) and keep a dict's order; a float is written in its
shortest round-trip form by both (the text may differ, ``1e16`` against ``1e+16``, the value
does not). The one difference left is a float ``NaN`` or infinity, which orjson writes as
``null``: the ledger stores none (a body's ``NaN`` is refused, ``400 value_out_of_range``, and
the hash chain's canonical JSON refuses one in an event).
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

__all__ = ["dumps", "loads"]

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_LONG_DIGITS = re.compile(rb"[0-9]{20}")
_LONG_DIGITS_TEXT = re.compile(r"[0-9]{20}")


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON of ``value``."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError: a value only the standard library writes (or refuses)
        return _encode(value).encode("utf-8")


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """The value of JSON ``data``."""
    long_digits = _LONG_DIGITS_TEXT.search(data) if isinstance(data, str) else _LONG_DIGITS.search(data)
    if long_digits is None:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:  # a token only the standard library reads (or refuses)
            pass
    return json.loads(data if isinstance(data, str) else bytes(data).decode("utf-8"))
