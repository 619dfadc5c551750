"""The table's first screen on a phone (issue 30; docs/web.md, Reporting), in a real headless
Chromium at 390x844 with touch: every total on the first screen, the taps a report takes counted
("I lose 3 life" in at most 2, "5 commander damage from X" in at most 3), taps of one kind grouped
into one report, a report on an opponent that waits for them, the quick undo, and one test for
each of the page bugs 3 to 7 of issue 30 (each failed before its fix):

- 3: the rad trigger's form has as many card fields as the server mills, and an unnamed option;
- 4: a card the catalog doesn't know is named with its type;
- 5: choice forms offer only what the choice needs, and abilities by their text;
- 6: a refusal is shown beside the control that sent the report;
- 7: offline, the totals show where this device's unsent taps take them.
"""

from __future__ import annotations

import re
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import PHONE, LiveServer, device
from tests.browser.test_table_page import open_as, player_token, shoot, stored_events

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

ATRAXA = "Atraxa, Grand Unifier"
EZURI = "Ezuri, Stalker of Spheres"


def phone(browser: Any) -> AbstractContextManager[Any]:
    """A phone at the table: 390x844, touch, its own storage; uncaught errors fail the test."""
    return device(browser, PHONE, touch=True)


class Taps:
    """Taps as a person makes them, counted."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Any) -> None:
        target.tap()
        self.count += 1


def two_player(event: str, **extra: Any) -> dict[str, Any]:
    return {
        "variant": "two_player",
        "tournament": {"event": event, "round": 1, "table": 1},
        "turn": {"number": 2, "active_player": "P1", "step": "precombat_main"},
        "players": [
            {"id": "P1", "name": "Alice", "library_size": 40},
            {"id": "P2", "name": "Bob", "library_size": 40},
        ],
        **extra,
    }


def pod(event: str) -> dict[str, Any]:
    return {
        "variant": "commander",
        "tournament": {"event": event, "round": 1, "table": 1},
        "turn": {"number": 3, "active_player": "P2", "step": "precombat_main"},
        "players": [
            {"id": "P1", "name": "Ann", "commanders": [ATRAXA], "library_size": 80},
            {"id": "P2", "name": "Ben", "commanders": [EZURI], "library_size": 80},
            {"id": "P3", "name": "Cy", "commanders": ["Grizzly Bears"], "library_size": 80},
            {"id": "P4", "name": "Dee", "commanders": ["Ornithopter"], "library_size": 80},
        ],
        "battlefield": [{"id": "ezuri", "card": EZURI, "controller": "P2"}],
    }


def tile(tab: Any, player: str) -> Any:
    return tab.locator(f'#report .tally .tile[data-player="{player}"]')


def events_of(server: LiveServer, game_id: str, after: int, kind: str) -> list[dict[str, Any]]:
    return [e for e in stored_events(server, game_id, after) if e["type"] == kind]


def test_every_total_is_on_the_first_screen_and_the_taps_are_counted(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    game_id = live_server.create_game(pod("Taps-Pod"))
    head = live_server.state(game_id)["version"]
    with phone(browser) as ann:
        open_as(ann, live_server, game_id, player_token(live_server, game_id, "P1"))
        expect(tile(ann, "P4")).to_be_visible()
        # Every player's total on the first screen, without scrolling; Ann's own first.
        assert ann.evaluate("window.scrollY") == 0
        tiles = ann.locator("#report .tally .tile")
        expect(tiles).to_have_count(4)
        expect(tiles.first).to_have_attribute("data-player", "P1")
        for i in range(4):
            box = tiles.nth(i).bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
            expect(tiles.nth(i).locator('[data-field="life"]')).to_have_text("40")
        assert ann.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        shoot(ann, screenshots / "table-phone.png")

        # "I lose 3 life": two taps.
        taps = Taps()
        taps(ann.get_by_role("button", name="Lose life: how much? (Ann)"))
        pad = ann.get_by_role("group", name="Lose how much life? (Ann)")
        expect(pad).to_be_visible()
        shoot(ann, screenshots / "table-pad-phone.png")
        taps(pad.get_by_role("button", name="Lose 3 life", exact=True))
        expect(tile(ann, "P1").locator('[data-field="life"]')).to_have_text("37")
        assert taps.count <= 2
        lost = events_of(live_server, game_id, head, "LifeLost")
        assert [(e["data"]["player"], e["data"]["amount"]) for e in lost] == [("P1", 3)]

        # "5 commander damage from Ezuri": two taps from the first screen (at most three).
        taps = Taps()
        grid = ann.get_by_role("group", name="Commander damage to Ann")
        taps(grid.get_by_role("button", name=re.compile(rf"^Commander damage from {re.escape(EZURI)} \(Ben\) to Ann")))
        taps(ann.get_by_role("button", name=f"5 commander damage from {EZURI} to Ann", exact=True))
        expect(tile(ann, "P1").locator('[data-field="life"]')).to_have_text("32")
        assert taps.count <= 3
        damage = events_of(live_server, game_id, head, "DamageDealt")
        assert [(e["data"]["source"], e["data"]["amount"], e["data"]["combat"]) for e in damage] == [("ezuri", 5, True)]
    state = live_server.state(game_id)["state"]
    assert state["players"]["P1"]["commander_damage"] == {f"P2:{EZURI}": 5}


def test_taps_of_one_kind_in_a_row_are_one_report(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(two_player("Taps-Grouped"))
    head = live_server.state(game_id)["version"]
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        lose = alice.get_by_role("button", name="Lose 1 life", exact=True)
        for _ in range(3):
            lose.tap()
        expect(tile(alice, "P1").locator('[data-field="life"]')).to_have_text("17")
        # Another kind closes the group: a gain after losses is a report of its own.
        lose.tap()
        alice.get_by_role("button", name="Gain 1 life", exact=True).tap()
        expect(tile(alice, "P1").locator('[data-field="life"]')).to_have_text("17")
        expect(alice.locator("#queue-status")).to_have_text("All reports sent.")
    changes = [(e["type"], e["data"]["amount"]) for e in stored_events(live_server, game_id, head)]
    assert changes == [("LifeLost", 3), ("LifeLost", 1), ("LifeGained", 1)]


def test_a_player_reports_on_an_opponent_and_it_waits_for_them(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(two_player("Taps-Opponent"))
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        tile(alice, "P2").tap()
        pad = alice.get_by_role("region", name="Quick report: Bob")
        expect(pad).to_contain_text("waits for Bob to acknowledge it")
        pad.get_by_role("button", name="Deal damage to Bob: how much?").tap()
        pad.get_by_role("button", name="Deal 3 damage to Bob", exact=True).tap()
        expect(tile(alice, "P2").locator('[data-field="life"]')).to_have_text("17")
        # A player may not report an opponent's life loss (only damage, counters): not offered.
        expect(pad.get_by_role("button", name="Lose 1 life")).to_have_count(0)
    [report] = live_server.state(game_id)["state"]["unacknowledged"]
    assert report["reporter"] == "P1" and report["players"] == ["P2"]


def test_a_quick_undo_takes_back_ones_own_last_report(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(two_player("Taps-Undo"))
    with phone(browser) as alice:
        alice.clock.install()
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        life = tile(alice, "P1").locator('[data-field="life"]')
        bar = alice.get_by_role("region", name="Undo your last report")
        lose = alice.get_by_role("button", name="Lose 1 life", exact=True)
        lose.tap()
        # Before it is sent, an undo only drops the taps: nothing reaches the server.
        expect(bar).to_contain_text("Sending in a moment: Alice loses 1 life.")
        bar.get_by_role("button", name="Undo").tap()
        expect(bar).to_be_hidden()
        expect(alice.locator("#report-status")).to_have_text("Not sent: Alice loses 1 life.")
        lose.tap()
        lose.tap()
        expect(bar).to_contain_text("Recorded: Alice loses 2 life.", timeout=10000)
        expect(life).to_have_text("18")
        bar.get_by_role("button", name="Undo “Alice loses 2 life”").tap()
        expect(life).to_have_text("20")
        expect(bar).to_be_hidden()
        expect(alice.locator("#report-status")).to_have_text("Undone: Alice loses 2 life.")

        # Someone else acts after my report: its undo goes.
        alice.get_by_role("button", name="Gain 1 life", exact=True).tap()
        expect(bar).to_contain_text("Recorded: Alice gains 1 life.", timeout=10000)
        live_server.act(game_id, {"type": "gain_life", "player": "P2", "amount": 1})
        expect(bar).to_be_hidden()

        # And after 30 seconds it goes by itself.
        alice.get_by_role("button", name="Gain 1 life", exact=True).tap()
        expect(bar).to_contain_text("Recorded: Alice gains 1 life.", timeout=10000)
        alice.clock.fast_forward("00:31")
        expect(bar).to_be_hidden()
    reverted = events_of(live_server, game_id, 0, "ActionsReverted")
    assert len(reverted) == 1 and reverted[0]["actor"]["role"] == "player"
    assert live_server.state(game_id)["state"]["players"]["P1"]["life"] == 22


def rad_game(event: str) -> dict[str, Any]:
    """Alice has 3 rad counters and an unknown library; her precombat main phase is next."""
    body = two_player(event)
    body["turn"] = {"number": 2, "active_player": "P1", "step": "draw"}
    body["players"][0]["counters"] = {"rad": 3}
    return body


def test_bug_3_the_rad_trigger_asks_for_as_many_cards_as_it_mills(browser: Any, live_server: LiveServer) -> None:
    unnamed = live_server.create_game(rad_game("Bug3-Unnamed"))
    named = live_server.create_game(rad_game("Bug3-Named"))
    for game_id in (unnamed, named):
        live_server.act(game_id, {"type": "advance"})  # to the precombat main phase: the trigger (CR 728.1)
        [top] = live_server.state(game_id)["state"]["stack"]
        assert "cards" in top["needs"]
    with phone(browser) as alice:
        # Not named: one tap says how many of the three were nonland.
        open_as(alice, live_server, unnamed, player_token(live_server, unnamed, "P1"))
        form = alice.get_by_role("form", name="Resolve the top of the stack")
        count = form.get_by_role("group", name="How many of the 3 cards Alice milled were nonland")
        expect(count.get_by_role("button")).to_have_text(["0", "1", "2", "3"])
        count.get_by_role("button", name="1 nonland: resolve").tap()
        expect(alice.get_by_role("form", name="Resolve the top of the stack")).to_have_count(0)
        expect(tile(alice, "P1").locator('[data-field="life"]')).to_have_text("19")
    with phone(browser) as alice:
        # Named: three card fields, not one (the server refused one: "must name exactly 3").
        open_as(alice, live_server, named, player_token(live_server, named, "P1"))
        form = alice.get_by_role("form", name="Resolve the top of the stack")
        form.get_by_text("Name the cards instead").tap()
        fields = form.get_by_role("textbox", name=re.compile(r"^Card \d$"))
        expect(fields).to_have_count(3)
        for i, name in enumerate(["Forest", "Island", "Sheoldred, the Apocalypse"]):
            fields.nth(i).fill(name)
        # The catalog doesn't know Sheoldred: its field asks for the type (bug 4), a creature.
        third = form.locator('[data-picker$=".cards.2"]')
        expect(third).to_contain_text("Not in the catalog: choose its type.")
        third.get_by_text("Creature", exact=True).tap()
        form.get_by_role("button", name="Resolve with these cards").tap()
        expect(alice.get_by_role("form", name="Resolve the top of the stack")).to_have_count(0)
        expect(alice.locator("#report-status")).to_contain_text("Recorded")
    after = live_server.state(unnamed)["state"]["players"]["P1"]
    assert (after["life"], after["counters"].get("rad", 0), after["graveyard_unnamed"]) == (19, 2, 3)
    after = live_server.state(named)["state"]["players"]["P1"]
    assert [(c["name"], c["type_line"]) for c in after["graveyard"]] == [
        ("Forest", "Basic Land — Forest"),
        ("Island", "Basic Land — Island"),
        ("Sheoldred, the Apocalypse", "Creature"),
    ]
    assert (after["life"], after["counters"]["rad"]) == (19, 2)  # one nonland card (CR 728.1)


def test_a_mill_from_an_unknown_library_asks_beside_its_button(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(two_player("Mill-Unknown"))
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        mine = alice.get_by_role("region", name="Alice", exact=True)
        mine.locator("details.more > summary").tap()
        mine.get_by_role("spinbutton", name="Cards").fill("2")
        mine.get_by_role("button", name="Alice mills that many cards").tap()
        # The server needs the cards or how many were nonland: asked in Alice's panel, one tap.
        count = mine.get_by_role("group", name="How many of the 2 cards Alice milled were nonland")
        count.get_by_role("button", name="1 nonland: record the mill").tap()
        expect(alice.locator("#report-status")).to_contain_text("Recorded: Mill 2 (Alice), 1 nonland")
    [milled] = events_of(live_server, game_id, 0, "CardsMilled")
    assert (milled["data"]["nonland_count"], milled["data"]["unnamed_count"]) == (1, 2)
    assert live_server.state(game_id)["state"]["players"]["P1"]["graveyard_unnamed"] == 2


def test_bug_4_a_card_the_catalog_does_not_know_is_named_with_its_type(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    game_id = live_server.create_game(two_player("Bug4-Unknown-Card"))
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        mine = alice.get_by_role("region", name="Alice", exact=True)
        mine.locator("details.more > summary").tap()
        mine.get_by_role("textbox", name="Card", exact=True).fill("Kenrith, the Returned King")
        picker = mine.locator('[data-picker="p.P1.cast.card"]')
        expect(picker).to_contain_text("Not in the catalog: choose its type.")
        picker.get_by_text("Creature", exact=True).tap()
        picker.get_by_role("textbox", name=re.compile("whole type line")).fill("Legendary Creature — Human Noble")
        picker.scroll_into_view_if_needed()
        shoot(alice, screenshots / "card-type-phone.png")
        mine.get_by_role("button", name="The card enters the battlefield under Alice's control").tap()
        expect(alice.locator("#report li.report-perm[data-permanent]")).to_contain_text("Kenrith, the Returned King")
    [perm] = live_server.state(game_id)["state"]["battlefield"].values()
    assert perm["card"]["type_line"] == "Legendary Creature — Human Noble"


def test_bug_5_choice_forms_offer_only_what_the_choice_needs(browser: Any, live_server: LiveServer) -> None:
    body = two_player("Bug5-Filters")
    body["battlefield"] = [
        {"id": "throne", "card": "Throne of Geth", "controller": "P1"},
        {"id": "thopter", "card": "Ornithopter", "controller": "P1"},
        {"id": "bears", "card": "Grizzly Bears", "controller": "P1"},
    ]
    body["players"][1]["counters"] = {"poison": 1}
    game_id = live_server.create_game(body)
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        # Throne of Geth: the ability by its text; "Sacrifice an artifact" offers the artifacts only.
        activate = alice.locator('#report li[data-permanent="throne"] details.activate')
        activate.locator("summary").tap()
        expect(activate.get_by_role("radio", name="{T}, Sacrifice an artifact: Proliferate.")).to_be_checked()
        expect(activate).not_to_contain_text("0 is the first")
        sacrifice = activate.get_by_role("group", name="Sacrifice an artifact as a cost")
        expect(sacrifice.get_by_role("checkbox")).to_have_count(2)
        expect(sacrifice.get_by_role("checkbox", name="Grizzly Bears (bears)")).to_have_count(0)
        sacrifice.get_by_role("checkbox", name="Ornithopter (thopter)").check()
        activate.get_by_role("button", name="Activate Throne of Geth (throne)").tap()
        form = alice.get_by_role("form", name="Resolve the top of the stack")
        form.get_by_role("checkbox", name=re.compile("^Bob")).check()
        form.get_by_role("button", name="Proliferate and resolve").tap()
        expect(alice.get_by_role("form", name="Resolve the top of the stack")).to_have_count(0)

        # Mirelurk Queen's "target player gets two rad counters": players, never permanents.
        mine = alice.get_by_role("region", name="Alice", exact=True)
        mine.locator("details.more > summary").tap()
        mine.get_by_role("textbox", name="Card", exact=True).fill("Mirelurk Queen")
        mine.get_by_role("button", name="The card enters the battlefield under Alice's control").tap()
        form = alice.get_by_role("form", name="Resolve the top of the stack")
        targets = form.get_by_role("group", name="Choose the target player")
        expect(targets.get_by_role("radio")).to_have_count(2)
        expect(targets.get_by_role("radio", name=re.compile(r"\("))).to_have_count(0)  # no "Name (id)" permanent
        targets.get_by_role("radio", name="Bob").check()
        form.get_by_role("button", name="Resolve with these choices").tap()
        expect(alice.get_by_role("form", name="Resolve the top of the stack")).to_have_count(0)
    state = live_server.state(game_id)["state"]
    assert state["players"]["P2"]["counters"] == {"poison": 2, "rad": 2}
    assert "thopter" not in state["battlefield"] and "bears" in state["battlefield"]


def test_bug_6_a_refusal_is_shown_beside_the_control_that_sent_it(browser: Any, live_server: LiveServer) -> None:
    body = two_player("Bug6-Refusals")
    body["battlefield"] = [{"id": "throne", "card": "Throne of Geth", "controller": "P1"}]
    game_id = live_server.create_game(body)
    head = live_server.state(game_id)["version"]
    with phone(browser) as tab:
        open_as(tab, live_server, game_id, live_server.token("scorekeeper"))
        bob = tab.get_by_role("region", name="Bob", exact=True)
        bob.locator("details.more > summary").tap()
        bob.get_by_role("textbox", name="Counter kind").fill("poison")
        bob.get_by_role("spinbutton", name="How many").fill("5")
        remove = bob.get_by_role("button", name="Remove that many counters of that kind from Bob")
        remove.tap()
        refusal = bob.locator(".refusal")
        expect(refusal).to_contain_text("not_enough_counters")
        # Beside the button: just under its row, on the same screen.
        button_box, refusal_box = remove.bounding_box(), refusal.bounding_box()
        assert button_box is not None and refusal_box is not None
        assert 0 <= refusal_box["y"] - (button_box["y"] + button_box["height"]) < 80
        expect(tab.locator("#report-status")).to_contain_text("not_enough_counters")  # and the status line

        # Throne of Geth without its artifact: the refusal goes beside the Activate button.
        activate = tab.locator('#report li[data-permanent="throne"] details.activate')
        activate.locator("summary").tap()
        go = activate.get_by_role("button", name="Activate Throne of Geth (throne)")
        go.tap()
        expect(refusal).to_have_count(0)  # the earlier refusal went with the new report
        near = tab.locator('#report li[data-permanent="throne"] .refusal')
        expect(near).to_contain_text("sacrifices 1 artifact")
    assert live_server.state(game_id)["version"] == head


def test_bug_7_offline_taps_show_the_pending_total(browser: Any, live_server: LiveServer, screenshots: Path) -> None:
    game_id = live_server.create_game(two_player("Bug7-Pending"))
    with phone(browser) as alice:
        open_as(alice, live_server, game_id, player_token(live_server, game_id, "P1"))
        expect(alice.locator("#live-badge")).to_have_text("Live")
        me = tile(alice, "P1")
        alice.context.set_offline(True)
        for _ in range(3):
            alice.get_by_role("button", name="Lose 1 life", exact=True).tap()
        expect(me.locator('[data-field="life"]')).to_have_text("20")
        expect(me.locator('[data-field="pending-life"]')).to_have_text("→ 17 (pending)")
        expect(alice.locator("#queue-status")).to_contain_text("Offline: 1 report waiting", timeout=5000)
        expect(
            alice.get_by_role("region", name="Alice", exact=True).locator('[data-field="pending-life"]')
        ).to_have_text("→ 17 (pending)")
        time.sleep(0.5)
        shoot(alice, screenshots / "pending-phone.png")
        alice.context.set_offline(False)
        expect(alice.locator("#queue-status")).to_have_text("All reports sent.", timeout=10000)
        expect(me.locator('[data-field="life"]')).to_have_text("17")
        expect(me.locator('[data-field="pending-life"]')).to_have_count(0)
