"""Fixtures for the browser tests: a real server on a free port, a headless Chromium, an API client.

The server is uvicorn running ``create_app`` in a background thread (``support.serve``); the
browser is Debian's ``/usr/bin/chromium`` (or ``MTG_LEDGER_TEST_CHROMIUM``) driven by Playwright's
Python package (never ``playwright install``); without it every browser test skips with the
reason, except under ``CI=true``, where every one fails with it (``support.browser_missing``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    SCREENSHOTS,
    LiveServer,
    browser_missing,
    device,
    running_server,
)


def _live_server(base: Path, public_reads: bool) -> Iterator[LiveServer]:
    with running_server(base, public_reads) as server:
        yield server


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for most of the browser suite: reads are public (MTG_LEDGER_PUBLIC_READS=1)."""
    yield from _live_server(tmp_path_factory.mktemp("public-server"), public_reads=True)


@pytest.fixture(scope="session")
def private_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server where every read needs a token (the default)."""
    yield from _live_server(tmp_path_factory.mktemp("private-server"), public_reads=False)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        browser_missing(
            f"{CHROMIUM} is missing: install Debian's chromium (make browser-deps) to run the browser tests"
        )
    try:
        from playwright import sync_api
    except ImportError:
        browser_missing("the playwright Python package is not installed (make install)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh desktop-sized page (1280x800); uncaught script errors fail the test."""
    with device(browser, DESKTOP) as tab:
        yield tab


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
