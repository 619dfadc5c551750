"""Known counter kinds (CR 122): the rules' own, and the kinds printed on cards.

A kind is just a name (CR 122.1: counters with the same name are interchangeable), so a typo
("raad", "+1/+1 " or "Rad" where the rules read "rad") would quietly start a kind no rule reads.
A request's kind is therefore matched against this list, case-insensitively, and stored in its
canonical spelling; a kind not on it is ``422 unknown_counter_kind`` naming the nearest known
kinds, unless the request says ``"custom_kind": true`` (then it is stored as written).

Where the list comes from (docs/rules.md, "Counter kinds"):

- ``RULE_KINDS``: every kind CR 122.1a-122.1i names, and energy and ticket (CR 107.14, 107.17);
  any +X/+Y or -X/-Y counter is known too (122.1a says X and Y are numbers);
- the kinds printed on the bundled catalog's cards, read from their Oracle text
  (``printed_kinds`` over ``data/catalog.json``), so a card added there brings its kinds along;
- ``data/counter_kinds.json``: kinds printed on cards outside the bundled catalog.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

from domain.cards.catalog import bundled_entries
from domain.errors import Code, UnknownName

RULE_KINDS: dict[str, str] = {
    "+1/+1": "CR 122.1a",
    "-1/-1": "CR 122.1a",
    **{
        keyword: "CR 122.1b"
        for keyword in (
            "flying",
            "first strike",
            "double strike",
            "deathtouch",
            "decayed",
            "exalted",
            "haste",
            "hexproof",
            "indestructible",
            "lifelink",
            "menace",
            "reach",
            "shadow",
            "trample",
            "vigilance",
        )
    },
    "shield": "CR 122.1c",
    "stun": "CR 122.1d",
    "loyalty": "CR 122.1e",
    "poison": "CR 122.1f",
    "defense": "CR 122.1g",
    "finality": "CR 122.1h",
    "rad": "CR 122.1i",
    "energy": "CR 107.14",
    "ticket": "CR 107.17",
}
"""Kinds the Comprehensive Rules name, with the rule that names each."""

POWER_TOUGHNESS = re.compile(r"\+\d{1,3}/\+\d{1,3}|-\d{1,3}/-\d{1,3}")
"""+X/+Y and -X/-Y counters (CR 122.1a), e.g. ``+1/+0`` or ``-0/-2``."""

_PRINTED = re.compile(r"([+-]\d+/[+-]\d+|[a-z]+(?: strike)?) counters?\b")
_NOT_A_KIND = frozenset(
    (
        "a",
        "an",
        "and",
        "another",
        "any",
        "each",
        "more",
        "no",
        "of",
        "one",
        "or",
        "that",
        "the",
        "these",
        "this",
        "those",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "x",
        "additional",
    )
)
"""Words that stand before "counter" in Oracle text without naming a kind ("a counter of each
kind", "one or more counters", "those counters")."""


def printed_kinds(oracle_texts: Iterable[str]) -> set[str]:
    """The counter kinds these Oracle texts print ("put a quest counter" gives ``quest``)."""
    found: set[str] = set()
    for text in oracle_texts:
        for match in _PRINTED.finditer(text.lower()):
            if match.group(1) not in _NOT_A_KIND:
                found.add(match.group(1))
    return found


def _key(kind: str) -> str:
    """What two spellings of one kind share: case and runs of spaces don't matter."""
    return " ".join(kind.split()).casefold()


@lru_cache(maxsize=1)
def known_kinds() -> dict[str, str]:
    """Every known kind by its matching key, mapped to its canonical spelling."""
    texts = [str(entry.get("oracle_text") or "") for entry in bundled_entries()]
    texts += [str(face.get("oracle_text") or "") for entry in bundled_entries() for face in entry.get("card_faces", ())]
    raw = resources.files("domain.cards").joinpath("data/counter_kinds.json").read_text(encoding="utf-8")
    names = {*RULE_KINDS, *printed_kinds(texts), *json.loads(raw)["printed"]}
    return {_key(name): name for name in sorted(names)}


def nearest_kinds(kind: str, count: int = 3) -> list[str]:
    """The known kinds closest in spelling to ``kind`` (at most ``count``; maybe none)."""
    known = known_kinds()
    return [known[k] for k in difflib.get_close_matches(_key(kind), list(known), n=count, cutoff=0.6)]


def canonical_kind(kind: str, *, custom: bool = False, where: str = "kind") -> str:
    """The canonical spelling of a known ``kind``; an unknown one is ``unknown_counter_kind``
    unless ``custom`` (the request's ``custom_kind``), which keeps it as written."""
    key = _key(kind)
    known = known_kinds().get(key)
    if known is not None:
        return known
    if POWER_TOUGHNESS.fullmatch(key):
        return key
    if custom:
        return kind
    nearest = nearest_kinds(kind)
    hint = f"nearest known kinds: {', '.join(repr(k) for k in nearest)}" if nearest else "no known kind is close"
    raise UnknownName(
        f"{where}: unknown counter kind {kind!r} ({hint}); the known kinds are those of CR 122 and those "
        'printed on cards; send "custom_kind": true to record it as written',
        Code.UNKNOWN_COUNTER_KIND,
    )
