"""Decklists on the pages in a real browser (issue 42; docs/web.md, Decklists): an 8-player
Competitive event whose players register their lists on their phones (390 px, touch, each with
their event link), the scorekeeper enters one at the desktop and has an illegal one refused with
its reasons, a judge picks a table and records its deck check on the floor view, and a player
casting a card that is not on their list raises a judge call there, with the game version."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from api.catalog_store import import_scryfall
from api.settings import Settings
from tests.browser.support import ADMIN_TOKEN, DESKTOP, PHONE, LiveServer, device, serve
from tests.browser.test_tournament_pages import FINGER, NO_OVERFLOW, open_page, post
from tests.tournament.decklist_cards import ENTRIES

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser
TID = "Decks"
NAMES = ["Alice", "Bob", "Cara", "Dan", "Eve", "Fay", "Gus", "Hal"]
LIST = (
    "4 Lightning Bolt\n4 Goblin Guide\n4 Monastery Swiftspear\n4 Lava Spike\n4 Skewer the Critics\n40 Mountain\n"
    "\nSideboard\n4 Smash to Smithereens\n"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose catalog holds the test cards, imported as ``mtg-ledger cards import`` does."""
    base = tmp_path_factory.mktemp("decklists")
    (base / "scryfall.json").write_text(json.dumps(ENTRIES), encoding="utf-8")
    import_scryfall(base / "scryfall.json", base / "cards.json")
    settings = Settings(
        _env_file=None,
        database_url=f"sqlite:///{base / 'ledger.sqlite3'}",
        admin_token=SecretStr(ADMIN_TOKEN),
        catalog_path=base / "cards.json",
    )
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    with serve(settings) as url, httpx.Client(base_url=url, headers=admin, timeout=10) as api:
        yield LiveServer(url, api)


def test_lists_on_the_pages_a_deck_check_and_a_card_not_on_the_list(browser: Any, server: LiveServer) -> None:
    post(
        server,
        "/v1/tournaments",
        {"id": TID, "name": "Decks Open", "format": "Modern", "rel": "competitive", "rounds": 3},
    )
    for name in NAMES:
        post(server, f"/v1/tournaments/{TID}/players", {"name": name})
    links = {f"p{i}": post(server, f"/v1/tournaments/{TID}/players/p{i}/link", {})["token"] for i in range(1, 8)}

    # Seven players register on their phones with their event links.
    for player, token in links.items():
        with device(browser, PHONE, touch=True) as phone:
            open_page(phone, server, f"/tournaments/{TID}/public", token)
            phone.get_by_label("My decklist: “4 Lightning Bolt” lines, then “Sideboard”").fill(LIST)
            phone.get_by_role("button", name="Submit my decklist").tap()
            expect(phone.locator("#t-my-decklist-status")).to_have_text("Registered: 60 cards, sideboard 4.")
            expect(phone.locator("#t-my-decklist-registered h3")).to_contain_text("60 cards, sideboard 4")
            if player == "p1":  # a phone: nothing wider than the screen, every control a finger's size
                assert phone.evaluate(NO_OVERFLOW)
                for control in phone.locator("#t-decklist button").all():
                    box = control.bounding_box()
                    assert box is not None and box["height"] >= FINGER

    # The scorekeeper, at the desktop: an illegal list refused with its reasons, then Hal's list.
    with device(browser, DESKTOP) as desk:
        open_page(desk, server, f"/tournaments/{TID}", ADMIN_TOKEN)
        panel = desk.locator("#t-decklists")
        expect(panel.locator('tr[data-player="p8"] td')).to_have_text("missing")
        panel.get_by_label("Whose list").select_option(label="Hal")
        panel.get_by_label("Decklist", exact=True).fill("4 Splinter Twin\n5 Lightning Bolt\n40 Mountain\n")
        panel.get_by_role("button", name="Register the list").click()
        refused = desk.locator("#t-decklists-status")
        expect(refused).to_contain_text("the main deck has 49 cards: at least 60 (CR 100.2a)")
        expect(refused).to_contain_text("Splinter Twin is banned in Modern (the catalog's legalities)")
        expect(refused).to_contain_text("5 copies of Lightning Bolt: at most 4 (CR 100.2a)")
        expect(refused).to_contain_text("decklist_illegal")
        expect(panel.locator('tr[data-player="p8"] td')).to_have_text("missing")  # nothing stored
        panel.get_by_label("Decklist", exact=True).fill(LIST)
        panel.get_by_role("button", name="Register the list").click()
        expect(refused).to_have_text("Registered Hal's list: 60 cards.")
        expect(panel.locator('tr[data-player="p8"] td')).to_have_text("60 + 4")

    rnd = post(server, f"/v1/tournaments/{TID}/rounds", {"seed": 7})
    table = rnd["tables"][0]
    game, caster = table["games"][0], table["players"][0]

    judge = server.token("judge", "Floor judge")
    with device(browser, DESKTOP) as floor:
        open_page(floor, server, f"/tournaments/{TID}/floor", judge)
        panel = floor.locator("#t-floor-decklists")
        expect(panel.locator("#t-decklist-calls")).to_contain_text("None: every card played")
        # A deck check of table 1, chosen, its outcome recorded on the table's game.
        panel.get_by_label("Tables (chosen)").fill("1")
        panel.get_by_role("button", name="Check these tables").click()
        expect(floor.locator("#t-deck-check-status")).to_have_text("Round 1: check table 1.")
        check = panel.locator('#t-deck-checks li[data-table="1"]')
        check.get_by_role("button", name="Record the outcome").click()
        expect(check).to_contain_text("Checked: legal")
        recorded = server.state(game)["state"]["judging"]["deck_checks"]
        assert [c["result"] for c in recorded] == ["legal"]

        # The caster plays a card that is not on their list: a judge call with its game version.
        player = {"Authorization": f"Bearer {links[caster]}"}
        for _ in range(3):  # untap, upkeep, draw: to the first main phase
            server.act(game, {"type": "advance"})
        cast = server.act(game, {"type": "cast", "player": caster, "card": "Counterspell"}, player)
        call = panel.locator("#t-decklist-calls li.t-decklist-call")
        expect(call).to_contain_text(f"{table['names'][0]}: Counterspell (cast) is not on their registered list.")
        expect(call.get_by_role("link", name=f"Game version {cast['version']}")).to_have_attribute(
            "href", f"/games/{game}?version={cast['version']}"
        )
        # It is a real judge call in the game (the judges' page lists it): the entry names it.
        opened = [c["call"] for c in server.state(game)["state"]["judging"]["calls"]]
        assert len(opened) == 1
        expect(call).to_contain_text(f"{opened[0]} in the game.")
