"""Support for the browser tests: a real server on a free port and a client to set games up.

The server is uvicorn running ``create_app`` in a background thread, on a socket this process
bound (port 0, so no race for a port). Browser settings: Debian's Chromium and its flags, and the
two window sizes the page must be readable at.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import httpx
import pytest
from pydantic import SecretStr

from api.app import create_app
from api.settings import Settings

CHROMIUM = os.environ.get("MTG_LEDGER_TEST_CHROMIUM") or "/usr/bin/chromium"
"""Debian's Chromium; ``MTG_LEDGER_TEST_CHROMIUM`` names another executable."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ADMIN_TOKEN = "browser-admin-token"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def in_ci() -> bool:
    """``CI=true`` (or ``1``), as CI services set it: there a test that can't run is an error."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


def browser_missing(reason: str) -> NoReturn:
    """Skip the browser tests for ``reason``; under ``CI=true`` fail them instead, so that a CI
    machine without Chromium can't pass ``make test`` with the pages' JavaScript untested."""
    if in_ci():
        pytest.fail(f"{reason}; CI=true, so the browser tests fail rather than skip", pytrace=False)
    pytest.skip(reason)


@dataclass
class LiveServer:
    """A running server: its base URL and an admin client for setting games up."""

    url: str
    api: httpx.Client

    def create_game(self, body: dict[str, Any]) -> str:
        response = self.api.post("/v1/games", json=body)
        assert response.status_code == 201, response.text
        game_id: str = response.json()["game_id"]
        return game_id

    def act(self, game_id: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
        response = self.api.post(f"/v1/games/{game_id}/actions", json=body, headers=headers)
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def state(self, game_id: str, version: int | None = None) -> dict[str, Any]:
        params = {"version": version} if version is not None else {}
        response = self.api.get(f"/v1/games/{game_id}", params=params)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def wait_listed(self, game_ids: set[str], timeout: float = 5.0) -> None:
        """Wait until the games list (a read model, updated just after the write) shows these games."""
        deadline = time.monotonic() + timeout
        while True:
            response = self.api.get("/v1/games")
            assert response.status_code == 200, response.text
            listed = {g["game_id"]: g for g in response.json()["games"]}
            if game_ids <= listed.keys() and all(listed[g]["version"] == self.state(g)["version"] for g in game_ids):
                return
            assert time.monotonic() < deadline, f"the games list never showed {sorted(game_ids - listed.keys())}"
            time.sleep(0.05)

    def token(self, role: str, name: str | None = None) -> str:
        response = self.api.post("/v1/tokens", json={"name": name or f"browser {role}", "role": role})
        assert response.status_code == 201, response.text
        secret: str = response.json()["token"]
        return secret


@contextmanager
def running_server(base: Path, public_reads: bool, public_url: str | None = None) -> Iterator[LiveServer]:
    """A server on a scratch SQLite store in ``base``, with an admin client: reads open to
    everyone or not, and the address players' phones are given (``MTG_LEDGER_PUBLIC_URL``)."""
    settings = Settings(
        _env_file=None,
        database_url=f"sqlite:///{base / 'ledger.sqlite3'}",
        admin_token=SecretStr(ADMIN_TOKEN),
        catalog_path=base / "cards.json",
        public_reads=public_reads,
        public_url=public_url,
    )
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    with serve(settings) as url, httpx.Client(base_url=url, headers=admin, timeout=10) as api:
        yield LiveServer(url, api)


@contextmanager
def serve(settings: Settings) -> Iterator[str]:
    """Run the app on a free port for the ``with`` block; gives its base URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        lifespan="on",
        ws="none",  # no websockets import: nothing here uses them
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextmanager
def device(browser: Any, size: dict[str, int], touch: bool = False) -> Iterator[Any]:
    """One phone (touch) or computer at the table: its own context (storage, downloads allowed);
    uncaught script errors fail the test."""
    context = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch, accept_downloads=True)
    context.set_default_timeout(8000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    try:
        yield tab
    finally:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


# The QR code as the page shows it: the image drawn onto a canvas, one sample per module centre
# (the server draws 6 px modules and a 4-module quiet zone).
READ_QR = """(img) => {
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(img, 0, 0);
  const n = Math.round(img.naturalWidth / 6), px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const rows = [];
  for (let r = 0; r < n; r++) {
    const row = [];
    for (let c = 0; c < n; c++) row.push(px[((r * 6 + 3) * canvas.width + (c * 6 + 3)) * 4] < 128);
    rows.push(row);
  }
  return rows;
}"""
