"""The judges' page, the judge panel's penalty form and the offline API docs in a real browser
(issue 30; docs/web.md, Judges): open calls of every table newest first, kept up to date while
the page is open, each linking to its game with the call preselected; the penalty form starting
from that call (its player and its id) instead of the first entries; the floor view's count of
the event's open calls; /docs and /redoc with no network beyond this server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.support import DESKTOP, PHONE, LiveServer
from tests.browser.test_table_page import device, shoot, table_game

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])


def call(server: LiveServer, game_id: str, called_by: str, question: str) -> str:
    response = server.api.post(f"/v1/games/{game_id}/judge-calls", json={"called_by": called_by, "question": question})
    assert response.status_code == 201, response.text
    opened = [e for e in response.json()["events"] if e["data"].get("question") == question]
    name: str = opened[0]["data"]["call"]
    return name


def rule(server: LiveServer, game_id: str, name: str) -> None:
    response = server.api.post(f"/v1/games/{game_id}/judge-calls/{name}/ruling", json={"ruling": "play on"})
    assert response.status_code == 201, response.text


def cards(tab: Any) -> Any:
    return tab.locator("#judges-calls li.judges-call")


def listed(tab: Any) -> list[tuple[str, str]]:
    return [(item.get_attribute("data-game"), item.get_attribute("data-call")) for item in cards(tab).all()]


@SIZES
def test_the_judges_page_lists_open_calls_newest_first_and_follows_them(
    browser: Any, live_server: LiveServer, size: dict[str, int], screenshots: Path
) -> None:
    tag = "desktop" if size is DESKTOP else "phone"
    event = f"Judges-Floor-{tag}"
    game_a = live_server.create_game(table_game(event, 3))
    game_b = live_server.create_game(
        {**table_game(event, 8), "players": [{"id": "P1", "name": "Carol"}, {"id": "P2", "name": "Dan"}]}
    )
    first = call(live_server, game_a, "P1", "Does my upkeep trigger still happen?")
    second = call(live_server, game_b, "P2", "Can I respond to the equip ability?")
    judge = live_server.token("judge", "Jane (L2)")
    with device(browser, size) as tab:
        tab.goto(f"{live_server.url}/judges?event={event}#token={judge}")
        expect(tab.locator("#judges-title")).to_have_text("Judge calls")
        expect(tab.locator("#judges-meta")).to_have_text(f"Open calls of {event}, newest first")
        expect(cards(tab)).to_have_count(2)
        assert listed(tab) == [(game_b, second), (game_a, first)]
        newest = cards(tab).first
        expect(newest.locator(".judges-table")).to_have_text("Table 8")
        expect(newest.locator(".judges-where")).to_have_text(f"{event} · round 1")
        expect(newest.locator(".judges-question")).to_have_text("Dan asks: Can I respond to the equip ability?")
        expect(newest.locator(".judges-game")).to_have_text(f"Carol vs Dan · game {game_b}, {second}")
        expect(newest.locator(".judges-age")).to_have_text("just now")
        link = newest.get_by_role("link", name=f"Answer {second} at table 8")
        assert link.get_attribute("href") == f"/games/{game_b}#call={second}"
        expect(tab.locator("#judges-status")).to_contain_text("2 open calls.")
        assert tab.title().startswith("(2) Judge calls")
        if size is PHONE:
            assert tab.evaluate(NO_OVERFLOW)
            box = link.bounding_box()
            assert box is not None and box["height"] >= 44
        shoot(tab, screenshots / f"judges-{tag}.png")

        # The page follows the floor: a new call appears on top (marked new), an answered one goes.
        third = call(live_server, game_a, "P2", "Is this a missed trigger?")
        expect(cards(tab)).to_have_count(3, timeout=10_000)
        assert listed(tab)[0] == (game_a, third)
        expect(cards(tab).first).to_have_class(re.compile(r"\bnew\b"))
        expect(cards(tab).first.locator(".judges-question")).to_have_text("Bob asks: Is this a missed trigger?")
        rule(live_server, game_b, second)
        expect(cards(tab)).to_have_count(2, timeout=10_000)
        assert listed(tab) == [(game_a, third), (game_a, first)]

        # Every event's calls: the same page without the filter lists these among the others.
        tab.get_by_role("button", name="Every event").click()
        expect(tab.locator("#judges-meta")).to_have_text("Open calls of every table, newest first")
        assert urlsplit(tab.url).path == "/judges" and not urlsplit(tab.url).query
        expect(tab.locator(f'#judges-calls li[data-game="{game_a}"]')).to_have_count(2)


def test_the_judges_page_says_which_token_it_needs(browser: Any, live_server: LiveServer) -> None:
    with device(browser, DESKTOP) as tab:
        tab.goto(f"{live_server.url}/judges")
        expect(tab.locator("#judges-status")).to_contain_text("(401")
        expect(tab.locator("#judges-status")).to_have_class(re.compile(r"\berror-text\b"))
        spectator = live_server.token("spectator", "Coverage")
        tab.locator("#token-input").fill(spectator)
        tab.get_by_role("button", name="Use token").click()
        expect(tab.locator("#judges-status")).to_contain_text("(403 Forbidden, forbidden)")
        expect(tab.locator("#judges-status")).to_contain_text("needs a judge's, a scorekeeper's or an admin's token")
        expect(cards(tab)).to_have_count(0)


def test_a_call_opened_from_the_judges_page_starts_the_penalty_form_from_it(
    browser: Any, live_server: LiveServer
) -> None:
    event = "Judges-Penalty"
    game_id = live_server.create_game(table_game(event, 5))
    alices = call(live_server, game_id, "P1", "My opponent looked at an extra card")
    bobs = call(live_server, game_id, "P2", "Did I miss my trigger?")
    judge = live_server.token("judge", "Jane (L2)")
    with device(browser, DESKTOP) as tab:
        tab.goto(f"{live_server.url}/judges?event={event}#token={judge}")
        expect(cards(tab)).to_have_count(2)
        # The older call, Alice's: the form must not just take the newest one, nor the first player.
        tab.locator(f'#judges-calls li[data-call="{alices}"]').get_by_role("link").click()
        expect(tab).to_have_url(re.compile(rf"/games/{game_id}#call={alices}$"))
        expect(tab.locator("#judge-panel")).to_be_visible()
        expect(tab.locator("#penalty-call")).to_have_value(alices)
        expect(tab.locator("#penalty-player")).to_have_value("P1")
        expect(tab.locator("#time-call")).to_have_value(alices)
        expect(tab.locator("#penalty-from")).to_have_text(f"From {alices}, called by Alice (P1).")
        expect(tab.locator(f'#calls-open form[data-call="{alices}"]')).to_have_class(re.compile(r"\btargeted\b"))

        # From a call in the panel's list: its player and its id, and the infraction is next.
        tab.get_by_role("button", name=f"Penalty for {bobs}").click()
        expect(tab.locator("#penalty-call")).to_have_value(bobs)
        expect(tab.locator("#penalty-player")).to_have_value("P2")
        expect(tab.locator("#penalty-section")).to_be_focused()
        tab.locator("#penalty-section").select_option("2.1")
        tab.locator("#penalty-submit").click()
        expect(tab.locator("#penalty-status")).to_have_text("Penalty given: Warning for Bob (P2) (IPG 2.1).")
    [penalty] = live_server.state(game_id)["state"]["judging"]["penalties"]
    assert (penalty["player"], penalty["call"], penalty["section"]) == ("P2", bobs, "2.1")


def test_without_a_named_call_the_penalty_form_starts_from_the_newest_open_call(
    browser: Any, live_server: LiveServer
) -> None:
    game_id = live_server.create_game(table_game("Judges-Newest", 6))
    call(live_server, game_id, "P2", "first question")
    newest = call(live_server, game_id, "P2", "second question")
    judge = live_server.token("judge", "Jane (L2)")
    with device(browser, DESKTOP) as tab:
        tab.goto(f"{live_server.url}/games/{game_id}#token={judge}")
        expect(tab.locator("#judge-panel")).to_be_visible()
        expect(tab.locator("#penalty-call")).to_have_value(newest)
        expect(tab.locator("#penalty-player")).to_have_value("P2")  # the caller, not the first player
        # A choice the judge made stays while the page updates.
        tab.locator("#penalty-player").select_option("P1")
        call(live_server, game_id, "P1", "third question")
        expect(tab.locator("#calls-open form.call")).to_have_count(3)
        expect(tab.locator("#penalty-player")).to_have_value("P1")
        expect(tab.locator("#penalty-call")).to_have_value(newest)


def test_the_floor_view_counts_the_events_open_calls(browser: Any, live_server: LiveServer) -> None:
    from tests.browser.test_tournament_pages import event as make_event
    from tests.browser.test_tournament_pages import post, view

    tid = "Judges-Floor-Count"
    make_event(live_server, tid)
    post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 3})
    table = view(live_server, tid)["rounds"][0]["tables"][1]
    game_id = table["games"][0]
    name = call(live_server, game_id, table["players"][0], "Can I see the decklist?")
    judge = live_server.token("judge", "Jane (L2)")
    with device(browser, DESKTOP) as tab:
        tab.goto(f"{live_server.url}/tournaments/{tid}/floor#token={judge}")
        expect(tab.locator("#t-calls b")).to_have_text("1 open judge call")
        link = tab.locator("#t-calls").get_by_role("link", name="The judges' page of this event")
        assert link.get_attribute("href") == f"/judges?event={tid}"
        at_table = tab.locator(f'.t-floor-table[data-table="{table["table"]}"] a.t-table-call')
        expect(at_table).to_have_text(f"Judge call: {table['names'][0]}")
        assert at_table.get_attribute("href") == f"/games/{game_id}#call={name}"
        rule(live_server, game_id, name)
        expect(tab.locator("#t-calls b")).to_have_text("No open judge calls", timeout=10_000)
        expect(tab.locator(".t-table-call")).to_have_count(0)


@pytest.mark.parametrize(("path", "ready"), [("/docs", ".swagger-ui .info .title"), ("/redoc", "h1")])
def test_the_api_docs_work_with_no_network_but_this_server(
    browser: Any, live_server: LiveServer, path: str, ready: str
) -> None:
    own = urlsplit(live_server.url).netloc
    elsewhere: list[str] = []
    with device(browser, DESKTOP) as tab:

        def only_this_server(route: Any) -> None:
            if urlsplit(route.request.url).netloc == own or route.request.url.startswith("data:"):
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort("internetdisconnected")

        tab.route("**/*", only_this_server)
        tab.goto(f"{live_server.url}{path}")
        expect(tab.locator(ready).first).to_contain_text("MTG Ledger", timeout=15_000)
        if path == "/docs":
            expect(tab.locator(".opblock-summary-path", has_text="/v1/judge-calls").first).to_be_visible()
    assert elsewhere == []
