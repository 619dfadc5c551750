"""The page's modules as files (no browser needed): every import names a file the server serves,
and no module keeps its own copy of what events mean (their sentences, turn bookkeeping or the
undo rules all name event types; the page only shows what the server says)."""

from __future__ import annotations

import re
from pathlib import Path

from domain.events import EVENT_TYPES

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"
MODULES = sorted(STATIC.glob("*.js"))
IMPORT = re.compile(r"""^\s*import\s[^"']*["']([^"']+)["'];?\s*$""", re.MULTILINE)


def test_every_import_is_a_served_module() -> None:
    assert (STATIC / "main.js") in MODULES
    for module in MODULES:
        for target in IMPORT.findall(module.read_text(encoding="utf-8")):
            # /static/{name} serves plain names only: imports stay in this folder.
            assert re.fullmatch(r"\./[a-z][a-z0-9_-]*\.js", target), f"{module.name} imports {target!r}"
            assert (STATIC / target[2:]).is_file(), f"{module.name} imports a missing {target!r}"


def test_no_module_names_an_event_type() -> None:
    for module in MODULES:
        source = module.read_text(encoding="utf-8")
        named = [t for t in EVENT_TYPES if re.search(rf"\b{t}\b", source)]
        assert named == [], f"{module.name} handles event types itself: {named}"
