"""A player's game page offline (issue 41, "Done when"; docs/web.md, Offline), in Debian's
Chromium at 390 px with touch: the page, loaded once, opens again with no network (the service
worker's copy of the page and its files, the last answers kept on the phone), shows the last known
state, takes two taps, and once the network is back the server has exactly those two reports,
each once; the Live badge is never green while offline.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.support import PHONE, LiveServer, device

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

SHELL_KEPT = """async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg || !reg.active || !navigator.serviceWorker.controller) return false;
  return Boolean(await caches.match(location.origin + "/"));
}"""
"""The service worker runs, controls the page and keeps the page itself (its copy for every
address of the page: the same HTML reads its own address)."""


def wait_until_kept(tab: Any, timeout: float = 10.0) -> None:
    """Wait for SHELL_KEPT (an async check: ``wait_for_function`` would take its promise as true)."""
    deadline = time.monotonic() + timeout
    while not tab.evaluate(SHELL_KEPT):
        assert time.monotonic() < deadline, "the service worker never kept the page"
        tab.wait_for_timeout(50)


TOKEN_ANSWERS = """() => new Promise((resolve) => {
  const open = indexedDB.open("mtg-ledger", 1);
  open.onsuccess = () => {
    const keys = open.result.transaction("answers").objectStore("answers").getAllKeys();
    keys.onsuccess = () => resolve(keys.result.filter((k) => !String(k).startsWith("public ")).length);
  };
})"""
"""How many answers this device keeps for a token (the public's aside)."""


def table_game(table: int) -> dict[str, Any]:
    return {
        "variant": "two_player",
        "tournament": {"event": "Offline-Open", "round": 1, "table": table},
        "turn": {"number": 1, "active_player": "P1", "step": "precombat_main"},
        "players": [
            {"id": "P1", "name": "Alice", "library_size": 40},
            {"id": "P2", "name": "Bob", "library_size": 40},
        ],
    }


def player_token(server: LiveServer, game_id: str, player_id: str) -> str:
    body = {"name": f"{player_id} phone", "role": "player", "game_id": game_id, "player_id": player_id}
    response = server.api.post("/v1/tokens", json=body)
    assert response.status_code == 201, response.text
    secret: str = response.json()["token"]
    return secret


def stored_after(server: LiveServer, game_id: str, after: int) -> list[dict[str, Any]]:
    response = server.api.get(f"/v1/games/{game_id}/events", params={"after": after, "limit": 100})
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def test_an_offline_reload_opens_the_last_state_and_sends_two_taps_once(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game(1))
    live_server.act(game_id, {"type": "lose_life", "player": "P1", "amount": 2})  # the state to find again: 18
    token = player_token(live_server, game_id, "P1")
    with device(browser, PHONE, touch=True) as alice:
        alice.goto(f"{live_server.url}/games/{game_id}#token={token}")
        mine = alice.get_by_role("region", name="Alice", exact=True)
        expect(mine.locator('[data-field="life"]')).to_have_text("18")
        expect(alice.locator("#live-badge")).to_have_text("Live")
        wait_until_kept(alice)
        head = live_server.state(game_id)["version"]

        alice.context.set_offline(True)
        expect(alice.locator("#live-badge")).to_have_text("Offline")  # not green
        response = alice.reload()
        # The page came from the service worker: nothing reached the network.
        assert response is not None and response.from_service_worker
        expect(mine.locator('[data-field="life"]')).to_have_text("18")
        expect(alice.locator("#board")).to_have_attribute("data-version", str(head))
        expect(alice.locator("#offline-note")).to_contain_text("Offline: showing the last known state")
        expect(alice.locator("#live-badge")).to_have_text("Offline")
        expect(alice.locator("#live-badge")).not_to_have_class(re.compile(r"\blive\b"))

        pad = alice.get_by_role("region", name="Quick report: Alice", exact=True)
        pad.get_by_role("button", name="Lose 1 life", exact=True).tap()
        pad.get_by_role("button", name="Gain life: how much? (Alice)").tap()
        pad.get_by_role("button", name="Gain 3 life", exact=True).tap()
        expect(alice.locator("#queue-status")).to_contain_text("2 reports waiting", timeout=5000)
        expect(mine.locator('[data-field="pending-life"]')).to_have_text("→ 20 (pending)")
        assert live_server.state(game_id)["version"] == head  # nothing left the phone

        alice.context.set_offline(False)
        expect(alice.locator("#queue-status")).to_have_text("All reports sent.", timeout=10000)
        expect(mine.locator('[data-field="life"]')).to_have_text("20")
        expect(alice.locator("#live-badge")).to_have_text("Live")
        expect(alice.locator("#offline-note")).to_be_hidden()

        # Forgetting the token takes what the server said to it off the phone.
        assert alice.evaluate(TOKEN_ANSWERS) > 0
        alice.get_by_role("button", name="Forget token").tap()
        alice.get_by_role("button", name="Yes, forget it").tap()
        expect(alice.locator("#token-state")).to_contain_text("No token")
        deadline = time.monotonic() + 5
        while alice.evaluate(TOKEN_ANSWERS):
            assert time.monotonic() < deadline, "the token's answers stayed on the device"
            alice.wait_for_timeout(50)
    events = stored_after(live_server, game_id, head)
    assert [(e["type"], e["data"]["player"], e["data"]["amount"]) for e in events] == [
        ("LifeLost", "P1", 1),
        ("LifeGained", "P1", 3),
    ]


def test_the_public_event_page_opens_offline_with_the_last_pairings(browser: Any, live_server: LiveServer) -> None:
    """The players' event page (public reads: no token), loaded once, opens again offline and
    finds a table by name in the pairings it last had."""
    tid = "Offline-Event"
    body = {"id": tid, "name": "Offline Open", "format": "modern", "rounds": 3}
    created = live_server.api.post("/v1/tournaments", json=body)
    assert created.status_code == 201, created.text
    roster = "name,wizards_id\n" + "".join(f"{n},{100 + i}\n" for i, n in enumerate(["Ada", "Bo", "Cara", "Dee"]))
    players = live_server.api.post(
        f"/v1/tournaments/{tid}/players.csv", content=roster, headers={"Content-Type": "text/csv"}
    )
    assert players.status_code == 201, players.text
    paired = live_server.api.post(f"/v1/tournaments/{tid}/rounds", json={"seed": 5})
    assert paired.status_code == 201, paired.text
    pairings = live_server.api.get(f"/v1/tournaments/{tid}/public").json()["pairings"]
    cara = next(p for p in pairings if "Cara" in p["names"])
    with device(browser, PHONE, touch=True) as phone:
        phone.goto(f"{live_server.url}/tournaments/{tid}/public")
        expect(phone.locator("#t-pairings li")).to_have_count(2)
        wait_until_kept(phone)
        phone.context.set_offline(True)
        response = phone.reload()
        assert response is not None and response.from_service_worker
        expect(phone.locator("#t-pairings-title")).to_have_text("Pairings, round 1")
        expect(phone.locator("#t-pairings li")).to_have_count(2)
        expect(phone.locator("#offline-note")).to_contain_text("Offline: showing the last known state")
        phone.get_by_label("Find my table: your name").fill("cara")
        expect(phone.locator("#t-found")).to_contain_text(f"Cara: table {cara['table']}")
        phone.context.set_offline(False)
        expect(phone.locator("#offline-note")).to_be_hidden()
