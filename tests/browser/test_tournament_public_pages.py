"""A tournament's pages for players and judges in a real browser (docs/web.md, Tournaments; issue
31): the players' phone page at 390 px with touch (find my table by name, pairings, standings, the
clock; with no token, and with a player's event link) and the judges' floor view (tables by
status, a player's penalty history). The scorekeeper's page is in test_tournament_pages.py, with
the helpers both use.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import DESKTOP, PHONE, LiveServer
from tests.browser.test_tournament_pages import (
    FINGER,
    NO_OVERFLOW,
    counts_down,
    device,
    event,
    open_page,
    post,
    report_all,
    shoot,
    view,
)

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser


def test_players_find_their_table_by_name_on_a_phone(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    tid = "Page-Public"
    event(live_server, tid)
    post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 11})
    report_all(live_server, tid)
    post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 12})
    post(live_server, f"/v1/tournaments/{tid}/rounds/2/clock", {"action": "start"})
    public = live_server.api.get(f"/v1/tournaments/{tid}/public").json()
    cara = next(p for p in public["pairings"] if "Cara" in p["names"])
    other = next(n for n in cara["names"] if n != "Cara")
    with device(browser, PHONE, touch=True) as phone:
        open_page(phone, live_server, f"/tournaments/{tid}/public", None)  # public reads: no token
        expect(phone.locator("#t-pairings-title")).to_have_text("Pairings, round 2")
        expect(phone.locator("#t-pairings li")).to_have_count(4)
        phone.get_by_label("Find my table: your name").fill("cAra")
        expect(phone.locator("#t-found")).to_have_text(f"Cara: table {cara['table']}, against {other}")
        expect(phone.locator(f'#t-pairings li[data-table="{cara["table"]}"]')).to_have_class(re.compile(r"\bt-mine\b"))
        expect(phone.locator("#t-pairings li.t-mine")).to_have_count(1)
        phone.get_by_label("Find my table: your name").fill("Zed")
        expect(phone.locator("#t-found")).to_have_text("No one named “Zed” is paired in round 2.")
        phone.get_by_label("Find my table: your name").fill("Cara")
        # Standings as the server ranks them, and the clock counting down.
        rows = phone.locator("#t-public-standings tbody tr")
        expect(rows).to_have_count(8)
        assert [rows.nth(i).locator("th").inner_text() for i in range(8)] == [s["name"] for s in public["standings"]]
        remaining = phone.locator('#t-clock [data-field="remaining"]')
        expect(remaining).to_have_text(re.compile(r"^49:[45]\d$"))
        counts_down(phone, remaining)
        # A phone: nothing wider than the screen, every control a finger's size.
        assert phone.evaluate(NO_OVERFLOW)
        for control in phone.locator("#tournament-view button, #tournament-view input, #tournament-view a").all():
            box = control.bounding_box()
            assert box is not None and box["height"] >= FINGER, control.evaluate("el => el.outerHTML")
        phone.get_by_role("button", name="Find", exact=True).tap()
        expect(phone.locator("#t-found")).to_contain_text("Cara: table")
        shoot(phone, screenshots / "tournament-public-phone.png")


def test_the_public_page_with_a_players_event_link(browser: Any, private_server: LiveServer) -> None:
    tid = "Page-Link"
    event(private_server, tid)
    post(private_server, f"/v1/tournaments/{tid}/rounds", {"seed": 3})
    link = post(private_server, f"/v1/tournaments/{tid}/players/p5/link", {})
    with device(browser, PHONE, touch=True) as phone:
        open_page(phone, private_server, f"/tournaments/{tid}/public", None)
        expect(phone.locator("#error-text")).to_contain_text("401")
        phone.goto("about:blank")  # the link differs only in its fragment: load it afresh
        # The link lands on the player's own page (test_event_link_journey.py); the public page
        # reads with the same token.
        phone.goto(private_server.url + f"/tournaments/{tid}/public#token={link['token']}")
        expect(phone.locator("#t-pairings li")).to_have_count(4)
        assert "token" not in phone.url  # moved out of the address bar at once
        phone.get_by_label("Find my table: your name").fill(link["name"])
        expect(phone.locator("#t-found")).to_contain_text(f"{link['name']}: table")


def test_the_floor_view_groups_tables_and_shows_a_players_penalties(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    tid = "Page-Floor"
    event(live_server, tid)
    post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 5})
    tables = view(live_server, tid)["rounds"][0]["tables"]
    first, second, third = tables[0], tables[1], tables[2]
    post(
        live_server,
        f"/v1/tournaments/{tid}/rounds/1/tables/{first['table']}/result",
        {"wins": {first["players"][0]: 2}, "draws": 0},
    )
    post(live_server, f"/v1/games/{second['games'][0]}/time-extensions", {"minutes": 3, "reason": "ruling"})
    penalised, penalised_name = third["players"][1], third["names"][1]
    post(
        live_server,
        f"/v1/games/{third['games'][0]}/penalties",
        {"player": penalised, "section": "2.1", "penalty": "Warning", "reason": "missed the upkeep trigger"},
    )
    post(live_server, f"/v1/tournaments/{tid}/rounds/1/clock", {"action": "start"})
    judge = live_server.token("judge", "Jane (L2)")
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/tournaments/{tid}/floor", judge)

        def group(status: str) -> Any:
            return tab.locator(f'#t-floor .t-floor-group[data-status="{status}"]')

        expect(group("reported").locator("h3")).to_have_text("Reported (1)")
        expect(group("reported").locator(".t-floor-table")).to_contain_text(" vs ".join(first["names"]))
        expect(group("extended").locator("h3")).to_have_text("Extended (1)")
        expect(group("extended").locator(".t-time")).to_have_text(re.compile(r"^\+3 min: 5[23]:\d\d left$"))
        expect(group("pending").locator("h3")).to_have_text("Pending (2)")
        expect(group("featured").locator("h3")).to_have_text("Featured (0)")

        tab.locator("#tournament-view").get_by_label("Player", exact=True).select_option(label=penalised_name)
        tab.get_by_role("button", name="Show the penalty history").click()
        expect(tab.locator("#t-history-status")).to_have_text(f"{penalised_name}: 1 penalty in 1 game.")
        expect(tab.locator("#t-history li")).to_have_text(
            f"Round 1, table {third['table']}: Warning, IPG 2.1 Missed Trigger: missed the upkeep trigger Open the game"
        )
        tab.locator("#tournament-view").get_by_label("Player", exact=True).select_option(label=third["names"][0])
        tab.get_by_role("button", name="Show the penalty history").click()
        expect(tab.locator("#t-history-status")).to_have_text(f"{third['names'][0]}: no penalties in 1 game.")
        expect(tab.locator("#t-history li")).to_have_count(0)
        tab.locator("#tournament-view").get_by_label("Player", exact=True).select_option(label=penalised_name)
        tab.get_by_role("button", name="Show the penalty history").click()
        expect(tab.locator("#t-history li")).to_have_count(1)
        shoot(tab, screenshots / "tournament-floor.png")
