"""The scorekeeper's event page without curl (docs/web.md, Tournaments): a match's next game
from the results grid (MTR 2.1: game 2 once game 1 has ended), featuring a table, and a
player's link for the whole event with its QR code from the roster. At 1280 px in Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import DESKTOP, LiveServer
from tests.browser.test_tournament_pages import device, event, grid_row, open_page, post, view

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser


def test_next_game_and_featured_tables_from_the_results_grid(browser: Any, live_server: LiveServer) -> None:
    tid = "Page-Games"
    event(live_server, tid)
    post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 4})
    table = view(live_server, tid)["rounds"][0]["tables"][0]
    scorekeeper = live_server.token("scorekeeper")
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/tournaments/{tid}", scorekeeper)
        row = grid_row(tab, 1)
        expect(row.locator(".t-games a")).to_have_text(["Game 1"])
        # Game 1 is still on: the server's refusal shows, nothing is created.
        row.get_by_role("button", name="Next game of table 1").click()
        expect(tab.locator("#t-result-status")).to_contain_text("previous_game_not_over")
        assert live_server.api.get(f"/v1/games/{tid}.r1.t1.g2").status_code == 404

        live_server.act(table["games"][0], {"type": "concede", "player": table["players"][1]})
        row.get_by_role("button", name="Next game of table 1").click()
        expect(tab.locator("#t-result-status")).to_have_text("Created game 2 of table 1.")
        expect(row.locator(".t-games a")).to_have_text(["Game 1", "Game 2"])
        expect(row.locator(".t-games a").nth(1)).to_have_attribute("href", f"/games/{tid}.r1.t1.g2")
        players = live_server.state(f"{tid}.r1.t1.g2")["state"]["players"]
        assert list(players) == table["players"]

        row.get_by_role("button", name="Feature table 1").click()
        expect(tab.locator("#t-result-status")).to_have_text("Table 1 is featured.")
        expect(row).to_have_attribute("data-status", "featured")
        expect(row.locator(".status")).to_have_text("Featured")
        assert view(live_server, tid)["rounds"][0]["tables"][0]["featured"] is True
        row.get_by_role("button", name="Unfeature table 1").click()
        expect(tab.locator("#t-result-status")).to_have_text("Table 1 is no longer featured.")
        expect(row).to_have_attribute("data-status", "pending")


def test_a_player_link_and_its_qr_code_from_the_roster(browser: Any, live_server: LiveServer) -> None:
    tid = "Page-Links"
    event(live_server, tid)  # created by the admin: a scorekeeper who did not create it gets no links
    judge = live_server.token("judge")
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/tournaments/{tid}", judge)
        tab.get_by_role("button", name="Player link for Cara").click()
        box = tab.locator("#t-player-link")
        expect(box).to_be_visible()
        expect(box.locator("h3")).to_have_text("Cara's link for the whole event")
        url = box.get_by_label("Cara's link").input_value()
        assert url.startswith(f"{live_server.url}/tournaments/{tid}/me#token=")  # the player's own page
        qr = box.get_by_role("img", name="QR code of Cara's link")
        expect(qr).to_be_visible()
        assert tab.evaluate("(img) => img.complete && img.naturalWidth > 0", qr.element_handle())
        # The link's token acts as Cara (p3) for the event.
        token = url.split("#token=", 1)[1]
        who = live_server.api.get("/v1/whoami", headers={"Authorization": f"Bearer {token}"})
        assert who.status_code == 200 and who.json()["player_id"] == "p3", who.text
        box.get_by_role("button", name="Close").click()
        expect(box).to_be_hidden()
