"""Judging on the game page in a real browser (docs/web.md, Judging; issue 14): the reports that
wait for the affected player's acknowledgement, a dispute that calls a judge and the ruling on it,
a Game Loss given through the penalty form, time extensions, and the lot at phone width.

Every check goes through the page and is compared with the API's state afterwards.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from domain.commands.judging import INFRACTIONS
from tests.browser.support import DESKTOP, LiveServer
from tests.browser.test_table_page import device, open_as, player_token, shoot, stored_events, table_game

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 375, "height": 667}
NO_OVERFLOW = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def post(server: LiveServer, path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    response = server.api.post(path, json=body, headers=bearer(token))
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def shock_p2(server: LiveServer, game_id: str, p1: str, amount: int = 3) -> dict[str, Any]:
    """P1's token reports damage to P2: it stands, and waits for P2's acknowledgement."""
    answer = post(
        server,
        f"/v1/games/{game_id}/actions",
        {"type": "damage", "target": {"player": "P2"}, "amount": amount, "source": "Shock"},
        p1,
    )
    [report] = answer["state"]["unacknowledged"]
    assert report["reporter"] == "P1" and report["players"] == ["P2"]
    return dict(report)


def judging(server: LiveServer, game_id: str) -> dict[str, Any]:
    state: dict[str, Any] = server.state(game_id)["state"]
    return state


def test_the_affected_player_acknowledges_an_opponents_report(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Judging-Ack", 1))
    p1, p2 = player_token(live_server, game_id, "P1"), player_token(live_server, game_id, "P2")
    report = shock_p2(live_server, game_id, p1)
    with device(browser, DESKTOP) as alice, device(browser, DESKTOP) as bob:
        open_as(alice, live_server, game_id, p1)
        open_as(bob, live_server, game_id, p2)
        # Bob's page: what was reported, by whom, for whom, and his two answers.
        item = bob.locator(f'#unacknowledged li[data-report="{report["report"]}"]')
        expect(item.locator(".unack-summary")).to_have_text(report["summary"])
        expect(item.locator(".unack-meta")).to_have_text(
            f"Reported by Alice (P1), for Bob (P2) to acknowledge ({report['report']})."
        )
        expect(item.get_by_role("button", name="Acknowledge", exact=True)).to_be_visible()
        expect(item.get_by_role("button", name="Dispute", exact=True)).to_be_visible()
        # Alice's page: the same report, waiting, with nothing for her to press.
        mine = alice.locator(f'#unacknowledged li[data-report="{report["report"]}"]')
        expect(mine).to_contain_text("Waiting for the other side.")
        expect(mine.get_by_role("button")).to_have_count(0)
        expect(mine.get_by_role("textbox")).to_have_count(0)

        item.get_by_role("button", name="Acknowledge", exact=True).click()
        expect(bob.locator("#unack-status")).to_have_text(f"Acknowledged {report['report']}.")
        expect(bob.locator("#unacknowledged li[data-report]")).to_have_count(0)
        # Alice's page follows the game live: the report no longer waits.
        expect(alice.locator("#unacknowledged li[data-report]")).to_have_count(0)
    assert judging(live_server, game_id)["unacknowledged"] == []
    last = stored_events(live_server, game_id, 0)[-1]
    assert last["data"] == {"report": report["report"], "by": "P2"}
    assert last["actor"]["role"] == "player"


def test_a_refusal_is_shown_as_the_server_says_it_and_the_page_catches_up(
    browser: Any, live_server: LiveServer
) -> None:
    game_id = live_server.create_game(table_game("Judging-Refused", 7))
    p1, p2 = player_token(live_server, game_id, "P1"), player_token(live_server, game_id, "P2")
    report = shock_p2(live_server, game_id, p1)["report"]
    with device(browser, DESKTOP) as bob:
        bob.route("**/events/stream*", lambda route: route.abort("internetdisconnected"))  # hears of nothing
        open_as(bob, live_server, game_id, p2)
        item = bob.locator(f'#unacknowledged li[data-report="{report}"]')
        expect(item).to_be_visible()
        # A judge settles the report meanwhile, from another device.
        post(live_server, f"/v1/games/{game_id}/acknowledge", {"report": report}, live_server.token("judge"))
        item.get_by_role("button", name="Acknowledge", exact=True).click()
        status = bob.locator("#unack-status")
        expect(status).to_contain_text(f"there is no unacknowledged report '{report}'")
        expect(status).to_contain_text("(404 Not Found, unknown_report)")
        expect(status).to_have_class(re.compile(r"\berror-text\b"))
        expect(item).to_have_count(0)  # the page fetched what it had missed
        expect(status).to_contain_text("unknown_report")


def test_a_dispute_needs_a_reason_calls_a_judge_who_rules_on_it(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Judging-Dispute", 2))
    p1, p2 = player_token(live_server, game_id, "P1"), player_token(live_server, game_id, "P2")
    report = shock_p2(live_server, game_id, p1, amount=5)["report"]
    judge = live_server.token("judge", "Jane (L2)")
    with device(browser, DESKTOP) as bob, device(browser, DESKTOP) as jane:
        open_as(bob, live_server, game_id, p2)
        sent: list[str] = []
        bob.on("request", lambda r: sent.append(r.url) if r.url.endswith("/dispute") else None)
        item = bob.locator(f'#unacknowledged li[data-report="{report}"]')
        head = live_server.state(game_id)["version"]

        # An empty reason is refused on the page: nothing is sent.
        item.get_by_role("button", name="Dispute", exact=True).click()
        expect(bob.locator("#unack-status")).to_contain_text("A dispute needs a reason")
        expect(bob.locator("#unack-status")).to_have_class(re.compile(r"\berror-text\b"))
        reason = item.get_by_role("textbox", name="What is wrong with it (to dispute it)")
        expect(reason).to_be_focused()
        assert sent == [] and live_server.state(game_id)["version"] == head

        reason.fill("Alice never cast a Shock")
        item.get_by_role("button", name="Dispute", exact=True).click()
        expect(bob.locator("#unack-status")).to_have_text(f"Disputed {report}: judge call call-1 is open.")
        assert len(sent) == 1
        expect(item).to_contain_text("Disputed: judge call call-1.")
        expect(item.get_by_role("button", name="Dispute", exact=True)).to_have_count(0)
        assert judging(live_server, game_id)["judging"]["open_calls"] == ["call-1"]

        # The judge's page: the open call, with the dispute, and a ruling form for it.
        open_as(jane, live_server, game_id, judge)
        call = jane.locator("#calls-open").get_by_role("form", name="Ruling on call-1")
        expect(call).to_contain_text(f"called by Bob (P2), table 2, disputing {report}")
        expect(call).to_contain_text("Alice never cast a Shock")
        # A judge acknowledges a report, but does not dispute one.
        judged = jane.locator(f'#unacknowledged li[data-report="{report}"]')
        expect(judged.get_by_role("button", name="Acknowledge", exact=True)).to_be_visible()
        expect(judged.get_by_role("button", name="Dispute", exact=True)).to_have_count(0)

        call.get_by_role("button", name="Rule", exact=True).click()
        expect(jane.locator("#calls-status")).to_contain_text("The ruling on call-1 is empty")
        call.get_by_role("textbox", name="Ruling on call-1").fill("Shock was cast: the damage stands")
        call.get_by_role("button", name="Rule", exact=True).click()
        expect(jane.locator("#calls-status")).to_have_text("Ruled on call-1; the call is closed.")
        expect(jane.locator("#calls-open")).to_have_text("No open calls.")
        expect(jane.locator("#calls-answered-count")).to_have_text("1")
        expect(jane.locator('#calls-answered li[data-call="call-1"]')).to_contain_text("Ruling: Shock was cast")

        # The ruling closes the call; the judge then settles the report for everyone.
        judged.get_by_role("button", name="Acknowledge", exact=True).click()
        expect(jane.locator("#unacknowledged li[data-report]")).to_have_count(0)
        expect(bob.locator("#unacknowledged li[data-report]")).to_have_count(0)
    state = judging(live_server, game_id)
    assert state["judging"]["open_calls"] == []
    [answered] = state["judging"]["calls"]
    assert answered["open"] is False and answered["ruling"] == "Shock was cast: the damage stands"
    assert answered["report"] == report
    assert state["unacknowledged"] == []


def test_the_infractions_offered_are_the_servers(page: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Judging-Sections", 3))
    open_as(page, live_server, game_id, live_server.token("judge"))
    options = page.locator("#penalty-section option").evaluate_all("os => os.map(o => [o.value, o.textContent])")
    assert options == [[section, f"{section} {name}"] for section, name in INFRACTIONS.items()]


def test_a_game_loss_through_the_penalty_form_ends_the_game(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Judging-Penalty", 4))
    with device(browser, DESKTOP) as jane:
        open_as(jane, live_server, game_id, live_server.token("judge", "Jane (L2)"))
        head = live_server.state(game_id)["version"]
        form = jane.locator("#penalty-form")
        form.get_by_role("combobox", name="Penalised player").select_option(label="Alice (P1)")
        form.get_by_role("combobox", name="Infraction").select_option(label="2.3 Hidden Card Error")
        form.get_by_role("combobox", name="Penalty", exact=True).select_option("Game Loss")
        form.get_by_role("textbox", name="What happened (on the record, optional)").fill("drew an extra card")
        form.get_by_role("button", name="Give the penalty").click()
        # A penalty that ends the game asks for a second press first.
        confirm = form.get_by_role("button", name="Confirm: Game Loss for Alice (P1)")
        expect(confirm).to_be_visible()
        expect(jane.locator("#penalty-status")).to_contain_text("ends the game")
        assert live_server.state(game_id)["version"] == head
        confirm.click()
        expect(jane.locator("#penalty-status")).to_have_text(
            "Penalty given: Game Loss for Alice (P1) (IPG 2.3). The game is over."
        )
        given = jane.locator("#penalties li")
        expect(given).to_have_count(1)
        expect(given).to_have_text("Alice (P1): Game Loss, IPG 2.3 Hidden Card Error: drew an extra card")
        expect(jane.locator("#turn-info .status-finished")).to_have_text("Finished: Bob (P2) won")
    state = judging(live_server, game_id)
    assert state["status"] == "finished" and state["result"] == {"winners": ["P2"], "draw": False}
    assert state["players"]["P1"]["lost"] is True
    lost = [e for e in stored_events(live_server, game_id, head) if e["type"] == "PlayerLost"]
    assert [(e["data"]["player"], e["data"]["reason"]) for e in lost] == [("P1", "penalty")]
    [penalty] = state["judging"]["penalties"]
    assert (penalty["section"], penalty["penalty"], penalty["reason"]) == ("2.3", "Game Loss", "drew an extra card")


def test_time_extensions_add_up(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(table_game("Judging-Time", 5))
    with device(browser, DESKTOP) as jane:
        open_as(jane, live_server, game_id, live_server.token("judge"))
        form = jane.locator("#time-form")
        expect(jane.locator("#extra-minutes")).to_have_text("No extra time.")
        head = live_server.state(game_id)["version"]
        form.get_by_role("button", name="Extend the time").click()
        expect(jane.locator("#time-status")).to_have_text("A time extension needs a reason for the record.")
        assert live_server.state(game_id)["version"] == head
        form.get_by_role("spinbutton", name="Minutes (1-60)").fill("3")
        form.get_by_role("textbox", name="Why the extra time (on the record)").fill("deck check")
        form.get_by_role("button", name="Extend the time").click()
        expect(jane.locator("#time-status")).to_have_text("Time extended by 3 minutes; 3 extra minutes in all.")
        expect(jane.locator("#extra-minutes")).to_have_text("3 extra minutes in all.")
        form.get_by_role("spinbutton", name="Minutes (1-60)").fill("2")
        form.get_by_role("textbox", name="Why the extra time (on the record)").fill("long ruling")
        form.get_by_role("button", name="Extend the time").click()
        expect(jane.locator("#extra-minutes")).to_have_text("5 extra minutes in all.")
        expect(jane.locator("#extensions li")).to_have_text(["3 minutes: deck check", "2 minutes: long ruling"])
    state = judging(live_server, game_id)
    assert state["judging"]["extra_minutes"] == 5
    assert [(t["minutes"], t["reason"]) for t in state["judging"]["time_extensions"]] == [
        (3, "deck check"),
        (2, "long ruling"),
    ]


def test_at_phone_width_nothing_overflows(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    game_id = live_server.create_game(table_game("Judging-Phone", 6))
    p1, p2 = player_token(live_server, game_id, "P1"), player_token(live_server, game_id, "P2")
    judge = live_server.token("judge", "Jane (L2)")
    shock_p2(live_server, game_id, p1)
    post(
        live_server,
        f"/v1/games/{game_id}/judge-calls",
        {"question": "Does Shock's damage count with a prevention shield up?"},
        p2,
    )
    post(
        live_server,
        f"/v1/games/{game_id}/penalties",
        {
            "player": "P1",
            "section": "2.1",
            "penalty": "Warning",
            "reason": "missed the upkeep trigger",
            "call": "call-1",
        },
        judge,
    )
    post(
        live_server,
        f"/v1/games/{game_id}/time-extensions",
        {"minutes": 4, "reason": "ruling at the table", "call": "call-1"},
        judge,
    )
    with device(browser, SMALL_PHONE) as bob, device(browser, SMALL_PHONE) as jane:
        open_as(bob, live_server, game_id, p2)
        unack = bob.locator("#unacknowledged")
        expect(unack.get_by_role("button", name="Acknowledge", exact=True)).to_be_visible()
        assert bob.evaluate(NO_OVERFLOW)
        box = unack.get_by_role("button", name="Acknowledge", exact=True).bounding_box()
        assert box is not None and box["height"] >= 40  # a finger's width
        shoot(bob, screenshots / "judging-phone.png")

        open_as(jane, live_server, game_id, judge)
        panel = jane.locator("#judge-panel")
        expect(panel.locator("#calls-open").get_by_role("form", name="Ruling on call-1")).to_be_visible()
        expect(panel.locator("#extra-minutes")).to_have_text("4 extra minutes in all.")
        expect(panel.locator("#penalties li")).to_contain_text("Alice (P1): Warning, IPG 2.1 Missed Trigger")
        assert jane.evaluate(NO_OVERFLOW)
        width = jane.evaluate("document.documentElement.clientWidth")
        for selector in ("#judge-panel", "#unacknowledged", "#penalty-form", "#time-form"):
            right = jane.locator(selector).evaluate("el => el.getBoundingClientRect().right")
            assert right <= width, f"{selector} reaches {right} px of {width}"
        controls = ", ".join(
            f"{form} {kind}"
            for form in ("#calls-open", "#penalty-form", "#time-form")
            for kind in ("button", "select", "input")
        )
        for control in panel.locator(controls).all():
            height = control.bounding_box()["height"]
            assert height >= 40, f"{control.evaluate('el => el.outerHTML')} is {height} px high"
        panel.scroll_into_view_if_needed()
        jane.evaluate("document.activeElement && document.activeElement.blur()")
        panel.screenshot(path=str(screenshots / "judging-panel-phone.png"), caret="hide", animations="disabled")

        jane.set_viewport_size(DESKTOP)
        expect(panel).to_be_visible()
        assert jane.evaluate(NO_OVERFLOW)
        panel.evaluate("el => el.scrollIntoView({block: 'start'})")
        shoot(jane, screenshots / "judging.png")
