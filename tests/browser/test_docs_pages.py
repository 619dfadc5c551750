"""Issue 40, finding 5: ``/docs`` and ``/redoc`` under their full policy (``frame-ancestors
'none'``, a ``script-src`` of this server and the page's own inline script): both still draw
the API in Chromium with no policy violation, and no other site can frame them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import LiveServer

pytestmark = pytest.mark.browser

DRAWN = {"/docs": ".swagger-ui .info .title", "/redoc": ".api-info h1"}


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_docs_page_draws_the_api_under_its_policy(page: Any, live_server: LiveServer, path: str) -> None:
    refused: list[str] = []
    page.on("console", lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None)
    response = page.goto(live_server.url + path)
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    title = page.wait_for_selector(DRAWN[path], timeout=15_000)
    assert "MTG Ledger" in title.inner_text()
    # ReDoc's bundle draws its "by Redocly" logo from cdn.redoc.ly: refused on purpose (api/app.py)
    assert [t for t in refused if "cdn.redoc.ly" not in t] == [], refused


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_another_site_cannot_frame_the_docs_page(page: Any, live_server: LiveServer, path: str) -> None:
    # A page of no origin of the server's frames it: Chromium refuses, naming frame-ancestors.
    with page.expect_console_message(lambda msg: "frame-ancestors" in msg.text, timeout=15_000):
        page.set_content(f'<iframe id="f" src="{live_server.url}{path}" width="800" height="600"></iframe>')
    assert page.frame_locator("#f").locator(DRAWN[path]).count() == 0
