"""Unit tests of the page's modules (pending totals, tap grouping, the offline queue, the store)
in the browser suite's Chromium: ``tests/browser/js/unit.js`` is served at an address of the
test server's origin (by Playwright's routing: nothing of it is on the server) and imports the
server's own ``/static/`` modules; each of its tests reports back here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import LiveServer

pytestmark = pytest.mark.browser

UNIT = Path(__file__).resolve().parent / "js" / "unit.js"
SCRIPT = '<script type="module" src="/__units__/unit.js"></script>'
PAGE = f'<!doctype html><meta charset="utf-8"><title>units</title>{SCRIPT}'


def test_the_page_modules_pass_their_unit_tests(page: Any, live_server: LiveServer) -> None:
    page.route(f"{live_server.url}/__units__/", lambda route: route.fulfill(content_type="text/html", body=PAGE))
    page.route(
        f"{live_server.url}/__units__/unit.js",
        lambda route: route.fulfill(content_type="text/javascript", body=UNIT.read_text(encoding="utf-8")),
    )
    page.goto(f"{live_server.url}/__units__/")
    page.wait_for_function("() => Array.isArray(window.unitResults)")
    results: list[dict[str, Any]] = page.evaluate("window.unitResults")
    failed = [f"{r['name']}: {r['error']}" for r in results if not r["ok"]]
    assert not failed, "\n".join(failed)
    assert len(results) >= 8, [r["name"] for r in results]
