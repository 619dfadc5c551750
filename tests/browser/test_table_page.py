"""Reporting from the table in a real browser (docs/web.md, Reporting; issues 13 and 30): players'
devices report life and see each other's reports live, taps made offline are sent once and in
order, a proliferate is answered through its form, a scorekeeper sets a table up and a player
opens their link from the QR code, and a spectator sees nothing to report with. The first screen
(tiles and quick pad) and the bugs of issue 30 are in test_report_taps.py.

Each "done when" point runs at phone width (about 400 px) and at desktop width.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
import segno

from tests.browser.support import DESKTOP, PHONE, READ_QR, LiveServer, device

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])


def table_game(event: str, table: int, **extra: Any) -> dict[str, Any]:
    return {
        "variant": "two_player",
        "tournament": {"event": event, "round": 1, "table": table},
        "turn": {"number": 1, "active_player": "P1", "step": "precombat_main"},
        "players": [
            {"id": "P1", "name": "Alice", "library_size": 40},
            {"id": "P2", "name": "Bob", "library_size": 40},
        ],
        **extra,
    }


def player_token(server: LiveServer, game_id: str, player_id: str) -> str:
    response = server.api.post(
        "/v1/tokens", json={"name": f"{player_id} phone", "role": "player", "game_id": game_id, "player_id": player_id}
    )
    assert response.status_code == 201, response.text
    secret: str = response.json()["token"]
    return secret


def open_as(tab: Any, server: LiveServer, game_id: str, token: str | None) -> None:
    tab.goto(f"{server.url}/games/{game_id}" + (f"#token={token}" if token else ""))
    expect(tab.locator("#board")).to_have_attribute("data-version", re.compile(r"^\d+$"))


def quick(tab: Any, name: str) -> Any:
    """The quick pad (the tiles' pad) for the player named `name`: their tile is picked first."""
    pad = tab.get_by_role("region", name=f"Quick report: {name}", exact=True)
    if not pad.count():
        tab.locator(".tally .tile", has_text=name).first.click()
    expect(pad).to_be_visible()
    return pad


def board_life(tab: Any, player: str) -> Any:
    return tab.locator(f'#players [data-player="{player}"] [data-field="life"]')


def stored_events(server: LiveServer, game_id: str, after: int) -> list[dict[str, Any]]:
    response = server.api.get(f"/v1/games/{game_id}/events", params={"after": after, "limit": 100})
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def shoot(tab: Any, path: Path, full_page: bool = False) -> None:
    tab.evaluate("document.activeElement && document.activeElement.blur()")
    tab.mouse.move(0, 0)
    tab.screenshot(path=str(path), full_page=full_page, caret="hide", animations="disabled")


@SIZES
def test_p1_taps_lose_life_and_p2_sees_it_live(
    browser: Any, live_server: LiveServer, size: dict[str, int], screenshots: Path
) -> None:
    game_id = live_server.create_game(table_game("Table-Live", 1 if size is PHONE else 2))
    p1, p2 = player_token(live_server, game_id, "P1"), player_token(live_server, game_id, "P2")
    with device(browser, size) as alice, device(browser, size) as bob:
        open_as(alice, live_server, game_id, p1)
        open_as(bob, live_server, game_id, p2)
        expect(bob.locator("#live-badge")).to_have_text("Live")
        mine = alice.get_by_role("region", name="Alice", exact=True)
        lose = quick(alice, "Alice").get_by_role("button", name="Lose 1 life", exact=True)
        for _ in range(3):
            lose.click()
        # P2's page, never reloaded, shows 17 within three seconds of the taps (taps of one kind
        # are sent together once no other came for 1.2 s: taps.js).
        expect(board_life(bob, "P1")).to_have_text("17", timeout=3000)
        expect(bob.get_by_role("region", name="Alice", exact=True).locator('[data-field="life"]')).to_have_text("17")
        expect(mine.locator('[data-field="life"]')).to_have_text("17")
        # A player reports for their own player: Bob's page has no control in Alice's panel, and
        # his quick pad on Alice offers only what a player may report on an opponent.
        expect(bob.get_by_role("region", name="Alice", exact=True).get_by_role("button")).to_have_count(0)
        expect(quick(bob, "Bob").get_by_role("button", name="Lose 1 life")).to_be_visible()
        expect(quick(bob, "Alice").get_by_role("button", name="Lose 1 life")).to_have_count(0)
        # Each phone shows its own player's tile and panel first.
        expect(bob.locator("#report .report-player").first).to_have_attribute("data-player", "P2")
        expect(alice.locator("#report .report-player").first).to_have_attribute("data-player", "P1")
        expect(bob.locator("#report .tally .tile").first).to_have_attribute("data-player", "P2")
        quick(bob, "Bob")
        if size is PHONE:
            shoot(alice, screenshots / "report-phone.png")
        else:
            shoot(alice, screenshots / "report.png")
    # The three taps were one report.
    lost = [e for e in stored_events(live_server, game_id, 0) if e["type"] == "LifeLost"]
    assert [(e["data"]["player"], e["data"]["amount"], e["data"]["life_after"]) for e in lost] == [("P1", 3, 17)]
    assert {e["actor"]["name"] for e in lost} == {"P1 phone"}


@SIZES
def test_taps_made_offline_are_sent_once_in_order(browser: Any, live_server: LiveServer, size: dict[str, int]) -> None:
    game_id = live_server.create_game(table_game("Table-Offline", 1 if size is PHONE else 2))
    head = live_server.state(game_id)["version"]
    with device(browser, size) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        expect(alice.locator("#live-badge")).to_have_text("Live")
        mine = alice.get_by_role("region", name="Alice", exact=True)
        pad = quick(alice, "Alice")
        alice.context.set_offline(True)
        pad.get_by_role("button", name="Lose 1 life", exact=True).click()
        pad.get_by_role("button", name="Gain life: how much? (Alice)").click()
        pad.get_by_role("button", name="Gain 3 life", exact=True).click()
        expect(alice.locator("#queue-status")).to_contain_text("2 reports waiting")
        time.sleep(1.0)  # the queue keeps trying while offline: still nothing stored
        assert live_server.state(game_id)["version"] == head
        alice.context.set_offline(False)
        expect(alice.locator("#queue-status")).to_have_text("All reports sent.", timeout=10000)
        expect(mine.locator('[data-field="life"]')).to_have_text("22")
        assert alice.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('mtg-ledger.queue.'))"
            ".map(k => JSON.parse(localStorage.getItem(k)).length)"
        ) == [0]
        time.sleep(0.5)
    events = stored_events(live_server, game_id, head)
    assert [(e["type"], e["data"]["amount"]) for e in events] == [("LifeLost", 1), ("LifeGained", 3)]


def test_a_lost_answer_is_retried_with_the_same_key_and_a_reload_keeps_the_queue(
    browser: Any, live_server: LiveServer
) -> None:
    game_id = live_server.create_game(table_game("Table-Lost-Answer", 3))
    head = live_server.state(game_id)["version"]
    token = player_token(live_server, game_id, "P1")
    with device(browser, PHONE) as alice:
        open_as(alice, live_server, game_id, token)
        expect(alice.locator("#live-badge")).to_have_text("Live")
        keys: list[str | None] = []

        def lose_the_first_answer(route: Any) -> None:
            keys.append(route.request.headers.get("idempotency-key"))
            if len(keys) == 1:
                route.fetch()  # the server stores the report...
                route.abort("connectionreset")  # ...and its answer never reaches the phone
            else:
                route.continue_()

        alice.route(f"**/v1/games/{game_id}/actions", lose_the_first_answer)
        mine = quick(alice, "Alice")
        mine.get_by_role("button", name="Lose 1 life", exact=True).click()
        expect(alice.locator("#queue-status")).to_have_text("All reports sent.", timeout=10000)
        assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
        alice.unroute(f"**/v1/games/{game_id}/actions")

        # Taps made offline survive a reload of the page and are sent once it is back online.
        alice.context.set_offline(True)
        mine.get_by_role("button", name="Gain 1 life", exact=True).click()
        expect(alice.locator("#queue-status")).to_contain_text("1 report waiting")
        alice.route(f"**/v1/games/{game_id}/actions", lambda route: route.abort("internetdisconnected"))
        alice.context.set_offline(False)
        alice.reload()
        expect(alice.locator("#queue-status")).to_contain_text("1 report waiting")
        alice.unroute(f"**/v1/games/{game_id}/actions")
        expect(alice.locator("#queue-status")).to_have_text("All reports sent.", timeout=10000)
    events = stored_events(live_server, game_id, head)
    assert [(e["type"], e["data"]["amount"]) for e in events] == [("LifeLost", 1), ("LifeGained", 1)]


def test_a_409_catches_up_says_what_changed_and_lets_the_person_decide(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Table-Conflict", 4))
    with device(browser, DESKTOP) as alice:
        # This device does not hear about other reports (no live updates), and another one reports.
        alice.route("**/events/stream*", lambda route: route.abort("internetdisconnected"))
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        mine = alice.get_by_role("region", name="Alice", exact=True)
        expect(mine.locator('[data-field="life"]')).to_have_text("20")
        expect(alice.locator("#live-badge")).to_have_text("Reconnecting…")
        other = live_server.act(game_id, {"type": "gain_life", "player": "P2", "amount": 4})
        their_line = other["events"][0]["sentence"]

        # A life change means the same on top of it: the page catches up, says so, and sends it.
        quick(alice, "Alice").get_by_role("button", name="Lose 1 life", exact=True).click()
        status = alice.locator("#report-status")
        expect(status).to_contain_text("The game changed before")
        expect(status).to_contain_text(their_line)
        expect(status).to_contain_text("It was recorded after that")
        expect(mine.locator('[data-field="life"]')).to_have_text("19")
        expect(board_life(alice, "P2")).to_have_text("24")

        # Moving to the next step does not: it waits for the person, who may drop it.
        live_server.act(game_id, {"type": "gain_life", "player": "P2", "amount": 1})
        head = live_server.state(game_id)["version"]
        alice.get_by_role("button", name="Next step", exact=True).click()
        held = alice.get_by_role("group", name="Not sent yet: Next step")
        expect(held).to_be_visible()
        expect(alice.locator("#report-status")).to_contain_text("Send it anyway, or drop it")
        held.get_by_role("button", name="Drop “Next step”").click()
        expect(held).to_have_count(0)
        expect(alice.locator("#queue-status")).to_have_text("All reports sent.")
        assert live_server.state(game_id)["version"] == head
    events = stored_events(live_server, game_id, 1)
    assert [(e["type"], e["data"].get("player"), e["data"].get("amount")) for e in events] == [
        ("LifeGained", "P2", 4),
        ("LifeLost", "P1", 1),
        ("LifeGained", "P2", 1),
    ]


def test_two_tabs_of_one_phone_share_the_queue_without_losing_or_doubling_a_tap(
    browser: Any, live_server: LiveServer
) -> None:
    game_id = live_server.create_game(table_game("Table-Two-Tabs", 12))
    head = live_server.state(game_id)["version"]
    token = player_token(live_server, game_id, "P1")
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(8000)
    errors: list[str] = []
    try:
        tabs = [context.new_page() for _ in range(2)]
        for tab in tabs:
            tab.on("pageerror", lambda err: errors.append(str(err)))
            open_as(tab, live_server, game_id, token)
        context.set_offline(True)
        taps = zip(tabs + tabs[:1], ["Lose 1 life", "Gain 1 life", "Lose 1 life"], strict=True)
        for n, (tab, button) in enumerate(taps, start=1):
            tab.bring_to_front()  # the tab the person switches to (a tab behind may draw no frames)
            quick(tab, "Alice").get_by_role("button", name=button, exact=True).click()
            # A tab groups its own taps for a moment (taps.js), then queues them in the shared list.
            expect(tab.locator("#queue-status")).to_contain_text(f"{n} report")
        expect(tabs[1].locator("#queue-status")).to_contain_text("3 reports waiting")
        context.set_offline(False)
        for tab in tabs:
            expect(tab.locator("#queue-status")).to_have_text("All reports sent.", timeout=15000)
        time.sleep(0.5)
    finally:
        context.close()
    assert not errors, errors
    events = stored_events(live_server, game_id, head)
    assert [(e["type"], e["data"]["amount"]) for e in events] == [("LifeLost", 1), ("LifeGained", 1), ("LifeLost", 1)]


@SIZES
def test_a_proliferate_is_completed_through_its_form(
    browser: Any, live_server: LiveServer, size: dict[str, int]
) -> None:
    body = table_game("Table-Proliferate", 1 if size is PHONE else 2)
    body["players"][0]["counters"] = {"rad": 2}
    body["players"][1]["counters"] = {"poison": 2}
    body["battlefield"] = [
        {"id": "throne", "card": "Throne of Geth", "controller": "P1"},
        {"id": "thopter", "card": "Ornithopter", "controller": "P1"},
        {"id": "hydra", "card": "Feral Hydra", "controller": "P2", "counters": {"+1/+1": 2}},
    ]
    game_id = live_server.create_game(body)
    with device(browser, size) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        # Throne of Geth: {T}, sacrifice an artifact: proliferate (the cost named in its form).
        activate = alice.locator('#report li[data-permanent="throne"] details.activate')
        activate.locator("summary").click()
        activate.get_by_role("checkbox", name="Ornithopter (thopter)").check()
        activate.get_by_role("button", name="Activate Throne of Geth (throne)").click()
        expect(alice.locator('#report li[data-permanent="thopter"]')).to_have_count(0)
        form = alice.get_by_role("form", name="Resolve the top of the stack")
        picks = form.get_by_role("group", name=re.compile("^Proliferate"))
        picks.get_by_role("checkbox", name=re.compile(r"^Alice")).check()
        picks.get_by_role("checkbox", name=re.compile(r"^Bob")).check()
        expect(picks.get_by_role("checkbox", name=re.compile(r"^Feral Hydra"))).not_to_be_checked()
        form.get_by_role("button", name="Proliferate and resolve").click()
        expect(alice.locator("#report-status")).to_contain_text("Recorded")
        expect(alice.get_by_role("form", name="Resolve the top of the stack")).to_have_count(0)
    state = live_server.state(game_id)["state"]
    assert state["players"]["P1"]["counters"] == {"rad": 3}
    assert state["players"]["P2"]["counters"] == {"poison": 3}
    assert state["battlefield"]["hydra"]["counters"] == {"+1/+1": 2}
    assert state["stack"] == []


@SIZES
def test_a_scorekeeper_sets_up_a_table_and_a_player_opens_the_qr_link(
    browser: Any, live_server: LiveServer, size: dict[str, int], screenshots: Path
) -> None:
    keeper = live_server.token("scorekeeper", name=f"Desk {size['width']}")
    table = 31 if size is PHONE else 32
    with device(browser, size) as desk:
        desk.goto(f"{live_server.url}/#token={keeper}")
        setup = desk.get_by_role("region", name="Set up a table")
        setup.locator("summary").click()
        setup.get_by_role("combobox", name="Variant").select_option("two_player")
        setup.get_by_role("textbox", name="Player 1 name").fill("Carol")
        setup.get_by_role("textbox", name="Player 2 name").fill("Dan")
        setup.get_by_role("textbox", name="Tournament event").fill("Table-Setup")
        setup.get_by_role("spinbutton", name="Tournament round").fill("4")
        setup.get_by_role("spinbutton", name="Tournament table").fill(str(table))
        setup.get_by_role("button", name="Create the game and the player links").click()
        figures = desk.locator("#setup-links figure.player-link")
        expect(figures).to_have_count(2)
        expect(figures.nth(0).get_by_role("img", name="QR code of Carol (P1)'s link")).to_be_visible()
        url = figures.nth(0).get_attribute("data-url")
        assert url is not None and "#token=" in url
        # The QR code encodes exactly the link shown.
        img = figures.nth(0).locator("img")
        expect(img).to_have_js_property("complete", True)
        got = img.evaluate(READ_QR)
        expected = segno.make(url, error="m", micro=False).matrix
        n = len(expected)
        assert [row[4 : 4 + n] for row in got[4 : 4 + n]] == [[bool(m) for m in row] for row in expected]
        shoot(desk, screenshots / ("setup-phone.png" if size is PHONE else "setup.png"), full_page=True)
        game_id = url.split("/games/")[1].split("#")[0]
        # The list asks again: the new game is in it, with its players' names.
        row = desk.locator(f'#games-table tbody tr[data-game-id="{game_id}"]')
        expect(row.locator("td.players")).to_have_text("Carol, Dan", timeout=5000)
    state = live_server.state(game_id)["state"]
    # The form's defaults: Regular REL, best of three (MTR 2.1), 60-card decks on a paper start.
    assert state["tournament"] == {"event": "Table-Setup", "round": 4, "table": table, "rel": "regular", "best_of": 3}
    assert [p["name"] for p in state["players"].values()] == ["Carol", "Dan"]
    assert [(p["hand_size"], p["library_size"]) for p in state["players"].values()] == [(7, 53), (7, 53)]
    with device(browser, size) as carol:
        carol.goto(url)
        expect(carol.locator("#board")).to_have_attribute("data-version", re.compile(r"^\d+$"))
        assert "token" not in carol.url
        mine = carol.get_by_role("region", name="Carol", exact=True)
        quick(carol, "Carol").get_by_role("button", name="Gain 1 life", exact=True).click()
        expect(mine.locator('[data-field="life"]')).to_have_text("21")
        expect(carol.get_by_role("region", name="Dan", exact=True).get_by_role("button")).to_have_count(0)
        expect(carol.locator("#judge-panel")).to_be_hidden()


@SIZES
def test_a_spectator_has_no_reporting_controls_and_no_judge_panel(
    browser: Any, live_server: LiveServer, size: dict[str, int]
) -> None:
    game_id = live_server.create_game(table_game("Table-Roles", 1 if size is PHONE else 2))
    for role in ("spectator", None):
        with device(browser, size) as tab:
            open_as(tab, live_server, game_id, live_server.token(role) if role else None)
            expect(tab.locator("#board")).to_have_attribute("data-version", "1")
            expect(tab.locator("body")).to_have_attribute("data-role", "spectator")  # whoami has answered
            expect(tab.locator("#report")).to_be_hidden()
            expect(tab.get_by_role("button", name=re.compile("life|counter|Next step|Resolve", re.I))).to_have_count(0)
            expect(tab.locator("#judge-panel")).to_be_hidden()
    with device(browser, size) as tab:
        open_as(tab, live_server, game_id, live_server.token("scorekeeper"))
        expect(quick(tab, "Alice").get_by_role("button", name="Lose 1 life")).to_be_visible()
        expect(quick(tab, "Bob").get_by_role("button", name="Lose 1 life")).to_be_visible()
        expect(tab.locator("#judge-panel")).to_be_hidden()
    for judge in ("judge", "head_judge"):  # a head judge (Competitive REL backups) reports like a judge
        with device(browser, size) as tab:
            open_as(tab, live_server, game_id, live_server.token(judge))
            expect(tab.locator("#judge-panel")).to_be_visible()
            expect(quick(tab, "Alice").get_by_role("button", name="Lose 1 life")).to_be_visible()


def mentions(value: Any, ids: set[str]) -> bool:
    if isinstance(value, str):
        return value in ids
    if isinstance(value, list):
        return any(mentions(v, ids) for v in value)
    if isinstance(value, dict):
        return any(mentions(v, ids) for v in value.values())
    return False


def visible_versions(tab: Any) -> list[int]:
    versions: list[int] = tab.evaluate(
        "() => [...document.querySelectorAll('#timeline li.event')].filter((li) => !li.hidden)"
        ".map((li) => Number(li.dataset.version))"
    )
    return versions


@SIZES
def test_timeline_entries_per_action_filters_and_the_life_chart(
    browser: Any, live_server: LiveServer, size: dict[str, int], screenshots: Path
) -> None:
    game_id = live_server.create_game(table_game("Table-Viewer", 1 if size is PHONE else 2))
    live_server.act(game_id, {"type": "lose_life", "player": "P1", "amount": 3})
    live_server.act(game_id, {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 2})
    damage = live_server.act(game_id, {"type": "damage", "target": {"player": "P2"}, "amount": 4, "source": "Shock"})
    live_server.act(game_id, {"type": "gain_life", "player": "P1", "amount": 1})
    events = stored_events(live_server, game_id, 0)
    assert len(damage["events"]) == 2  # the damage and the life it cost: one action
    entry, caused = (e["version"] for e in damage["events"])
    with device(browser, size) as tab:
        open_as(tab, live_server, game_id, live_server.token("spectator"))
        expect(tab.locator("#board")).to_have_attribute("data-version", str(len(events)))
        # One entry per action: the damage's consequence is folded under it until opened.
        assert visible_versions(tab) == [e["version"] for e in events if e["version"] != caused]
        fold = tab.locator(f'#timeline li.fold[data-entry="{entry}"] button')
        expect(fold).to_have_text("Show the event it caused")
        expect(fold).to_have_attribute("aria-expanded", "false")
        fold.click()
        expect(tab.locator(f'#timeline li[data-version="{caused}"]')).to_be_visible()
        expect(fold).to_have_attribute("aria-expanded", "true")
        assert "raw" not in tab.locator("#timeline").inner_text()  # sentences, never JSON
        assert "{" not in tab.locator("#timeline").inner_text()

        # By player: every event that names Bob (or his permanents), unfolded.
        tab.get_by_role("combobox", name="Player").select_option(label="Bob (P2)")
        bob = [e["version"] for e in events if mentions(e["data"], {"P2"})]
        expect(tab.locator("#tl-count")).to_have_text(f"{len(bob)} events of {len(events)} shown.")
        assert visible_versions(tab) == bob
        # And by event type.
        tab.get_by_role("combobox", name="Player").select_option("")
        tab.get_by_role("combobox", name="Event type").select_option(label="Life lost")
        lost = [e["version"] for e in events if e["type"] == "LifeLost"]
        expect(tab.locator("#tl-count")).to_have_text(f"{len(lost)} events of {len(events)} shown.")
        assert visible_versions(tab) == lost
        tab.get_by_role("combobox", name="Event type").select_option("")
        expect(tab.locator("#tl-count")).to_have_text("")

        # The chart: one point per action, drawn from the states the server folds.
        tab.locator("#chart-details > summary").click()
        chart = tab.get_by_role("img", name="Life and counters over the game")
        expect(chart).to_be_visible()
        points = tab.locator('#chart polyline[data-series="P1.life"]').get_attribute("points")
        assert points is not None and len(points.split()) == 5  # the start and four actions
        expect(tab.locator('#chart polyline[data-series="P2.poison"]')).to_have_count(1)
        numbers = tab.locator("#chart table tbody tr").last
        expect(numbers).to_have_text(re.compile(rf"^\s*{len(events)}\s*18\s*16\s*0?\s*2\s*$"))
        tab.locator("#chart-details").scroll_into_view_if_needed()
        if size is DESKTOP:
            shoot(tab, screenshots / "chart.png")


def test_ordering_triggers_and_naming_revealed_cards_through_forms(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(
        {
            "variant": "two_headed_giant",
            "tournament": {"event": "Table-Choices", "round": 1, "table": 9},
            "turn": {"number": 3, "active_player": "A1", "step": "draw"},
            "players": [
                {"id": "A1", "name": "Ann", "team": "A", "counters": {"rad": 2}, "library_size": 20},
                {"id": "A2", "name": "Abe", "team": "A", "counters": {"rad": 1}, "library": ["Island", "Forest"]},
                {"id": "B1", "name": "Bea", "team": "B"},
                {"id": "B2", "name": "Ben", "team": "B"},
            ],
        }
    )
    with device(browser, PHONE) as tab:
        open_as(tab, live_server, game_id, live_server.token("scorekeeper"))
        tab.get_by_role("button", name="Next step", exact=True).click()
        order = tab.get_by_role("form", name="Order the triggers")
        expect(order).to_be_visible()
        pending = live_server.state(game_id)["state"]["pending_order"]
        ann = next(t["id"] for t in pending["triggers"] if "A1" in t["description"])
        abe = next(t["id"] for t in pending["triggers"] if t["id"] != ann)
        # Ann's trigger first, whatever order the form started in (keyboard: the buttons keep focus).
        items = order.locator("ol.order li")
        if ann not in (items.first.text_content() or ""):
            order.get_by_role("button", name=f"Move {ann} up (resolve earlier)").click()
        expect(items.first).to_contain_text(ann)
        order.get_by_role("button", name="Put them on the stack in this order").click()
        expect(tab.get_by_role("form", name="Order the triggers")).to_have_count(0)

        # Ann's library is unknown: resolving her rad trigger asks for her two milled cards (or
        # how many were nonland: test_report_taps.py), one field each.
        resolve = tab.get_by_role("form", name="Resolve the top of the stack")
        expect(resolve).to_contain_text(ann)
        resolve.get_by_text("Name the cards instead").click()
        cards = resolve.get_by_role("group", name=re.compile("cards revealed"))
        expect(cards.get_by_role("textbox", name=re.compile(r"^Card \d$"))).to_have_count(2)
        cards.get_by_role("textbox", name="Card 1").fill("Forest")
        cards.get_by_role("textbox", name="Card 2").fill("Island")
        resolve.get_by_role("button", name="Resolve with these cards").click()
        expect(tab.locator("#report-status")).to_contain_text("Recorded")
        expect(tab.get_by_role("form", name="Resolve the top of the stack")).to_contain_text(abe)

        # A draw from an unknown library goes to the hidden hand: nothing to name (CR 400.2).
        ann_panel = tab.get_by_role("region", name="Ann", exact=True)
        ann_panel.locator("details.more > summary").click()
        ann_panel.get_by_role("button", name="Ann draws that many cards").click()
        expect(tab.locator("#report-status")).to_contain_text("Recorded: Ann draws 1")
        expect(tab.get_by_role("form", name="Cards Ann drew")).to_have_count(0)
    events = stored_events(live_server, game_id, 1)
    milled = [e for e in events if e["type"] == "CardsMilled"]
    assert [c["name"] for c in milled[0]["data"]["cards"]] == ["Forest", "Island"]
    assert milled[0]["data"]["player"] == "A1"
    drawn = [e for e in events if e["type"] == "CardsDrawn" and e["data"]["player"] == "A1"]
    assert drawn and drawn[-1]["actor"]["role"] == "scorekeeper"


def test_a_may_choice_and_a_permanent_entering_through_the_panel(browser: Any, live_server: LiveServer) -> None:
    body = table_game("Table-May", 11)
    body["battlefield"] = [{"id": "quest", "card": "Soul Stair Expedition", "controller": "P1"}]
    game_id = live_server.create_game(body)
    with device(browser, DESKTOP) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        mine = alice.get_by_role("region", name="Alice", exact=True)
        mine.locator("details.more > summary").click()
        mine.get_by_role("textbox", name="Card", exact=True).fill("Forest")
        mine.get_by_role("button", name="The card enters the battlefield under Alice's control").click()
        resolve = alice.get_by_role("form", name="Resolve the top of the stack")
        expect(resolve).to_contain_text("landfall")
        may = resolve.get_by_role("group", name=re.compile("You may"))
        may.get_by_role("radio", name="Yes").check()
        resolve.get_by_role("button", name="Resolve with these choices").click()
        expect(alice.get_by_role("form", name="Resolve the top of the stack")).to_have_count(0)
        expect(alice.locator('#report li[data-permanent="quest"]')).to_contain_text("1 quest counter")
    state = live_server.state(game_id)["state"]
    assert state["battlefield"]["quest"]["counters"] == {"quest": 1}
    assert any(p["name"] == "Forest" for p in state["battlefield"].values())


@SIZES
def test_every_reporting_control_is_named_and_works_from_the_keyboard(
    browser: Any, live_server: LiveServer, size: dict[str, int]
) -> None:
    body = table_game("Table-Keys", 5 if size is PHONE else 6)
    body["battlefield"] = [{"id": "elves", "card": "Llanowar Elves", "controller": "P1"}]
    game_id = live_server.create_game(body)
    with device(browser, size) as tab:
        open_as(tab, live_server, game_id, live_server.token("scorekeeper"))
        expect(tab.locator("#report")).to_be_visible()
        tab.locator("#report details").evaluate_all("(ds) => ds.forEach((d) => { d.open = true; })")
        unnamed = tab.evaluate(
            """() => [...document.querySelectorAll('#report button, #report input, #report select')]
                 .filter((el) => {
                   const label = el.getAttribute('aria-label') || (el.labels && el.labels.length);
                   const named = label || (el.tagName === 'BUTTON' && el.textContent.trim());
                   return !named;
                 }).map((el) => el.outerHTML)"""
        )
        assert unnamed == []
        # Keyboard only: Tab to "Lose 1 life", press Enter; the focus stays on the button.
        lose = quick(tab, "Alice").get_by_role("button", name="Lose 1 life", exact=True)
        lose.focus()
        tab.keyboard.press("Enter")
        expect(tab.get_by_role("region", name="Alice", exact=True).locator('[data-field="life"]')).to_have_text("19")
        expect(lose).to_be_focused()
        tab.keyboard.press("Enter")
        expect(tab.get_by_role("region", name="Alice", exact=True).locator('[data-field="life"]')).to_have_text("18")
        # The number pad from the keyboard: open it, Enter on 3.
        tab.get_by_role("button", name="Lose life: how much? (Alice)").press("Enter")
        tab.get_by_role("button", name="Lose 3 life", exact=True).press("Enter")
        expect(tab.get_by_role("region", name="Alice", exact=True).locator('[data-field="life"]')).to_have_text("15")
        tab.get_by_role("button", name="Tap Llanowar Elves (elves)").press("Enter")
        expect(tab.get_by_role("button", name="Untap Llanowar Elves (elves)")).to_be_visible()
        assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert live_server.state(game_id)["state"]["battlefield"]["elves"]["tapped"] is True
