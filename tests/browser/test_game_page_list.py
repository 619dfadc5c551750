"""The games list, the top bar and the table set-up on a phone (issue 38, items 14, 16 and 18;
docs/web.md): Chromium at 390x844 with touch.

- 16: the games list at 390 px: each game a card, no cell over another, nothing cut off.
- 18: the token bar is one line (at most 56 px) on every phone screen; Forget needs a confirmation.
- 14: Commander set-up takes a commander the catalog doesn't know, with its type line and mana cost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import PHONE, LiveServer, device
from tests.browser.test_game_flow_page import game_of, set_up_on_the_page
from tests.browser.test_table_page import open_as, player_token, shoot, table_game

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

Box = dict[str, float]


def overlap(a: Box, b: Box) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and (a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)
    )


def test_the_games_list_at_390_px_has_nothing_over_another_or_cut_off(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    games = {
        live_server.create_game(table_game("Grand-Prix-Las-Vegas-2026-Day-Two-Swiss", 1234)),
        live_server.create_game(
            {
                **table_game("A-Long-Event", 7),
                "players": [
                    {"id": "P1", "name": "Maximiliana Featherstonehaugh-Worthington", "library_size": 40},
                    {"id": "P2", "name": "Bartholomew Cholmondeley-Fanshawe", "library_size": 40},
                ],
            }
        ),
    }
    live_server.wait_listed(games)
    with device(browser, PHONE, touch=True) as tab:
        tab.goto(f"{live_server.url}/#token={live_server.token('scorekeeper', name='List phone')}")
        for game_id in games:
            row = tab.locator(f'#games-table tr[data-game-id="{game_id}"]')
            expect(row.locator("td.players")).not_to_be_empty()
            cells = [c for c in row.locator("th, td").all() if c.is_visible()]
            boxes = [c.bounding_box() for c in cells]
            texts = [c.inner_text() for c in cells]
            assert len(boxes) >= 6, texts  # game, players, event, round, table, status
            for text, box in zip(texts, boxes, strict=True):
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (text, box)
            for i, a in enumerate(boxes):
                for j in range(i + 1, len(boxes)):
                    assert not overlap(a, boxes[j]), (texts[i], texts[j], a, boxes[j])
            # Each value says which column it is ("Table: 1234"), the table's head being hidden.
            before = row.locator('td[data-label="Table"]').evaluate("(td) => getComputedStyle(td, '::before').content")
            assert before == '"Table: "', before
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        tab.locator(f'#games-table tr[data-game-id="{sorted(games)[0]}"]').scroll_into_view_if_needed()
        shoot(tab, screenshots / "list-phone.png")


def test_the_token_bar_is_one_line_and_forget_asks_first(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Token-Bar", 1))
    with device(browser, PHONE, touch=True) as tab:
        tab.goto(f"{live_server.url}/")
        expect(tab.get_by_role("textbox", name="API token")).to_be_visible()
        assert tab.locator(".topbar").bounding_box()["height"] <= 56
        open_as(tab, live_server, game_id, player_token(live_server, game_id, "P1"))
        expect(tab.locator("#token-state")).to_contain_text("P1 phone")
        bar = tab.locator(".topbar").bounding_box()
        assert bar is not None and bar["height"] <= 56, bar
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        forget = tab.get_by_role("button", name="Forget token").bounding_box()
        assert forget is not None and forget["height"] >= 44  # a finger's size, in the one line
        # A stray tap on Forget doesn't sign the player out: it asks, and Keep it keeps it.
        tab.get_by_role("button", name="Forget token").tap()
        confirm = tab.get_by_role("group", name="Forget the token?")
        expect(confirm).to_be_visible()
        assert tab.locator(".topbar").bounding_box()["height"] <= 56
        confirm.get_by_role("button", name="Keep it").tap()
        expect(tab.locator("#token-state")).to_contain_text("P1 phone")
        expect(tab.locator("#report")).to_be_visible()
        tab.get_by_role("button", name="Forget token").tap()
        tab.get_by_role("group", name="Forget the token?").get_by_role("button", name="Yes, forget it").tap()
        expect(tab.get_by_role("textbox", name="API token")).to_be_visible()
        expect(tab.locator("#report")).to_be_hidden()


def test_commander_setup_takes_a_commander_the_catalog_does_not_know(browser: Any, live_server: LiveServer) -> None:
    unknown = "Zyx, the Unprinted"

    def pod(setup: Any) -> None:
        setup.get_by_role("textbox", name="Player 1 commander").fill("Atraxa, Grand Unifier")
        setup.get_by_role("textbox", name="Player 2 commander").fill(unknown)
        # The catalog doesn't know it: the type picker opens under the field.
        expect(setup.locator('[data-commander-status="P2"]')).to_contain_text("Not in the catalog")
        setup.get_by_role("textbox", name="Type line of player 2's commander").fill("Legendary Creature — Elf Druid")
        setup.get_by_role("textbox", name="Mana cost of player 2's commander (its colours)").fill("{2}{G}{U}")
        setup.get_by_role("textbox", name="Player 3 commander").fill("Ezuri, Stalker of Spheres")
        setup.get_by_role("textbox", name="Player 4 commander").fill("Atraxa, Grand Unifier")

    with device(browser, PHONE, touch=True) as desk:
        links = set_up_on_the_page(desk, live_server, "commander", ["Ann", "Ben", "Cy", "Di"], pod)
        expect(desk.locator("#setup-status")).to_contain_text("is ready")
    state = live_server.state(game_of(links["P1"]))["state"]
    assert state["players"]["P2"]["commanders"] == [unknown]
    [card] = state["players"]["P2"]["command"]
    assert (card["name"], card["type_line"]) == (unknown, "Legendary Creature — Elf Druid")
    assert card["mana_cost"] == "{2}{G}{U}"
