"""Match results from the players' phones (issue 38; docs/tournaments.md, Players report their
results), in a real headless Chromium at 390x844 with touch: the panel of match-result.js on the
public page opened with each player's event link. Taps counted: a 2-1 is reported in at most 3
taps, the opponent confirms it in 1; a dispute shows on the scorekeeper's page, whose form is
prefilled and settles it with a reason."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import ADMIN_TOKEN, DESKTOP, PHONE, LiveServer, device
from tests.browser.test_tournament_pages import shoot

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser


class Taps:
    """Taps as a person makes them, counted."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Any) -> None:
        target.tap()
        self.count += 1


def phone(browser: Any) -> AbstractContextManager[Any]:
    return device(browser, PHONE, touch=True)


def _post(server: LiveServer, path: str, body: Any) -> dict[str, Any]:
    response = server.api.post(path, json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _event(server: LiveServer, tid: str) -> tuple[str, str, dict[str, str]]:
    _post(server, "/v1/tournaments", {"id": tid, "name": f"Phones {tid}", "format": "Modern", "rounds": 3})
    for name in ("Ann", "Bob", "Cid", "Dee"):
        _post(server, f"/v1/tournaments/{tid}/players", {"name": name})
    rnd = _post(server, f"/v1/tournaments/{tid}/rounds", {"seed": 5})
    a, b = rnd["tables"][0]["players"]
    links = {p: _post(server, f"/v1/tournaments/{tid}/players/{p}/link", {})["url"] for p in (a, b)}
    return a, b, links


def _table(server: LiveServer, tid: str) -> dict[str, Any]:
    response = server.api.get(f"/v1/tournaments/{tid}")
    assert response.status_code == 200, response.text
    table: dict[str, Any] = response.json()["rounds"][0]["tables"][0]
    return table


def test_report_a_2_1_in_3_taps_and_confirm_in_1(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    a, b, links = _event(live_server, "PHONE1")
    with phone(browser) as first, phone(browser) as second:
        first.goto(live_server.url + links[a])
        panel = first.locator("#match-result")
        expect(panel).to_be_visible()
        expect(first.locator("#mr-state")).to_have_text("Not reported yet.")
        taps = Taps()
        taps(first.locator('#mr-body button[data-score="2-1"]'))
        expect(first.locator("#mr-report")).to_have_text("Report 2-1")
        taps(first.locator("#mr-report"))
        expect(first.locator("#mr-state")).to_contain_text("Waiting for")
        assert taps.count <= 3, taps.count
        assert _table(live_server, "PHONE1")["result"] is None  # one player's word is no result

        second.goto(live_server.url + links[b])
        confirm = second.locator("#mr-confirm")
        expect(confirm).to_have_text("Confirm 1-2")  # the opponent's side: one won, two lost
        shoot(second, screenshots / "match-result-confirm-phone.png")
        taps = Taps()
        taps(confirm)
        expect(second.locator("#mr-state")).to_have_text("Result recorded: 1-2.")
        assert taps.count == 1
        assert _table(live_server, "PHONE1")["result"]["wins"] == {a: 2, b: 1}
        # The reporter's phone follows: no button left, the result shown.
        expect(first.locator("#mr-state")).to_have_text("Result recorded: 2-1.", timeout=10_000)
        expect(first.locator("#mr-report")).to_have_count(0)


def test_a_dispute_is_settled_on_the_scorekeepers_page(browser: Any, live_server: LiveServer) -> None:
    a, b, links = _event(live_server, "PHONE2")
    with phone(browser) as first, phone(browser) as second, device(browser, DESKTOP) as desk:
        first.goto(live_server.url + links[a])
        first.locator('#mr-body button[data-score="2-0"]').tap()
        first.locator("#mr-report").tap()
        expect(first.locator("#mr-state")).to_contain_text("Waiting for")
        second.goto(live_server.url + links[b])
        second.locator("#mr-dispute").tap()
        second.locator("#mr-note").fill("I won game 2")
        second.locator("#mr-dispute").tap()
        expect(second.locator("#mr-state")).to_contain_text("Disputed")

        desk.goto(f"{live_server.url}/tournaments/PHONE2#token={ADMIN_TOKEN}")
        waiting = desk.locator('#t-reports li[data-state="disputed"]')
        expect(waiting).to_contain_text("I won game 2")
        waiting.get_by_role("button", name="Settle").click()
        form = desk.locator("#t-result-form")
        expect(form.locator("#t-prefill")).to_contain_text("report")
        expect(form.locator(f"#t-wins-{a}")).to_have_value("2")  # prefilled from the report
        form.locator(f"#t-wins-{b}").fill("1")
        form.locator("#t-reason").fill("judge: game 2 was Bob's")
        form.get_by_role("button", name="Report the result").click()
        expect(desk.locator("#t-result-status")).to_contain_text("Reported the result")
        expect(first.locator("#mr-state")).to_have_text("Result recorded: 2-1.", timeout=10_000)
        assert _table(live_server, "PHONE2")["result"]["wins"] == {a: 2, b: 1}
