"""The player's journey on their event link, in a real browser (issue 38; docs/tournaments.md and
docs/web.md, The player's link): a phone at 390 px with touch opens the link the scorekeeper gave,
lands on "my match now" (round, table, opponent), taps through to the game and acknowledges the
opponent's report there, with the same link; the page follows the player to the match's next
game. The roster's QR codes carry the server's public URL (MTG_LEDGER_PUBLIC_URL), not the
address the scorekeeper's laptop happens to browse at.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import ADMIN_TOKEN, DESKTOP, PHONE, LiveServer, device, running_server
from tests.browser.test_tournament_pages import FINGER, NO_OVERFLOW, event, open_page, post, shoot, view

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

PUBLIC_URL = "http://ledger.venue.test:8000"
"""What MTG_LEDGER_PUBLIC_URL names: the venue's address, never the one the test browses."""


@pytest.fixture(scope="module")
def venue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose reads need a token, with a public URL set."""
    base = tmp_path_factory.mktemp("venue-server")
    with running_server(base, public_reads=False, public_url=PUBLIC_URL) as server:
        yield server


def test_a_player_goes_from_their_event_link_to_their_game_and_acknowledges_there(
    browser: Any, venue_server: LiveServer, screenshots: Path
) -> None:
    server = venue_server
    tid = "Journey"
    event(server, tid)
    post(server, f"/v1/tournaments/{tid}/rounds", {"seed": 5})
    table = view(server, tid)["rounds"][0]["tables"][0]
    (me, them), (my_name, their_name) = table["players"], table["names"]
    game = table["games"][0]
    link = post(server, f"/v1/tournaments/{tid}/players/{me}/link", {})
    theirs = post(server, f"/v1/tournaments/{tid}/players/{them}/link", {})
    assert link["url"].startswith(f"/tournaments/{tid}/me#token=")
    with device(browser, PHONE, touch=True) as phone:
        phone.goto(server.url + link["url"])
        assert "token" not in phone.url  # moved out of the address bar at once
        expect(phone.locator("#t-me-round")).to_have_text("Round 1")
        expect(phone.locator("#t-me-table")).to_have_text(f"Table {table['table']}")
        expect(phone.locator("#t-me-opponent")).to_have_text(their_name)
        expect(phone.locator("#t-me-who")).to_contain_text(my_name)
        assert phone.locator("#t-me-extra").count() == 1  # where the match-result panel mounts
        assert phone.evaluate(NO_OVERFLOW)
        go = phone.get_by_role("link", name="Go to my game (game 1)")
        box = go.bounding_box()
        assert box is not None and box["height"] >= FINGER
        shoot(phone, screenshots / "tournament-player-phone.png")
        # The opponent reports damage to me from their own event link: it waits for me.
        damage = {"type": "damage", "target": {"player": me}, "amount": 3, "source": "Lightning Bolt"}
        answer = server.act(game, damage, {"Authorization": f"Bearer {theirs['token']}"})
        [report] = answer["state"]["unacknowledged"]
        go.tap()
        expect(phone).to_have_url(f"{server.url}/games/{game}")
        item = phone.locator(f'#unacknowledged li[data-report="{report["report"]}"]')
        acknowledge = item.get_by_role("button", name="Acknowledge", exact=True)
        expect(acknowledge).to_be_visible()  # the event link is this game's player, as a game link is
        expect(item.get_by_role("button", name="Dispute", exact=True)).to_be_visible()
        acknowledge.tap()
        expect(phone.locator("#unack-status")).to_have_text(f"Acknowledged {report['report']}.")
        assert server.state(game)["state"]["unacknowledged"] == []
        events = server.api.get(f"/v1/games/{game}/events", params={"after": answer["version"]}).json()
        [ack] = [e for e in events["events"] if e["type"] == "ReportAcknowledged"]
        assert ack["data"]["by"] == me and ack["actor"]["role"] == "player"
        # Game 1 ends, the match goes on: the player's page follows to game 2.
        server.act(game, {"type": "concede", "player": them})
        post(server, f"/v1/tournaments/{tid}/rounds/1/tables/{table['table']}/games", {})
        phone.goto(f"{server.url}/tournaments/{tid}/me")  # the link stays in the tab (sessionStorage)
        expect(phone.get_by_role("link", name="Go to my game (game 2)")).to_be_visible(timeout=15000)
        expect(phone.locator("#t-me-game")).to_have_attribute("href", f"/games/{tid}.r1.t{table['table']}.g2")
        # A drop: the link no longer acts, and the page says so (it still reads).
        post(server, f"/v1/tournaments/{tid}/players/{me}/drop", {"reason": "went home"})
        expect(phone.locator("#t-me-dropped")).to_have_text(
            "You dropped after round 1: your link no longer acts in games; this page and the event's pairings "
            "stay yours to read.",
            timeout=15000,
        )


def test_the_rosters_qr_codes_carry_the_public_url(browser: Any, venue_server: LiveServer) -> None:
    server = venue_server
    tid = "Venue"
    event(server, tid)
    with device(browser, DESKTOP) as tab:
        open_page(tab, server, f"/tournaments/{tid}", ADMIN_TOKEN)
        tab.get_by_role("button", name="Player link for Alice", exact=True).click()
        url = tab.locator("#t-link-url")
        expect(tab.locator("#t-link-status")).to_have_text("Alice's link is ready.")
        value = url.input_value()
        assert value.startswith(f"{PUBLIC_URL}/tournaments/{tid}/me#token="), value
        assert not value.startswith(server.url)
