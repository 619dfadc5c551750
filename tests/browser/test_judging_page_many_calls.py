"""The judging page's count of answered calls with more of them than the state carries (issue
33, finding 13): the state holds only the latest ``CLOSED_CALLS_IN_STATE`` closed calls, so the
page counts them by ``closed_call_count``, shows the latest, and says how many earlier ones are
not shown. The count grows by one when the judge rules on the open call from the page."""

from __future__ import annotations

from typing import Any

import pytest

from domain.judge_call_pages import CLOSED_CALLS_IN_STATE
from tests.browser.support import DESKTOP, LiveServer
from tests.browser.test_judging_page import bearer, post
from tests.browser.test_table_page import device, open_as, player_token, table_game

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

ANSWERED = CLOSED_CALLS_IN_STATE + 5


def test_the_answered_count_covers_calls_the_state_leaves_out(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Judging-Many", 3))
    p1 = player_token(live_server, game_id, "P1")
    judge = live_server.token("judge", "Jane (L2)")
    calls = f"/v1/games/{game_id}/judge-calls"
    for n in range(1, ANSWERED + 1):
        post(live_server, calls, {"question": f"question {n}"}, p1)
        post(live_server, f"{calls}/call-{n}/ruling", {"ruling": f"ruling {n}"}, judge)
    post(live_server, calls, {"question": "the last one"}, p1)
    judging = live_server.api.get(f"/v1/games/{game_id}", headers=bearer(judge)).json()["state"]["judging"]
    assert judging["closed_call_count"] == ANSWERED
    assert sum(1 for c in judging["calls"] if not c["open"]) == CLOSED_CALLS_IN_STATE

    with device(browser, DESKTOP) as jane:
        open_as(jane, live_server, game_id, judge)
        expect(jane.locator("#calls-answered-count")).to_have_text(str(ANSWERED))
        expect(jane.locator("#calls-answered li[data-call]")).to_have_count(CLOSED_CALLS_IN_STATE)
        expect(jane.locator(f'#calls-answered li[data-call="call-{ANSWERED}"]')).to_contain_text(f"ruling {ANSWERED}")
        expect(jane.locator("#calls-answered li.hint")).to_have_text(
            f"{ANSWERED - CLOSED_CALLS_IN_STATE} earlier answered calls are in the game's record, not shown here."
        )
        last = f"call-{ANSWERED + 1}"
        form = jane.locator("#calls-open").get_by_role("form", name=f"Ruling on {last}")
        form.get_by_role("textbox", name=f"Ruling on {last}").fill("no")
        form.get_by_role("button", name="Rule", exact=True).click()
        expect(jane.locator("#calls-status")).to_have_text(f"Ruled on {last}; the call is closed.")
        expect(jane.locator("#calls-answered-count")).to_have_text(str(ANSWERED + 1))
        expect(jane.locator("#calls-answered li[data-call]")).to_have_count(CLOSED_CALLS_IN_STATE)
