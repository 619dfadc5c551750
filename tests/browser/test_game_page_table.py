"""The game page at the table, on a phone (issue 38, items 15, 17 and 18; docs/web.md, Reporting
from the table): Chromium at 390x844 with touch.

- 15: "the opponent gets 2 rad counters" in at most three taps, counted; rad and poison on the tiles.
- 17: replaying an earlier version, every panel above the board says it shows the game now (live).
- 18: the quick undo covers no control; "play a land" plays it from the hand (CR 305.1); the
  stack's text names players, not ids; "Who plays first" before anyone chose; "an energy counter".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import LiveServer
from tests.browser.test_report_taps import Taps, events_of, phone, tile, two_player
from tests.browser.test_table_page import open_as, player_token, shoot

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser


def test_the_opponent_gets_2_rad_counters_in_3_taps_and_the_tiles_show_rad_and_poison(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    upkeep = {"number": 2, "active_player": "P2", "step": "upkeep"}
    game_id = live_server.create_game(two_player("Rad-Taps", turn=upkeep))
    with phone(browser) as alice, phone(browser) as bob:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        open_as(bob, live_server, game_id, player_token(live_server, game_id, "P2"))
        taps = Taps()
        taps(tile(alice, "P2"))
        taps(alice.get_by_role("button", name="Rad counters for Bob: how many?"))
        taps(alice.get_by_role("button", name="Bob gets 2 rad counters", exact=True))
        assert taps.count <= 3
        # A player's report on an opponent (CR 728): stored, waiting for Bob's acknowledgement.
        expect(tile(alice, "P2").locator('[data-field="rad"]')).to_have_text("☢ 2 rad", timeout=5000)
        expect(tile(bob, "P2").locator('[data-field="rad"]')).to_have_text("☢ 2 rad", timeout=5000)
        expect(tile(bob, "P2")).to_have_attribute("aria-label", re.compile(r"2 rad"))
        # Poison, one tap more for the pad's own number (CR 104.3d): on the tile too.
        tile(alice, "P2").tap()
        alice.get_by_role("button", name="Poison counters for Bob: how many?").tap()
        alice.get_by_role("button", name="Bob gets 3 poison counters", exact=True).tap()
        expect(tile(bob, "P2").locator('[data-field="poison"]')).to_have_text("☠ 3 poison", timeout=5000)
        expect(tile(alice, "P1").locator('[data-field="rad"]')).to_have_count(0)  # none: nothing shown
        tile(alice, "P2").tap()
        alice.get_by_role("button", name="Rad counters for Bob: how many?").tap()
        shoot(alice, screenshots / "rad-phone.png")
    added = [
        (e["data"]["target"], e["data"]["kind"], e["data"]["amount"])
        for e in events_of(live_server, game_id, 0, "CountersAdded")
    ]
    assert added == [({"player": "P2"}, "rad", 2), ({"player": "P2"}, "poison", 3)]


def test_replaying_an_earlier_version_every_panel_above_the_board_says_it_is_live(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    game_id = live_server.create_game(two_player("Replay-Live"))
    for _ in range(3):
        live_server.act(game_id, {"type": "lose_life", "player": "P1", "amount": 5})
    with phone(browser) as alice:
        token = player_token(live_server, game_id, "P1")
        alice.goto(f"{live_server.url}/games/{game_id}?version=1#token={token}")
        expect(alice.locator("#board")).to_have_attribute("data-version", "1")
        expect(alice.locator('#players [data-player="P1"] [data-field="life"]')).to_have_text("20")
        note = alice.locator("#replay-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text("Replaying version 1 of 4")
        # The Report panel shows the game now (life 5): it says so, in words, at its top.
        expect(tile(alice, "P1").locator('[data-field="life"]')).to_have_text("5")
        shown = alice.evaluate(
            """() => [...document.querySelectorAll('#game-view > .panel')]
                 .filter((el) => !el.hidden && el.getBoundingClientRect().height > 0
                   && el.compareDocumentPosition(document.querySelector('#board'))
                      & Node.DOCUMENT_POSITION_FOLLOWING)
                 .map((el) => [el.id, getComputedStyle(el, '::before').content])"""
        )
        assert any(panel == "report" for panel, _ in shown), shown
        for panel, before in shown:
            assert "Live: the game now (version 4), not the replayed version 1" in before, (panel, before)
        shoot(alice, screenshots / "replay-phone.png")
        note.get_by_role("button", name="Back to the latest").tap()
        expect(alice.locator("#board")).to_have_attribute("data-version", "4")
        expect(note).to_be_hidden()
        assert alice.evaluate("getComputedStyle(document.querySelector('#report'), '::before').content") == "none"


def test_the_quick_undo_covers_no_control(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(two_player("Undo-Covers"))
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        alice.get_by_role("button", name="Lose 1 life", exact=True).tap()
        bar = alice.get_by_role("region", name="Undo your last report")
        expect(bar.get_by_role("button", name="Undo “Alice loses 1 life”")).to_be_visible(timeout=5000)
        # Scrolled through the whole page (the −1/+1/Lose/Gain row at the bottom of the screen
        # too, where a fixed bar sat): every control on screen is what a finger at its centre
        # touches, the bar's own button aside.
        hidden = alice.evaluate(
            """async () => {
                 const covered = new Set();
                 for (let y = 0; y <= document.documentElement.scrollHeight; y += 120) {
                   window.scrollTo(0, y);
                   await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
                   const controls = '#game-view button, #game-view summary, #game-view input';
                   for (const b of document.querySelectorAll(controls)) {
                     if (b.closest('#quick-undo') || !b.checkVisibility()) continue;
                     const r = b.getBoundingClientRect();
                     const x = r.left + r.width / 2, yc = r.top + r.height / 2;
                     if (!r.width || yc <= 0 || yc >= innerHeight) continue;
                     const at = document.elementFromPoint(x, yc);
                     const label = at && at.closest('label');
                     if (!(at && (at === b || b.contains(at) || (label && label.control === b))))
                       covered.add(b.getAttribute('aria-label') || b.textContent.trim() || b.id);
                   }
                 }
                 return [...covered];
               }"""
        )
        assert hidden == [], hidden


def test_play_a_land_takes_it_from_the_hand(browser: Any, live_server: LiveServer) -> None:
    body = two_player("Land-Play")
    body["players"][0]["hand_size"] = 7  # a paper hand: seven cards the server doesn't know
    game_id = live_server.create_game(body)
    before = live_server.state(game_id)["state"]["players"]["P1"]["hand_size"]
    assert before == 7
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        mine = alice.get_by_role("region", name="Alice", exact=True)
        mine.get_by_text("Play a land", exact=True).tap()
        mine.get_by_role("button", name="Alice plays Forest", exact=True).tap()
        expect(alice.locator("#report-status")).to_contain_text("Recorded: Alice plays Forest", timeout=5000)
        # A second land this turn is refused (CR 305.2), in words that name Alice, not P1.
        mine.get_by_role("button", name="Alice plays Island", exact=True).tap()
        expect(alice.locator("#report-status")).to_contain_text("Not recorded: Alice plays Island", timeout=5000)
        expect(alice.locator("#report-status")).to_contain_text("land_already_played")
        expect(alice.locator("#report-status")).not_to_contain_text("P1")
    state = live_server.state(game_id)["state"]
    assert state["players"]["P1"]["hand_size"] == before - 1  # it came from the hand (CR 305.1)
    assert [p["name"] for p in state["battlefield"].values()] == ["Forest"]


def test_the_stack_names_players_and_counters_take_their_article(browser: Any, live_server: LiveServer) -> None:
    body = two_player("Stack-Names", turn={"number": 2, "active_player": "P1", "step": "draw"})
    body["players"][0]["counters"] = {"rad": 2}
    game_id = live_server.create_game(body)
    live_server.act(game_id, {"type": "advance"})  # the rad trigger (CR 728.1), written with the id
    [top] = live_server.state(game_id)["state"]["stack"]
    assert "P1 mills" in top["description"]
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        expect(alice.locator("#stack .stack-desc")).to_contain_text("Alice mills cards")
        expect(alice.locator("#stack .stack-desc")).not_to_contain_text("P1")
        form = alice.get_by_role("form", name="Resolve the top of the stack")
        expect(form.locator(".stack-top")).to_contain_text("Alice mills cards")
        expect(form.locator(".stack-top")).not_to_contain_text("P1 mills")
        mine = alice.get_by_role("region", name="Alice", exact=True)
        expect(mine.get_by_role("button", name="Add an energy counter", exact=True)).to_have_count(1)
        expect(mine.get_by_role("button", name="Add an experience counter", exact=True)).to_have_count(1)
        expect(mine.get_by_role("button", name="Add a rad counter", exact=True)).to_have_count(1)


def test_nobody_plays_first_before_the_choice(browser: Any, live_server: LiveServer) -> None:
    untap = {"number": 1, "active_player": "P1", "step": "untap"}
    game_id = live_server.create_game(two_player("First-Open", turn=untap))
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        flow = alice.locator("#game-flow")
        expect(flow).to_contain_text("Who plays first: not chosen yet.")
        expect(flow.locator('[data-field="first-player"]')).to_have_count(0)
        flow.get_by_role("button", name="Bob plays first").tap()
        expect(flow.locator('[data-field="first-player"]')).to_have_text("Bob", timeout=5000)
        expect(flow).to_contain_text("Plays first: Bob (chosen).")
