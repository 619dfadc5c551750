"""A tournament's pages in a real browser (docs/web.md, Tournaments; issue 31): the scorekeeper's
event page at 1280 px (pairing rounds, results and corrections, standings, the clock, the roster,
the top cut), the link from the games list and the pages' headers. The players' phone page and
the judges' floor view are in test_tournament_public_pages.py, with this module's helpers.

Each event has 8 players, set up through the API; what the page shows is compared with the API.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import DESKTOP, LiveServer, device

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

NAMES = ["Alice", "Bob", "Cara", "Dan", "Eve", "Fay", "Gus", "Hal"]
NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
FINGER = 44  # px: the smallest touch target the pages allow


def shoot(tab: Any, path: Path) -> None:
    tab.evaluate("document.activeElement && document.activeElement.blur()")
    tab.screenshot(path=str(path), full_page=True, caret="hide", animations="disabled")


def post(server: LiveServer, path: str, body: Any, status: int = 201) -> dict[str, Any]:
    response = server.api.post(path, json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def event(server: LiveServer, tid: str, **settings: Any) -> None:
    """An 8-player event, its roster imported as CSV."""
    post(server, "/v1/tournaments", {"id": tid, "name": f"{tid} Open", "format": "modern", "rounds": 3, **settings})
    roster = "name,wizards_id\n" + "".join(f"{n},{100 + i}\n" for i, n in enumerate(NAMES))
    response = server.api.post(
        f"/v1/tournaments/{tid}/players.csv", content=roster, headers={"Content-Type": "text/csv"}
    )
    assert response.status_code == 201, response.text


def view(server: LiveServer, tid: str) -> dict[str, Any]:
    response = server.api.get(f"/v1/tournaments/{tid}")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def report_all(server: LiveServer, tid: str) -> None:
    """Every open table of the latest round: the first seat wins 2-0."""
    rnd = view(server, tid)["rounds"][-1]
    for table in rnd["tables"]:
        if table["result"] is None:
            first, second = table["players"]
            post(
                server,
                f"/v1/tournaments/{tid}/rounds/{rnd['round']}/tables/{table['table']}/result",
                {"wins": {first: 2, second: 0}, "draws": 0},
            )


def open_page(tab: Any, server: LiveServer, path: str, token: str | None) -> None:
    tab.goto(f"{server.url}{path}" + (f"#token={token}" if token else ""))


def grid_row(tab: Any, table: int) -> Any:
    return tab.locator(f'#t-grid tbody tr[data-table="{table}"]')


def enter_result(tab: Any, table: dict[str, Any], wins: tuple[int, int], reason: str | None = None) -> None:
    verb = "Correct" if reason is not None else "Enter"
    tab.get_by_role("button", name=f"{verb} the result of table {table['table']}", exact=True).click()
    form = tab.locator("#t-result-form")
    for name, won in zip(table["names"], wins, strict=True):
        form.get_by_label(f"Games won by {name}", exact=True).fill(str(won))
    if reason is not None:
        form.get_by_label("Why the correction (on the record)").fill(reason)
    form.get_by_role("button", name="Correct the result" if reason is not None else "Report the result").click()


def page_standings(tab: Any) -> list[tuple[str, str]]:
    rows = tab.locator("#t-standings tbody tr")
    return [
        (rows.nth(i).locator("th").inner_text().strip(), rows.nth(i).locator('[data-field="points"]').inner_text())
        for i in range(rows.count())
    ]


def api_standings(server: LiveServer, tid: str) -> list[tuple[str, str]]:
    return [(s["name"], str(s["points"])) for s in view(server, tid)["standings"]]


def counts_down(tab: Any, remaining: Any) -> None:
    """The time left shown goes down by the page's own count: with the server out of reach (no
    new reads), it still counts."""
    tab.route("**/v1/tournaments/**", lambda route: route.abort())
    try:
        first = remaining.inner_text()
        deadline = time.monotonic() + 4
        while remaining.inner_text() >= first:  # "49:57" < "49:58": same length, so text order is time order
            assert time.monotonic() < deadline, f"the clock stayed at {first}"
            time.sleep(0.25)
    finally:
        tab.unroute("**/v1/tournaments/**")


def test_the_scorekeeper_pairs_reports_and_corrects_on_the_page(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    tid = "Page-Swiss"
    event(live_server, tid)
    scorekeeper = live_server.token("scorekeeper", "Sam (scorekeeper)")
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/tournaments/{tid}", scorekeeper)
        expect(tab.locator("#t-title")).to_have_text(f"{tid} Open")
        expect(tab.locator("#t-players tbody tr")).to_have_count(8)
        tab.get_by_role("button", name="Pair round 1", exact=True).click()
        expect(tab.locator("#t-pair-status")).to_have_text("Round 1 is paired: 4 tables.")
        paired = view(live_server, tid)["rounds"][0]["tables"]
        for table in paired:  # names, never ids
            expect(grid_row(tab, table["table"]).locator(".t-names")).to_have_text(" vs ".join(table["names"]))
            expect(grid_row(tab, table["table"])).to_have_attribute("data-status", "pending")

        # While results are missing, round 2 can't be paired: the page offers no button for it
        # (the server's actions, issue 38), and the top cut isn't offered either.
        expect(tab.get_by_role("button", name="Pair round 2", exact=True)).to_be_hidden()
        expect(tab.locator("#t-cut-action")).to_be_hidden()

        # Results, entered on the page: the first seat wins 2-1 at every table.
        before = page_standings(tab)
        for table in paired:
            enter_result(tab, table, (2, 1))
            expect(tab.locator("#t-result-status")).to_contain_text(f"Reported the result of table {table['table']}")
            expect(grid_row(tab, table["table"])).to_have_attribute("data-status", "reported")
        expect(tab.locator("#t-standings-caption")).to_have_text("Swiss standings after round 1")
        winners = {t["names"][0] for t in paired}
        expect(tab.locator("#t-standings tbody tr").first.locator('[data-field="points"]')).to_have_text("3")
        after = page_standings(tab)
        assert after != before and after == api_standings(live_server, tid)
        assert {name for name, points in after if points == "3"} == winners

        # A correction needs its reason; with one, table 1's result turns around (MTR: a new event).
        first = paired[0]
        tab.get_by_role("button", name=f"Correct the result of table {first['table']}", exact=True).click()
        tab.locator("#t-result-form").get_by_role("button", name="Correct the result").click()
        expect(tab.locator("#t-result-status")).to_have_text("A correction needs its reason (it goes on the record).")
        enter_result(tab, first, (0, 2), reason="slip filled in the wrong way round")
        expect(tab.locator("#t-result-status")).to_contain_text(f"Corrected the result of table {first['table']}")
        expect(grid_row(tab, first["table"]).locator(".t-result")).to_contain_text("corrected 1 time")
        loser, winner = first["names"]
        expect(tab.locator(f'#t-standings tbody tr:has(th:text-is("{winner}")) [data-field="points"]')).to_have_text(
            "3"
        )
        expect(tab.locator(f'#t-standings tbody tr:has(th:text-is("{loser}")) [data-field="points"]')).to_have_text("0")
        assert page_standings(tab) == api_standings(live_server, tid)
        record = live_server.api.get(f"/v1/tournaments/{tid}/record").json()
        assert any(r["data"].get("reason") == "slip filled in the wrong way round" for r in record)

        tab.get_by_role("button", name="Pair round 2", exact=True).click()
        expect(tab.locator("#t-pair-status")).to_have_text("Round 2 is paired: 4 tables.")
        expect(tab.locator("#t-round-select")).to_have_value("2")
        expect(tab.locator("#t-results .summary")).to_have_text("Round 2: 0 of 4 results in.")
        # For the picture: a result, a judge's extension at another table and the clock running.
        round2 = view(live_server, tid)["rounds"][1]["tables"]
        enter_result(tab, round2[0], (2, 0))
        post(live_server, f"/v1/games/{round2[1]['games'][0]}/time-extensions", {"minutes": 5, "reason": "deck check"})
        tab.get_by_role("button", name="Start the clock", exact=True).click()
        expect(grid_row(tab, round2[1]["table"])).to_have_attribute("data-status", "extended")
        assert tab.evaluate(NO_OVERFLOW)
        shoot(tab, screenshots / "tournament-scorekeeper.png")


def test_the_round_clock_counts_pauses_and_calls_time(browser: Any, live_server: LiveServer) -> None:
    tid = "Page-Clock"
    event(live_server, tid)
    post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 7})
    judge = live_server.token("judge", "Jane (L2)")
    table2 = view(live_server, tid)["rounds"][0]["tables"][1]
    post(live_server, f"/v1/games/{table2['games'][0]}/time-extensions", {"minutes": 4, "reason": "deck check"})
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/tournaments/{tid}", judge)
        remaining = tab.locator('#t-clock [data-field="remaining"]')
        expect(remaining).to_have_text("50:00")
        expect(tab.locator("#t-clock .t-clock-state")).to_have_text("Round 1: the clock has not started (50 minutes).")
        tab.get_by_role("button", name="Start the clock", exact=True).click()
        expect(remaining).to_have_text(re.compile(r"^49:5\d$"), timeout=3000)
        counts_down(tab, remaining)
        # Table 2's judge extension: its own time is the round's plus 4 minutes.
        expect(grid_row(tab, 2)).to_have_attribute("data-status", "extended")
        expect(grid_row(tab, 2).locator(".t-time")).to_have_text(re.compile(r"^\+4 min: 53:\d\d left$"))
        counts_down(tab, grid_row(tab, 2).locator(".t-time"))  # the table's own time counts too

        tab.get_by_role("button", name="Pause the clock", exact=True).click()
        expect(tab.locator("#t-clock .t-clock-state")).to_have_text("Round 1: paused.")
        paused = remaining.inner_text()
        time.sleep(1.2)
        assert remaining.inner_text() == paused
        assert view(live_server, tid)["clock"]["state"] == "paused"
        expect(tab.locator('#t-clock button[data-action="pause"]')).to_be_hidden()  # only valid actions (issue 38)
        tab.get_by_role("button", name="Resume the clock", exact=True).click()
        expect(tab.locator("#t-clock .t-clock-state")).to_have_text(re.compile(r"^Round 1: running, ends at "))
        tab.get_by_role("button", name="End the round (call time)", exact=True).click()
        expect(tab.locator("#t-clock .t-clock-state")).to_have_text(re.compile(r"^Round 1: time was called at "))
        expect(remaining).to_have_text("0:00")  # not the minutes the clock stopped at (issue 38)
        expect(tab.locator("#t-clock .t-clock-after")).to_have_text("Turns after time: 5 (MTR 2.5)")
        expect(tab.locator("#t-clock .t-clock-after")).to_be_visible()


def test_the_roster_on_the_page(browser: Any, live_server: LiveServer) -> None:
    tid = "Page-Roster"
    post(live_server, "/v1/tournaments", {"id": tid, "name": "Roster Cup", "format": "pauper"})
    scorekeeper = live_server.token("scorekeeper")
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/tournaments/{tid}", scorekeeper)
        tab.get_by_label("Player's name").fill("Ivy")
        tab.get_by_label("Wizards account id (optional)").fill("4242")
        tab.get_by_role("button", name="Register the player").click()
        expect(tab.locator("#t-register-status")).to_have_text("Registered Ivy.")
        roster = "name,wizards_id\n" + "".join(f"{n},\n" for n in NAMES[:5])
        tab.get_by_label("Roster file (CSV with the header name,wizards_id)").set_input_files(
            files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": roster.encode()}]
        )
        tab.get_by_role("button", name="Import the roster").click()
        expect(tab.locator("#t-import-status")).to_have_text("Registered 5 players from roster.csv.")
        expect(tab.locator("#t-players tbody tr")).to_have_count(6)
        assert [p["name"] for p in view(live_server, tid)["players"]] == ["Ivy", *NAMES[:5]]

        with tab.expect_download() as download_info:
            tab.get_by_role("button", name="Roster (CSV)").click()
        exported = Path(download_info.value.path()).read_bytes().decode("utf-8")
        assert exported == live_server.api.get(f"/v1/tournaments/{tid}/players.csv").text and "Ivy" in exported

        # A drop needs its reason on the page; with one, the server records it.
        tab.locator("#tournament-view").get_by_label("Player", exact=True).select_option(label="Bob")
        tab.get_by_role("button", name="Drop the player").click()
        expect(tab.locator("#t-drop-status")).to_have_text("A drop needs its reason (it goes on the record).")
        tab.get_by_label("Why they drop (on the record)").fill("family emergency")
        tab.get_by_role("button", name="Drop the player").click()
        expect(tab.locator("#t-drop-status")).to_have_text("Bob is dropped: family emergency.")
        expect(tab.locator('#t-players tr:has(th:text-is("Bob")) td').last).to_have_text("Dropped: family emergency")
        tab.locator("#tournament-view").get_by_label("Player", exact=True).select_option(label="Cara")
        tab.get_by_role("button", name="Mark as a no-show").click()  # a no-show misses a paired round: none yet
        expect(tab.locator("#t-drop-status")).to_contain_text("(422 Unprocessable Entity, no_round_in_play)")
        post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 1})
        expect(tab.locator("#t-results .summary")).to_contain_text("Round 1:")
        tab.get_by_role("button", name="Mark as a no-show").click()
        expect(tab.locator("#t-drop-status")).to_have_text("Cara is marked as a no-show.")
        expect(tab.locator('#t-players tr:has(th:text-is("Cara")) td').last).to_have_text("No-show")
        statuses = {p["name"]: p["status"] for p in view(live_server, tid)["players"]}
        assert statuses["Bob"] == "dropped" and statuses["Cara"] == "no_show"
        expect(tab.locator("#t-drop-player option")).to_have_text(["Choose a player", "Ivy", "Alice", "Dan", "Eve"])

        # An unknown id in a drop is the server's refusal (the page only offers active players).
        tab.evaluate("document.querySelector('#t-drop-player').append(new Option('Ghost', 'p99', true, true))")
        tab.get_by_label("Why they drop (on the record)").fill("ghost")
        tab.get_by_role("button", name="Drop the player").click()
        expect(tab.locator("#t-drop-status")).to_contain_text("(404 Not Found, unknown_player)")


def test_the_top_cut_bracket_and_the_exports(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    tid = "Page-Cut"
    event(live_server, tid, top_cut=4)
    for seed in (21, 22, 23):
        post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": seed})
        report_all(live_server, tid)
    scorekeeper = live_server.token("scorekeeper")
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/tournaments/{tid}", scorekeeper)
        expect(tab.locator("#t-standings-caption")).to_have_text("Swiss standings after round 3")
        expect(tab.locator("#t-bracket")).to_be_hidden()
        tab.get_by_role("button", name="Pair the top 4", exact=True).click()
        expect(tab.locator("#t-cut-status")).to_have_text("Top-cut round 4 is paired.")
        semis = tab.get_by_role("region", name="Semifinals")
        cut = view(live_server, tid)["rounds"][-1]
        for table in cut["tables"]:
            expect(semis.locator(f'li[data-table="{table["table"]}"] .t-names')).to_have_text(
                " vs ".join(table["names"])
            )
        top4 = [s["name"] for s in view(live_server, tid)["standings"][:4]]
        assert sorted(n for t in cut["tables"] for n in t["names"]) == sorted(top4)  # seeded from the standings

        with tab.expect_download() as download_info:
            tab.get_by_role("button", name="Standings (CSV)").click()
        assert download_info.value.suggested_filename == f"{tid}-standings.csv"
        exported = Path(download_info.value.path()).read_bytes().decode("utf-8")
        assert exported == live_server.api.get(f"/v1/tournaments/{tid}/standings.csv").text
        with tab.expect_download() as download_info:
            tab.get_by_role("button", name="Results (CSV)").click()
        assert Path(download_info.value.path()).read_bytes().decode("utf-8").count("\n") >= 12  # 12 Swiss matches
        tab.locator("#t-bracket").scroll_into_view_if_needed()
        shoot(tab, screenshots / "tournament-bracket.png")


def test_the_games_list_links_a_tournaments_games_to_its_page(browser: Any, live_server: LiveServer) -> None:
    tid = "Page-List"
    event(live_server, tid)
    paired = post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 9})
    live_server.wait_listed({g for t in paired["tables"] for g in t["games"]})
    scorekeeper = live_server.token("scorekeeper")
    with device(browser, DESKTOP) as tab:
        open_page(tab, live_server, f"/?event={tid}", scorekeeper)
        links = tab.locator("#games-table td.event a")
        expect(links).to_have_count(4)
        expect(links.first).to_have_attribute("href", f"/tournaments/{tid}")
        links.first.click()
        expect(tab.locator("#t-title")).to_have_text(f"{tid} Open")
        expect(tab.locator("#t-grid tbody tr")).to_have_count(4)


@pytest.mark.parametrize("page_path", ["", "/public", "/floor"])
def test_the_pages_are_served_under_the_csp(browser: Any, live_server: LiveServer, page_path: str) -> None:
    """The three addresses serve the one page with its headers; its files load from this server
    only (the styles too) and nothing breaks the Content-Security-Policy."""
    tid = "Page-CSP"
    if live_server.api.get(f"/v1/tournaments/{tid}").status_code == 404:
        event(live_server, tid)
    response = live_server.api.get(f"/tournaments/{tid}{page_path}")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["referrer-policy"] == "no-referrer"
    loaded: list[str] = []
    violations: list[str] = []
    with device(browser, DESKTOP) as tab:
        tab.on("response", lambda r: loaded.append(r.url))
        tab.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        open_page(tab, live_server, f"/tournaments/{tid}{page_path}", live_server.token("judge"))
        expect(tab.locator("#t-title")).to_have_text(f"{tid} Open")
    # The page's style sheets (tournament.css among them) come as one content-named file.
    assert any(re.fullmatch(rf"{live_server.url}/static/page\.[0-9a-f]{{12}}\.css", u) for u in loaded), loaded
    assert all(u.startswith(live_server.url) for u in loaded), loaded
    assert violations == []
