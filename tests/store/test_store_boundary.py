"""Issue 39: nothing above ``store`` touches the storage library's application object.

The ledger reads and appends through ``store.streams.Streams`` (and the games' repository); the
application object is only handed on, unopened, to the read models' runners. This test reads
the source of ``ledger/`` and ``api/`` and fails on any use of the library's parts (``events``,
``recorder``, ``mapper``, ``snapshots``, ``repository`` of an application) or a ``save`` on an
application; import-linter's "Only store/ opens the library application" contract (``make
lint``) keeps ``store.application`` itself out of their imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY_PARTS = {"events", "recorder", "mapper", "snapshots"}
"""The ``eventsourcing.application.Application`` attributes that read or write the store."""


def _uses(path: Path) -> list[str]:
    found: list[str] = []
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = ast.unparse(node.value)
        app_like = owner.split(".")[-1] in ("app", "_app", "application")
        if app_like and node.attr in LIBRARY_PARTS | {"save", "repository"}:
            found.append(f"{where}:{node.lineno}: {owner}.{node.attr}")
    return found


@pytest.mark.parametrize("layer", ["ledger", "api"])
def test_no_layer_above_store_touches_the_library_application(layer: str) -> None:
    uses = [use for path in sorted((ROOT / layer).rglob("*.py")) for use in _uses(path)]
    assert uses == []


def test_the_check_finds_a_use(tmp_path: Path) -> None:
    """The scan itself bites: each kind of use it guards against is found."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "def f(self, app):\n"
        "    self._app.events.get('g')\n"
        "    app.recorder.select_events('g')\n"
        "    self._app.save(1)\n"
        "    self._streams.read('g')\n",
        encoding="utf-8",
    )
    assert len(_uses(probe)) == 3
