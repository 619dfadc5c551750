"""A player calls a judge from the game page (issue 38, item 1: an event link calls a judge exactly
as a game link does; docs/web.md, Judging), in a real headless Chromium at 390 px with touch. The
call is made as the token's own player and shows on the judge's panel; a spectator sees no
control, and an empty question sends nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import DESKTOP, PHONE, LiveServer, device
from tests.browser.test_table_page import open_as, player_token, table_game

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser


def _post(server: LiveServer, path: str, body: Any) -> dict[str, Any]:
    response = server.api.post(path, json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _call(tab: Any, question: str) -> None:
    section = tab.get_by_role("region", name="Call a judge")
    section.get_by_role("textbox", name="Your question for the judge").fill(question)
    section.get_by_role("button", name="Call a judge").tap()


def test_a_game_links_player_calls_a_judge(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Call-Game", 1))
    bob = player_token(live_server, game_id, "P2")
    judge = live_server.token("judge", "Jane (L2)")
    with device(browser, PHONE, touch=True) as phone, device(browser, DESKTOP) as desk:
        open_as(phone, live_server, game_id, bob)
        head = live_server.state(game_id)["version"]
        phone.get_by_role("region", name="Call a judge").get_by_role("button", name="Call a judge").tap()
        expect(phone.locator("#call-judge-status")).to_contain_text("Nothing was sent")
        assert live_server.state(game_id)["version"] == head
        _call(phone, "Does Alice's trigger resolve first?")
        expect(phone.locator("#call-judge-status")).to_have_text("Judge call call-1 is open: a judge is on the way.")
        expect(phone.locator('#call-judge-mine li[data-call="call-1"]')).to_contain_text("trigger")
        [call] = live_server.state(game_id)["state"]["judging"]["calls"]
        assert call["called_by"] == "P2" and call["open"] is True

        open_as(desk, live_server, game_id, judge)
        expect(desk.locator("#call-judge")).to_be_hidden()  # a judge rules: the panel is theirs
        expect(desk.locator("#calls-open").get_by_role("form", name="Ruling on call-1")).to_contain_text(
            "Does Alice's trigger resolve first?"
        )
        open_as(desk, live_server, game_id, None)
        expect(desk.locator("#call-judge")).to_be_hidden()  # a spectator calls no judge


def test_an_event_link_calls_a_judge_at_its_own_table(browser: Any, live_server: LiveServer) -> None:
    tid = "Call-Event"
    _post(live_server, "/v1/tournaments", {"id": tid, "name": "Call Cup", "format": "modern", "rounds": 3})
    for name in ("Ann", "Bob", "Cid", "Dee"):
        _post(live_server, f"/v1/tournaments/{tid}/players", {"name": name})
    table = _post(live_server, f"/v1/tournaments/{tid}/rounds", {"seed": 3})["tables"][0]
    player = table["players"][1]
    link = _post(live_server, f"/v1/tournaments/{tid}/players/{player}/link", {})["token"]
    game_id = f"{tid}.r1.t{table['table']}.g1"
    with device(browser, PHONE, touch=True) as phone:
        open_as(phone, live_server, game_id, link)
        _call(phone, "My opponent's deck is 59 cards")
        expect(phone.locator("#call-judge-status")).to_contain_text("is open: a judge is on the way.")
    calls = live_server.state(game_id)["state"]["judging"]["calls"]
    assert [c["question"] for c in calls] == ["My opponent's deck is 59 cards"]
