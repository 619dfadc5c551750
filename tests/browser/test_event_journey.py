"""Issue 38, "Done when": one 8-player event from its creation to its champion, in a real headless
Chromium, every step on the pages. The scorekeeper creates the event and registers the players on
the desktop page (1280 px) and hands each player their event link; the players (390 px, touch)
report every match result and confirm their opponents' reports on those links; one report is
disputed and a judge settles it on the event page; a player drops and a late entry joins; the top
4 is played out to a champion, whom the public page names.

The harness reads the API only to know which phone sits at which table (what the players read on
their own pages) and, at the end, to check the record: every result of the event was confirmed by
a player on their event link, but the one a judge settled. Results entered by the scorekeeper fail
the test."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest

from tests.browser.support import DESKTOP, PHONE, LiveServer, device
from tests.browser.test_tournament_pages import open_page, view

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

TID = "Journey-38"
PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
LATE = "Ivy"
DROPS = "Hal"


class Event:
    """The event as its people see it: the scorekeeper's and the judge's desks, the players' phones."""

    def __init__(self, browser: Any, server: LiveServer, stack: ExitStack) -> None:
        self.browser = browser
        self.server = server
        self.stack = stack
        self.desk = stack.enter_context(device(browser, DESKTOP))
        self.links: dict[str, str] = {}
        self.phones: dict[str, Any] = {}
        self.ids: dict[str, str] = {}
        self.taps = 0

    # -- the scorekeeper's desk -----------------------------------------------------------------
    def create(self, scorekeeper: str) -> None:
        open_page(self.desk, self.server, "/tournaments", scorekeeper)
        form = self.desk.locator("#t-create")
        form.get_by_label("Event id").fill(TID)
        form.get_by_label("Name").fill("Friday Night Journey")
        form.get_by_label("Format").fill("Standard")
        form.get_by_label("Swiss rounds").fill("3")
        form.get_by_label("Top cut").select_option("4")
        form.get_by_role("button", name="Create the event").click()
        expect(self.desk.locator("#t-title")).to_have_text("Friday Night Journey")

    def register(self, name: str) -> None:
        self.desk.get_by_label("Player's name").fill(name)
        self.desk.get_by_role("button", name="Register the player").click()
        expect(self.desk.locator("#t-register-status")).to_have_text(f"Registered {name}.")

    def hand_out_link(self, name: str) -> None:
        self.desk.get_by_role("button", name=f"Player link for {name}").click()
        url = self.desk.locator("#t-link-url").input_value()
        self.links[name] = url if url.startswith("http") else self.server.url + url
        self.desk.locator("#t-player-link").get_by_role("button", name="Close").click()

    def pair(self, button: str, status: str, line: str = "#t-pair-status") -> None:
        self.desk.get_by_role("button", name=button, exact=True).click()
        expect(self.desk.locator(line)).to_have_text(status)

    def drop(self, name: str, reason: str) -> None:
        self.desk.locator("#t-drop-player").select_option(label=name)
        self.desk.get_by_label("Why they drop (on the record)").fill(reason)
        self.desk.get_by_role("button", name="Drop the player").click()
        row = self.desk.locator(f'#t-players tr:has(th:has-text("{name}"))')
        expect(row).to_have_attribute("data-status", "dropped")

    # -- the players' phones --------------------------------------------------------------------
    def phone(self, name: str) -> Any:
        if name not in self.phones:
            tab = self.stack.enter_context(device(self.browser, PHONE, touch=True))
            tab.goto(self.links[name])
            self.phones[name] = tab
        else:
            self.phones[name].reload()
        return self.phones[name]

    def tap(self, target: Any) -> None:
        target.tap()
        self.taps += 1

    def report(self, name: str, score: str) -> Any:
        tab = self.phone(name)
        self.tap(tab.locator(f'#mr-body button[data-score="{score}"]'))
        self.tap(tab.locator("#mr-report"))
        expect(tab.locator("#mr-state")).to_contain_text("Waiting for")
        return tab

    def confirm(self, name: str, score: str) -> None:
        tab = self.phone(name)
        confirm = tab.locator("#mr-confirm")
        expect(confirm).to_have_text(f"Confirm {score}")
        self.tap(confirm)
        expect(tab.locator("#mr-state")).to_have_text(f"Result recorded: {score}.")

    def dispute(self, name: str, note: str) -> None:
        tab = self.phone(name)
        tab.locator("#mr-dispute").tap()
        tab.locator("#mr-note").fill(note)
        tab.locator("#mr-dispute").tap()
        expect(tab.locator("#mr-state")).to_contain_text("Disputed")

    # -- a round, played out on the phones ------------------------------------------------------
    def latest_tables(self) -> list[dict[str, Any]]:
        tables: list[dict[str, Any]] = view(self.server, TID)["rounds"][-1]["tables"]
        return [t for t in tables if len(t["players"]) == 2]

    def play_round(self, disputed_table: int | None = None, judge: Any = None) -> None:
        for table in self.latest_tables():
            first, second = table["names"]
            if table["table"] == disputed_table:
                self.report(first, "2-0")
                self.dispute(second, "I won game 2")
                judge.reload()
                waiting = judge.locator('#t-reports li[data-state="disputed"]')
                expect(waiting).to_contain_text("I won game 2")
                waiting.get_by_role("button", name="Settle").click()
                form = judge.locator("#t-result-form")
                a, b = table["players"]
                expect(form.locator(f"#t-wins-{a}")).to_have_value("2")  # prefilled from the report
                form.locator(f"#t-wins-{b}").fill("1")
                form.locator("#t-reason").fill("judge: both agree game 2 went to the opponent")
                form.get_by_role("button", name="Report the result").click()
                expect(judge.locator("#t-result-status")).to_contain_text("Reported the result")
                continue
            before = self.taps
            self.report(first, "2-1")
            assert self.taps - before <= 3  # issue 38: a 2-1 in at most 3 taps
            before = self.taps
            self.confirm(second, "1-2")
            assert self.taps - before == 1  # confirmed in 1 tap


def test_an_eight_player_event_from_creation_to_champion_on_the_pages(browser: Any, live_server: LiveServer) -> None:
    scorekeeper = live_server.token("scorekeeper", "Sam (scorekeeper)")
    judge_token = live_server.token("judge", "Jo (judge)")
    with ExitStack() as stack:
        event = Event(browser, live_server, stack)
        event.create(scorekeeper)
        for name in PLAYERS:
            event.register(name)
        for name in PLAYERS:
            event.hand_out_link(name)
        judge = stack.enter_context(device(browser, DESKTOP))
        open_page(judge, live_server, f"/tournaments/{TID}", judge_token)

        event.pair("Pair round 1", "Round 1 is paired: 4 tables.")
        event.play_round(disputed_table=1, judge=judge)

        # Between rounds: one player drops (MTR 2.10), a late entry joins for round 2 (MTR 2.11).
        event.drop(DROPS, "went home")
        event.register(LATE)
        event.hand_out_link(LATE)
        event.pair("Pair round 2", "Round 2 is paired: 4 tables.")
        assert all(DROPS not in t["names"] for t in event.latest_tables())
        event.play_round()
        event.pair("Pair round 3", "Round 3 is paired: 4 tables.")
        event.play_round()

        event.pair("Pair the top 4", "Top-cut round 4 is paired.", "#t-cut-status")
        event.play_round()  # the semifinals
        event.pair("Pair the next top-cut round", "Top-cut round 5 is paired.", "#t-cut-status")
        final = event.latest_tables()[0]
        event.play_round()
        champion = final["names"][0]

        public = stack.enter_context(device(browser, PHONE, touch=True))
        open_page(public, live_server, f"/tournaments/{TID}/public", None)
        expect(public.locator("#t-champion")).to_have_text(f"Champion: {champion}")

    # The record: every result but the settled one is a player's report confirmed by the
    # opponent on their event link, in one action; none is the scorekeeper's.
    record = live_server.api.get(f"/v1/tournaments/{TID}/record").json()
    confirmations = {e["action_id"] for e in record if e["type"] == "MatchReportConfirmed"}
    results = [e for e in record if e["type"] == "ResultReported"]
    assert len(results) == 4 + 4 + 4 + 2 + 1
    by_players = [e for e in results if e["action_id"] in confirmations and e["actor"]["role"] == "player"]
    settled = [e for e in results if e not in by_players]
    assert len(by_players) == len(results) - 1, [(e["actor"], e["data"]) for e in settled]
    assert settled[0]["actor"]["role"] == "judge" and settled[0]["data"].get("reason")
