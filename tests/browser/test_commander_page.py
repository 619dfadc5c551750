"""The page shows Commander (CR 903) and the designations, and reports them (issues 12 and 30):
the command zone and the commander tax, the pod's commander damage as a matrix, the monarch, and
combat damage from a commander reported from the quick pad's grid until 21 loses the game
(CR 704.6c)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import DESKTOP, PHONE, LiveServer
from tests.browser.test_table_page import device, open_as, player_token, quick, shoot, stored_events

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
ATRAXA = "Atraxa, Grand Unifier"
EZURI = "Ezuri, Stalker of Spheres"


def pod(event: str) -> dict[str, Any]:
    return {
        "variant": "commander",
        "tournament": {"event": event, "round": 1, "table": 1},
        "turn": {"number": 2, "active_player": "P1", "step": "precombat_main"},
        "players": [
            {"id": "P1", "name": "Ann", "commanders": [ATRAXA], "library_size": 60},
            {"id": "P2", "name": "Ben", "commanders": [EZURI], "library_size": 60},
            {"id": "P3", "name": "Cy", "commanders": ["Grizzly Bears"], "library_size": 60},
        ],
    }


@SIZES
def test_the_command_zone_tax_damage_matrix_and_monarch_on_the_page(
    browser: Any, live_server: LiveServer, size: dict[str, int], screenshots: Path
) -> None:
    game_id = live_server.create_game(pod("Pod-Page-" + ("phone" if size is PHONE else "desktop")))
    with device(browser, size) as tab:
        open_as(tab, live_server, game_id, live_server.token("scorekeeper"))
        ann = tab.get_by_role("region", name="Ann", exact=True)
        # The command zone, with the tax of each commander (CR 903.8: 0 before any cast).
        zone = ann.get_by_label("Command zone of Ann")
        expect(zone.locator(".cards li")).to_have_text([ATRAXA])
        expect(zone.locator(f'[data-tax="{ATRAXA}"]')).to_have_text("0")
        ann.get_by_role("button", name=f"Cast {ATRAXA} from the command zone (tax 0)").click()
        expect(tab.locator("#board")).to_have_attribute("data-version", "2")
        tab.get_by_role("button", name="Resolve", exact=False).first.click()
        expect(tab.locator("#players").get_by_label("Command zone of Ann").locator(".cards li")).to_have_count(0)
        expect(
            tab.locator("#players").get_by_label("Command zone of Ann").locator(f'[data-tax="{ATRAXA}"]')
        ).to_have_text("2")
        # The page sends each tap from its queue: wait until the board shows what the resolve
        # did before reading the server's state. Atraxa is on the battlefield and its enters
        # trigger waits on the stack for the revealed cards (CR 603.3); the pod's combat goes on.
        expect(tab.locator("#battlefield")).to_contain_text(ATRAXA)
        expect(tab.locator("#stack")).to_contain_text("reveal the top ten cards")
        atraxa = next(
            pid for pid, p in live_server.state(game_id)["state"]["battlefield"].items() if p["name"] == ATRAXA
        )
        # Ben's tile, then Atraxa's cell in his commander damage grid, then 7 on the number pad.
        ben = quick(tab, "Ben")
        grid = ben.get_by_role("group", name="Commander damage to Ben")
        hit = grid.get_by_role(
            "button", name=re.compile(f"^Commander damage from {re.escape(ATRAXA)} \\(Ann\\) to Ben")
        )

        def seven() -> None:
            hit.click()
            ben.get_by_role("button", name=f"7 commander damage from {ATRAXA} to Ben", exact=True).click()

        for hits in (1, 2):
            seven()
            cell = tab.locator(f'.commander-damage tr[data-player="P2"] td[data-commander="P1:{ATRAXA}"]')
            expect(cell).to_have_text(str(7 * hits))
            expect(hit).to_contain_text(f"{7 * hits}/21")
        # The monarch, from the panel: the board tags Cy and names the monarch.
        tab.get_by_role("region", name="Cy", exact=True).get_by_role("button", name="Make Cy the monarch").click()
        expect(tab.locator('#players [data-player="P3"] [data-designation="monarch"]')).to_have_text("Monarch")
        expect(tab.locator("#players .designations")).to_contain_text("Monarch: Cy")
        if size is PHONE:  # the first screen: the tiles, Ben's pad and his commander damage grid
            tab.locator("#report").evaluate("(el) => el.scrollIntoView()")
        shoot(
            tab, screenshots / ("commander-phone.png" if size is PHONE else "commander.png"), full_page=size is DESKTOP
        )
        seven()  # 21 from one commander: Ben loses (CR 704.6c)
        expect(tab.locator('.commander-damage tr[data-player="P2"] td.lethal')).to_have_text("21")
        expect(tab.locator('#players [data-player="P2"] .tag-lost')).to_contain_text("704.6c")
    damage = [e for e in stored_events(live_server, game_id, 0) if e["type"] == "DamageDealt"]
    assert [(e["data"]["source"], e["data"]["amount"], e["data"]["combat"]) for e in damage] == [(atraxa, 7, True)] * 3


def test_a_player_sees_the_matrix_but_reports_only_for_itself(browser: Any, live_server: LiveServer) -> None:
    """A player's phone shows the pod's commander damage and its own commander controls; other
    players' panels have no controls (the server refuses them too)."""
    game_id = live_server.create_game(pod("Pod-Player"))
    with device(browser, PHONE) as tab:
        open_as(tab, live_server, game_id, player_token(live_server, game_id, "P2"))
        expect(tab.locator(".commander-damage")).to_be_visible()
        ben = tab.get_by_role("region", name="Ben", exact=True)
        expect(ben.get_by_role("button", name=f"Cast {EZURI} from the command zone (tax 0)")).to_be_visible()
        expect(tab.get_by_role("region", name="Ann", exact=True).get_by_role("button")).to_have_count(0)
    with device(browser, PHONE) as tab:
        open_as(tab, live_server, game_id, live_server.token("spectator"))
        expect(tab.locator(".commander-damage")).to_be_visible()
        expect(tab.get_by_role("button", name=re.compile("command zone|monarch|Combat damage"))).to_have_count(0)
