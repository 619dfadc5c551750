"""The web page in a real browser (docs/web.md): list and filter games, step through a game's
versions with the slider and the keys, undo as a judge, live updates, tokens, errors, layout.

Each test drives Debian's Chromium against a real uvicorn server (``conftest.py``) and checks
what the page shows against what the API says at the same version.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import DESKTOP, PHONE, LiveServer

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

BEARS = {"name": "Grizzly Bears", "type_line": "Creature — Bear", "power": "2", "toughness": "2"}
SHOCK = {"name": "Shock", "type_line": "Instant"}


def game_body(event: str, round_: int = 1, table: int = 1, **extra: Any) -> dict[str, Any]:
    """A two-player game with rad counters, an unknown library and two permanents."""
    return {
        "variant": "two_player",
        "tournament": {"event": event, "round": round_, "table": table},
        "turn": {"number": 1, "active_player": "P1", "step": "upkeep"},
        "players": [
            {"id": "P1", "name": "Alice", "counters": {"rad": 3}, "library_size": 40},
            {"id": "P2", "name": "Bob", "counters": {"rad": 1}, "library": ["Island", "Forest", "Island"]},
        ],
        "battlefield": [
            {"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}},
            {"id": "elves", "card": "Llanowar Elves", "controller": "P2"},
        ],
        **extra,
    }


def play_some(server: LiveServer, game_id: str) -> None:
    """Two turns: counters, the rad trigger (which needs the milled cards), a tap, damage."""
    server.act(game_id, {"type": "add_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 2})
    server.act(game_id, {"type": "advance", "to": "precombat_main"})
    server.act(game_id, {"type": "resolve", "choices": {"cards": ["Forest", SHOCK, BEARS]}})
    server.act(game_id, {"type": "tap", "permanent": "elves"})
    server.act(game_id, {"type": "advance", "to": "next_turn"})
    server.act(game_id, {"type": "damage", "target": {"player": "P1"}, "amount": 3, "source": "Lightning Bolt"})
    server.act(game_id, {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 2})


# What the board shows, read from the page: the same shape as ``expected_board``.
READ_BOARD = """() => {
  const board = document.querySelector('#board');
  const players = {};
  for (const el of board.querySelectorAll('[data-player]')) {
    const counters = {};
    for (const c of el.querySelectorAll(':scope > .counters .counter')) {
      counters[c.dataset.kind] = Number(c.dataset.count);
    }
    players[el.dataset.player] = {
      life: Number(el.querySelector('[data-field="life"]').textContent),
      library_size: Number(el.querySelector('[data-field="library_size"]').textContent),
      graveyard: Number(el.querySelector('[data-field="graveyard_size"]').textContent),
      counters,
    };
  }
  const permanents = {};
  for (const el of board.querySelectorAll('[data-permanent]')) {
    const counters = {};
    for (const c of el.querySelectorAll('.counter')) counters[c.dataset.kind] = Number(c.dataset.count);
    permanents[el.dataset.permanent] = {tapped: el.dataset.tapped === 'true', counters};
  }
  const stack = [...board.querySelectorAll('.stack-object')].map((el) => el.dataset.id);
  return {version: Number(board.dataset.version), players, permanents, stack};
}"""


def expected_board(state: dict[str, Any], version: int) -> dict[str, Any]:
    return {
        "version": version,
        "players": {
            pid: {
                "life": p["life"],
                "library_size": p["library_size"],
                "graveyard": len(p["graveyard"]),
                "counters": p["counters"],
            }
            for pid, p in state["players"].items()
        },
        "permanents": {
            perm_id: {"tapped": perm["tapped"], "counters": perm["counters"]}
            for perm_id, perm in state["battlefield"].items()
        },
        "stack": [o["id"] for o in reversed(state["stack"])],  # shown top first
    }


def board_at(page: Any, version: int) -> dict[str, Any]:
    expect(page.locator("#board")).to_have_attribute("data-version", str(version))
    board: dict[str, Any] = page.evaluate(READ_BOARD)
    return board


def life(page: Any, player: str) -> Any:
    return page.locator(f'#board [data-player="{player}"] [data-field="life"]')


def counter(page: Any, owner: str, kind: str) -> Any:
    """The counter chip of one kind on a player (``player=P1``) or a permanent (``permanent=hydra``)."""
    attribute, _, value = owner.partition("=")
    return page.locator(f'#board [data-{attribute}="{value}"] .counter[data-kind="{kind}"]')


def sentence(server: LiveServer, game_id: str, version: int) -> str:
    """The server's line for one event, as the page shows it: the event's own ``sentence``, or
    (a server whose events do not carry one) its line in ``GET /v1/games/{id}/timeline``."""
    response = server.api.get(f"/v1/games/{game_id}/events", params={"after": version - 1, "limit": 1})
    assert response.status_code == 200, response.text
    own = response.json()["events"][0].get("sentence")
    if isinstance(own, str) and own:
        return own
    response = server.api.get(f"/v1/games/{game_id}/timeline")
    assert response.status_code == 200, response.text
    lines = {ln["version"]: ln["text"] for g in response.json()["timeline"] for ln in g["lines"]}
    text: str = lines[version]
    return text


def shoot(page: Any, path: Path, full_page: bool = False) -> None:
    """A screenshot for docs/web.md, without a focus ring or the text cursor in it."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    page.screenshot(path=str(path), full_page=full_page, caret="hide", animations="disabled")


def open_game(page: Any, server: LiveServer, game_id: str, suffix: str = "") -> None:
    page.goto(f"{server.url}/games/{game_id}{suffix}")
    expect(page.locator("#board")).to_have_attribute("data-version", re.compile(r"^\d+$"))


def test_list_filters_and_opens_a_game(page: Any, live_server: LiveServer, screenshots: Path) -> None:
    vegas12 = live_server.create_game(game_body("GP-Vegas", 3, 12, game_id="vegas-r3-t12"))
    live_server.create_game(game_body("GP-Vegas", 3, 13, game_id="vegas-r3-t13"))
    finished = live_server.create_game(game_body("GP-Vegas", 4, 2, game_id="vegas-r4-t2"))
    live_server.act(finished, {"type": "concede", "player": "P1"})
    live_server.create_game(game_body("PTQ-Lyon", 1, 4, game_id="lyon-r1-t4"))
    play_some(live_server, vegas12)
    live_server.wait_listed({vegas12, "vegas-r3-t13", finished, "lyon-r1-t4"})

    page.goto(f"{live_server.url}/")
    rows = page.locator("#games-table tbody tr")
    expect(page.locator('#games-table tbody tr[data-game-id="lyon-r1-t4"]')).to_be_visible()

    page.get_by_label("Event", exact=True).fill("GP-Vegas")
    page.get_by_role("button", name="Filter").click()
    expect(rows).to_have_count(3)
    assert "event=GP-Vegas" in page.url
    page.get_by_label("Status", exact=True).select_option("finished")
    page.get_by_role("button", name="Filter").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("vegas-r4-t2")
    expect(rows.first).to_contain_text("Finished")
    expect(rows.first.locator("td.players")).to_have_text("Alice, Bob")  # names, not ids
    expect(rows.first.locator("td.winners")).to_have_text("Bob")  # the winner, by name

    page.get_by_label("Status", exact=True).select_option("")
    page.get_by_label("Round", exact=True).fill("3")
    page.get_by_label("Table", exact=True).fill("12")
    page.keyboard.press("Enter")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("vegas-r3-t12")

    # The filter lives in the address: reloading keeps it.
    page.reload()
    expect(page.get_by_label("Event", exact=True)).to_have_value("GP-Vegas")
    expect(rows).to_have_count(1)

    page.get_by_role("button", name="Clear").click()
    expect(page.locator('#games-table tbody tr[data-game-id="vegas-r3-t13"]')).to_be_visible()
    page.get_by_label("Event", exact=True).fill("GP-Vegas")
    page.keyboard.press("Enter")
    expect(rows).to_have_count(3)
    shoot(page, screenshots / "list.png")

    page.get_by_role("link", name="vegas-r3-t12").click()
    page.wait_for_url(f"**/games/{vegas12}")
    expect(page.locator("#game-title")).to_have_text(f"Game {vegas12}")
    expect(page.locator("#game-meta")).to_contain_text("GP-Vegas · Round 3 · Table 12")


def test_step_through_versions_with_keys_and_slider(page: Any, live_server: LiveServer, screenshots: Path) -> None:
    game_id = live_server.create_game(game_body("GP-Seek", 2, 5, game_id="gp-seek-r2-t5"))
    play_some(live_server, game_id)
    head = live_server.state(game_id)["version"]
    states = {v: live_server.state(game_id, v)["state"] for v in range(1, head + 1)}

    open_game(page, live_server, game_id)
    assert board_at(page, head) == expected_board(states[head], head)
    expect(page.locator("#seek-out")).to_contain_text(f"Version {head} of {head}")

    # Home, then Right through every action's end: the board matches the API at each one, and
    # the slider never stops inside an action (a backup could not go back there).
    ends = live_server.api.get(f"/v1/games/{game_id}/boundaries").json()["boundaries"]
    assert ends[-1] == head and len(ends) < head  # some action here has several events
    page.locator("body").press("Home")
    assert board_at(page, 1) == expected_board(states[1], 1)
    expect(life(page, "P1")).to_have_text("20")
    expect(counter(page, "permanent=hydra", "+1/+1")).to_have_attribute("data-count", "3")
    for version in [v for v in ends if v > 1]:
        page.keyboard.press("ArrowRight")
        assert board_at(page, version) == expected_board(states[version], version), f"at version {version}"
    # ...and Left back down.
    for version in [v for v in reversed(ends) if v < head] + ([1] if 1 not in ends else []):
        page.keyboard.press("ArrowLeft")
        assert board_at(page, version) == expected_board(states[version], version), f"at version {version}"
    # Shift+Right still steps one event, inside an action too.
    inside = next(v for v in range(1, head) if v not in ends)
    page.keyboard.press("Home")
    for _ in range(inside - 1):
        page.keyboard.press("Shift+ArrowRight")
    board_at(page, inside)
    page.keyboard.press("Home")
    board_at(page, 1)

    # Turn jumps: PageDown / ] to the next turn's first event, PageUp / [ back.
    turn_two = next(v for v in range(1, head + 1) if states[v]["turn"]["number"] == 2)
    page.keyboard.press("PageDown")
    board_at(page, turn_two)
    expect(page.locator("#turn-info")).to_contain_text("Turn 2")
    page.keyboard.press("PageUp")
    board_at(page, 1)
    page.keyboard.press("]")
    board_at(page, turn_two)
    page.keyboard.press("End")
    board_at(page, head)
    page.keyboard.press("[")
    board_at(page, turn_two)

    # The slider, by keyboard focus and by value.
    # A value inside an action moves on to the action's end.
    stack_version = next(v for v in ends if states[v]["stack"])
    inside_stack = next(
        (v for v in range(1, stack_version) if v not in ends and next(e for e in ends if e >= v) == stack_version),
        stack_version,
    )
    page.get_by_label("Version", exact=True).fill(str(inside_stack))
    assert board_at(page, stack_version) == expected_board(states[stack_version], stack_version)
    top = page.locator("#stack .stack-object").first
    expect(top).to_contain_text("Rad counters")
    expect(top.locator(".tag-need")).to_have_text("cards")  # an unknown library: resolve needs the cards
    expect(page.locator(f'#timeline li[data-version="{stack_version}"]')).to_have_class(re.compile(r"\bcurrent\b"))

    # The link opens the game at the shown version; so does the address itself.
    link = page.get_by_role("link", name=f"Link to version {stack_version}")
    expect(link).to_have_attribute("href", f"/games/{game_id}?version={stack_version}")
    page.wait_for_url(f"**/games/{game_id}?version={stack_version}")
    shoot(page, screenshots / "game.png")

    page.goto(f"{live_server.url}/games/{game_id}?version=4")
    assert board_at(page, 4) == expected_board(states[4], 4)
    expect(page.locator("#seek-slider")).to_have_value("4")
    expect(page.locator("#game-meta")).to_contain_text("Round ")  # the event/round/table line, at a version too

    # A click on a timeline line shows that version.
    page.locator(f'#timeline li[data-version="{head}"] button').click()
    board_at(page, head)
    expect(counter(page, "player=P2", "poison")).to_have_attribute("data-count", "2")

    # Phone width: one column, nothing wider than the screen.
    page.set_viewport_size(PHONE)
    # The trigger was caused by the advance: its line is folded under the advance's entry.
    row = page.locator(f'#timeline li[data-version="{stack_version}"]')
    expect(row).to_be_hidden()
    entry = row.get_attribute("data-entry")
    fold = page.locator(f'#timeline li.fold[data-entry="{entry}"] button')
    expect(fold).to_have_attribute("aria-expanded", "false")
    fold.click()
    expect(fold).to_have_attribute("aria-expanded", "true")
    row.locator("button").click()
    board_at(page, stack_version)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, screenshots / "game-phone.png", full_page=True)
    page.set_viewport_size(DESKTOP)


def test_judge_undo_strikes_reverted_events_and_keeps_the_token_out_of_urls(page: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(game_body("Judge-Open", 1, 9))
    live_server.act(game_id, {"type": "lose_life", "player": "P1", "amount": 3})  # v2
    live_server.act(game_id, {"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 2})  # v3
    secret = live_server.token("judge", "Jane (L2)")
    urls: list[str] = []
    authorized: list[str] = []
    bearer = f"Bearer {secret}"
    page.on("request", lambda r: urls.append(r.url))
    page.on("request", lambda r: authorized.append(r.url) if r.headers.get("authorization") == bearer else None)

    open_game(page, live_server, game_id, f"#token={secret}")
    board_at(page, 3)
    # The token left the address bar for sessionStorage, and travels only in a header.
    assert "token" not in page.url and secret not in page.url
    assert page.evaluate("sessionStorage.getItem('mtg-ledger.token')") == secret
    expect(page.locator("#token-state")).to_contain_text("Token in use")
    expect(page.locator("#judge-panel")).to_be_visible()
    expect(page.locator("#verify-badge")).to_contain_text("Record verified: 3 events")

    # Undo the last action, with a reason.
    page.get_by_label("The last action").check()
    page.get_by_label("Reason (on the record)").fill("rad counters reported on the wrong player")
    page.get_by_role("button", name="Undo", exact=True).click()
    board_at(page, 4)
    expect(page.locator('#timeline li[data-version="3"]')).to_have_class(re.compile(r"\breverted\b"))
    expect(page.locator('#timeline li[data-version="3"] del')).to_have_text(sentence(live_server, game_id, 3))
    expect(page.locator('#timeline li[data-version="2"] del')).to_have_count(0)
    expect(page.locator('#timeline li[data-version="4"]')).to_contain_text("Backed up to version 2")
    expect(counter(page, "player=P1", "rad")).to_have_attribute("data-count", "3")
    expect(life(page, "P1")).to_have_text("17")

    # Back up to a version chosen with the slider: everything after it is struck through.
    page.locator("body").press("Home")
    board_at(page, 1)
    page.get_by_label("Back to the shown version").check()
    page.get_by_label("Reason (on the record)").fill("backing up to the start")
    page.get_by_role("button", name="Undo", exact=True).click()
    board_at(page, 5)
    expect(life(page, "P1")).to_have_text("20")
    for version in (2, 3, 4):
        expect(page.locator(f'#timeline li[data-version="{version}"] del')).to_have_count(1)
    expect(page.locator('#timeline li[data-version="5"] del')).to_have_count(0)
    events = live_server.api.get(f"/v1/games/{game_id}/events").json()["events"]
    assert [e["reverted"] for e in events] == [False, True, True, True, False]

    # A judge's note goes on the record and into the timeline.
    page.get_by_label("Note on the record").fill("players agreed on the backup")
    page.get_by_role("button", name="Add note").click()
    expect(page.locator('#timeline li[data-version="6"]')).to_contain_text("Note: players agreed on the backup")
    expect(page.locator('#timeline li[data-version="6"]')).to_contain_text("by Jane (L2) (judge)")

    # The export downloads with the judge's token.
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download the record (NDJSON)").click()
    download = download_info.value
    assert download.suggested_filename == f"{game_id}.ndjson"
    lines = Path(download.path()).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7  # a header line, then every event
    assert json.loads(lines[-1])["type"] == "NoteAdded"

    assert authorized, "the page never sent the token"
    assert not [u for u in urls if secret in u], "the token appeared in a URL"


def test_errors_are_shown_readably(page: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(game_body("Errors-Open", 1, 3))
    live_server.act(game_id, {"type": "lose_life", "player": "P2", "amount": 1})

    # A damaged record (the server's verify answer, stubbed here): the badge names the version.
    damaged = {"ok": False, "events": 2, "head": "ab" * 32, "first_bad_version": 2}
    page.route(f"**/v1/games/{game_id}/verify", lambda route: route.fulfill(json=damaged))

    # A scorekeeper has no judge panel (undo is for judges); a report the rules refuse shows the
    # problem's detail, status and code beside the reporting controls.
    scorekeeper = live_server.token("scorekeeper")
    open_game(page, live_server, game_id, f"#token={scorekeeper}")
    expect(page.locator("#verify-badge")).to_have_text("Record altered: first bad version 2")
    expect(page.locator("#verify-badge")).to_have_class(re.compile(r"\bbad\b"))
    expect(page.locator("#judge-panel")).to_be_hidden()
    bob = page.get_by_role("region", name="Bob", exact=True)
    bob.locator("details.more > summary").click()
    bob.get_by_role("textbox", name="Counter kind").fill("poison")
    bob.get_by_role("spinbutton", name="How many").fill("5")
    bob.get_by_role("button", name="Remove that many counters of that kind from Bob").click()
    status = page.locator("#report-status")
    expect(status).to_contain_text("Not recorded")
    expect(status).to_contain_text("422")
    expect(status).to_contain_text("not_enough_counters")
    assert live_server.state(game_id)["version"] == 2

    # An unknown game: the 404 detail is shown in the banner.
    page.goto(f"{live_server.url}/games/no-such-game")
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error-text")).to_contain_text("404")
    expect(page.locator("#error-text")).to_contain_text("no-such-game")

    # A bad token: 401 with a hint about tokens; forgetting it reads as the public again.
    page.get_by_label("API token").fill("not-a-real-token")
    page.get_by_role("button", name="Use token").click()
    expect(page.locator("#error-text")).to_contain_text("401")
    expect(page.locator("#error-text")).to_contain_text("Enter a token")
    # Forgetting the token asks first: "Keep it" keeps it, "Yes, forget it" forgets it.
    page.get_by_role("button", name="Forget token").click()
    page.get_by_role("button", name="Keep it").click()
    expect(page.locator("#token-state")).to_contain_text("Token in use")
    page.get_by_role("button", name="Forget token").click()
    page.get_by_role("button", name="Yes, forget it").click()
    expect(page.locator("#token-state")).to_contain_text("No token")


@pytest.mark.parametrize("with_token", [False, True], ids=["public-reads", "token-in-header"])
def test_live_updates_at_the_head(page: Any, live_server: LiveServer, with_token: bool) -> None:
    game_id = live_server.create_game(game_body("Live-Open", 5, int(with_token) + 1))
    live_server.act(game_id, {"type": "lose_life", "player": "P2", "amount": 2})
    suffix = f"#token={live_server.token('spectator')}" if with_token else ""
    open_game(page, live_server, game_id, suffix)
    board_at(page, 2)
    expect(page.locator("#live-badge")).to_have_text("Live")

    # An action posted from outside appears without a reload.
    live_server.act(game_id, {"type": "lose_life", "player": "P2", "amount": 5})
    board_at(page, 3)
    expect(life(page, "P2")).to_have_text("13")
    expect(page.locator('#timeline li[data-version="3"] .line')).to_have_text(sentence(live_server, game_id, 3))
    expect(page.locator("#seek-slider")).to_have_attribute("max", "3")

    # A burst (an advance writes several events) arrives whole.
    answer = live_server.act(game_id, {"type": "advance", "to": "precombat_main"})
    board_at(page, answer["version"])
    expect(page.locator("#stack .stack-object")).to_have_count(1)

    # Looking at an older version, new events extend the slider but do not move the board.
    page.locator("body").press("Home")
    board_at(page, 1)
    hydra_counter = {"type": "add_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1}
    later = live_server.act(game_id, hydra_counter)
    expect(page.locator("#seek-slider")).to_have_attribute("max", str(later["version"]))
    expect(page.locator("#new-events")).to_be_visible()
    time.sleep(0.3)
    assert board_at(page, 1)["version"] == 1
    page.locator("#new-events").click()
    board_at(page, later["version"])
    expect(counter(page, "permanent=hydra", "+1/+1")).to_have_attribute("data-count", "4")


def test_controls_are_labelled_and_keyboard_reachable(page: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(game_body("A11y-Open", 1, 1))
    live_server.act(game_id, {"type": "lose_life", "player": "P1", "amount": 1})
    judge = live_server.token("judge")
    open_game(page, live_server, game_id, f"#token={judge}")
    board_at(page, 2)
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('input, select, textarea, button')]
              .filter((el) => !el.closest('[hidden]'))
              .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                              && !(el.textContent || '').trim())
              .map((el) => el.outerHTML)"""
    )
    assert unlabelled == []
    # Tab reaches the slider; its arrow keys step the game.
    page.locator("#seek-first").focus()
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "seek-slider":
            break
    assert page.evaluate("document.activeElement.id") == "seek-slider"
    page.keyboard.press("ArrowLeft")
    board_at(page, 1)
    expect(page.locator("#seek-slider")).to_have_attribute("aria-valuetext", "Version 1 of 2, turn 1, upkeep step")
    # Keys typed into a text field stay there.
    page.get_by_label("Note on the record").fill("")
    page.get_by_label("Note on the record").press("End")
    board_at(page, 1)


def test_private_reads_need_a_token_from_the_form(page: Any, private_server: LiveServer) -> None:
    game_id = private_server.create_game(game_body("Private-Open", 1, 1))
    private_server.wait_listed({game_id})
    page.goto(f"{private_server.url}/")
    expect(page.locator("#error-text")).to_contain_text("401")
    expect(page.locator("#error-text")).to_contain_text("Enter a token")

    # A token typed into the form: kept in this tab, never in the address.
    spectator = private_server.token("spectator")
    page.get_by_label("API token").fill(spectator)
    page.get_by_role("button", name="Use token").click()
    expect(page.locator(f'#games-table tbody tr[data-game-id="{game_id}"]')).to_be_visible()
    expect(page.locator("#error")).to_be_hidden()
    expect(page.get_by_label("API token")).to_have_value("")
    assert spectator not in page.url

    # The game streams live with the token in a header (fetch streaming, not EventSource).
    page.get_by_role("link", name=game_id).click()
    board_at(page, 1)
    expect(page.locator("#live-badge")).to_have_text("Live")
    private_server.act(game_id, {"type": "gain_life", "player": "P1", "amount": 4})
    board_at(page, 2)
    expect(life(page, "P1")).to_have_text("24")


def test_two_headed_giant_teams_and_trigger_order(page: Any, live_server: LiveServer) -> None:
    body = {
        "variant": "two_headed_giant",
        "tournament": {"event": "2HG-Open", "round": 1, "table": 1},
        "turn": {"number": 3, "active_player": "A1", "step": "draw"},
        "players": [
            {"id": "A1", "name": "Ann", "team": "A", "counters": {"rad": 2}, "library": [BEARS, "Forest"]},
            {"id": "A2", "name": "Abe", "team": "A", "counters": {"rad": 1}, "library": ["Lightning Bolt"]},
            {"id": "B1", "name": "Bea", "team": "B", "counters": {"poison": 2}},
            {"id": "B2", "name": "Ben", "team": "B"},
        ],
    }
    game_id = live_server.create_game(body)
    answer = live_server.act(game_id, {"type": "advance", "to": "precombat_main"})
    pending = answer["state"]["pending_order"]
    assert pending is not None and len(pending["triggers"]) == 2

    open_game(page, live_server, game_id)
    board_at(page, answer["version"])
    team_a = page.locator('#players [data-team="A"]')
    expect(team_a.locator('[data-field="team_life"]')).to_have_text("30")
    expect(team_a.locator('[data-player="A1"]')).to_be_visible()
    expect(team_a.locator('[data-player="A2"]')).to_be_visible()
    expect(page.locator('#players [data-team="B"] [data-player="B1"]')).to_be_visible()
    expect(page.locator("#pending")).to_contain_text("by team A")
    for trigger in pending["triggers"]:
        expect(page.locator("#pending")).to_contain_text(trigger["id"])

    first = next(t["id"] for t in pending["triggers"] if "A1" in t["description"])
    second = next(t["id"] for t in pending["triggers"] if t["id"] != first)
    live_server.act(game_id, {"type": "order_triggers", "resolve_first": [first, second]})
    resolved = live_server.act(game_id, {"type": "resolve"})
    board_at(page, resolved["version"])
    expect(page.locator("#pending")).to_be_hidden()
    expect(team_a.locator('[data-field="team_life"]')).to_have_text("29")
    expect(page.locator("#stack .stack-object")).to_have_count(1)
    expect(counter(page, "player=A1", "rad")).to_have_attribute("data-count", "1")


# Cards the server automates, so that every kind of event it records turns up in two games.
WOLF = {"name": "Timber Wolf", "type_line": "Creature — Wolf", "power": "2", "toughness": "2"}
GIANT = {"name": "Hill Giant", "type_line": "Creature — Giant", "power": "3", "toughness": "3"}
# Raw data on a line: a JSON object or list, or a Python dict, opening or a quoted key.
RAW_DATA = re.compile(r"""[{\[]\s*["']|["']\s*:\s""")


def every_event_game(server: LiveServer) -> str:
    """A two-player game that records every event type but ``TriggersPending`` and ``TeamLost``."""
    game_id = server.create_game(
        {
            "variant": "two_player",
            "tournament": {"event": "Every-Event", "round": 1, "table": 1},
            "turn": {"number": 3, "active_player": "P1", "step": "upkeep"},
            "players": [
                {
                    "id": "P1",
                    "name": "Alice",
                    "counters": {"rad": 1},
                    "library": ["Forest", "Island", "Forest", "Island"],
                    "hand": ["Switcheroo", "Nuclear Fallout", "Nuclear Fallout"],
                    "graveyard": [BEARS],
                },
                {"id": "P2", "name": "Bob", "library": ["Island"]},
            ],
            "battlefield": [
                {"id": "elves", "card": "Llanowar Elves", "controller": "P1"},
                {"id": "bear", "card": BEARS, "controller": "P1"},
                {"id": "wolf", "card": WOLF, "controller": "P1"},
                {"id": "giant", "card": GIANT, "controller": "P2"},
                {"id": "sse", "card": "Soul Stair Expedition", "controller": "P1", "counters": {"quest": 3}},
            ],
        }
    )
    for body in (
        {"type": "advance", "to": "precombat_main"},  # StepBegan, CardsDrawn, the rad trigger
        {"type": "resolve"},  # CardsMilled, StackObjectResolved
        {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 1},
        {"type": "remove_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 1},
        {"type": "lose_life", "player": "P2", "amount": 1},
        {"type": "gain_life", "player": "P2", "amount": 1},
        {"type": "damage", "target": {"player": "P2"}, "amount": 1, "source": "Shock"},
        {"type": "draw", "player": "P1"},
        {"type": "proliferate", "player": "P1", "choose": [{"player": "P1"}]},
        {"type": "tap", "permanent": "bear"},
        {"type": "untap", "permanent": "bear"},
        {"type": "activate", "player": "P1", "permanent": "elves", "ability": 0},  # ManaAdded
        # Remove three quest counters and sacrifice it (PermanentLeft): the Bears come back (CardsMoved).
        {"type": "activate", "player": "P1", "permanent": "sse", "ability": 0, "targets": [{"card": "Grizzly Bears"}]},
        {"type": "resolve"},
        {"type": "advance", "to": "declare_attackers"},  # ManaPoolEmptied
        {"type": "attack", "player": "P1", "attackers": [{"permanent": "wolf", "attacks": {"player": "P2"}}]},
        {"type": "advance", "to": "postcombat_main"},
        {
            "type": "cast",
            "player": "P1",
            "card": "Switcheroo",
            "targets": [{"permanent": "bear"}, {"permanent": "giant"}],
        },
        {"type": "resolve"},  # ControlChanged
        {"type": "cast", "player": "P1", "card": "Nuclear Fallout", "x": 1},
        {"type": "resolve"},  # PowerToughnessModified
        {"type": "cast", "player": "P1", "card": "Nuclear Fallout", "x": 0},
    ):
        answer = server.act(game_id, body)
    server.act(game_id, {"type": "counter", "object": answer["state"]["stack"][-1]["id"]})
    # DesignationChanged, RoomEntered and (after Undercity's last room) DungeonCompleted.
    for room in ("Secret Entrance", "Forge", "Trap!", "Archives", "Throne of the Dead Three"):
        server.act(game_id, {"type": "designate", "designation": "initiative", "player": "P1"})
        choice = {"choices": {"room": room}} if room in ("Forge", "Trap!") else {}
        server.act(game_id, {"type": "resolve", **choice})  # the venture
        server.act(game_id, {"type": "resolve"})  # the room's ability
    # The undo below takes back this action (a backup skips the judge's note after it).
    server.act(game_id, {"type": "enter", "card": "Forest", "controller": "P1", "id": "forest"})
    server.act(game_id, {"type": "note", "text": "checking every line"})
    undone = server.api.post(f"/v1/games/{game_id}/undo", json={"actions": 1, "reason": "note on the wrong game"})
    assert undone.status_code == 201, undone.text
    server.act(game_id, {"type": "advance", "to": "next_turn"})  # TurnBegan
    server.act(game_id, {"type": "concede", "player": "P2"})  # PlayerLost, GameEnded
    return game_id


def team_game(server: LiveServer) -> str:
    """Two-Headed Giant: two rad triggers wait to be ordered (TriggersPending); a team loses."""
    game_id = server.create_game(
        {
            "variant": "two_headed_giant",
            "turn": {"number": 3, "active_player": "A1", "step": "draw"},
            "players": [
                {"id": "A1", "team": "A", "counters": {"rad": 1}, "library": ["Forest"]},
                {"id": "A2", "team": "A", "counters": {"rad": 1}, "library": ["Island"]},
                {"id": "B1", "team": "B"},
                {"id": "B2", "team": "B"},
            ],
        }
    )
    answer = server.act(game_id, {"type": "advance", "to": "precombat_main"})
    triggers = [t["id"] for t in answer["state"]["pending_order"]["triggers"]]
    server.act(game_id, {"type": "order_triggers", "resolve_first": triggers})
    server.act(game_id, {"type": "concede", "player": "B1"})  # PlayerLost, TeamLost, GameEnded
    return game_id


def judging_game(server: LiveServer) -> str:
    """The opening (a random first player, a mulligan), a judge's records and a player's report
    awaiting, acknowledged and disputed (docs/judges.md): every judging event type."""
    game_id = server.create_game(
        {
            "variant": "two_player",
            "tournament": {"event": "Judging", "round": 1, "table": 5},
            "players": [{"id": "P1"}, {"id": "P2"}],
        }
    )

    def post(path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        response = server.api.post(f"/v1/games/{game_id}/{path}", json=body, headers=headers)
        assert response.status_code == 201, response.text

    def player(pid: str) -> dict[str, str]:
        body = {"name": f"browser {pid}", "role": "player", "game_id": game_id, "player_id": pid}
        response = server.api.post("/v1/tokens", json=body)
        assert response.status_code == 201, response.text
        return {"Authorization": f"Bearer {response.json()['token']}"}

    p1, p2 = player("P1"), player("P2")
    # The opening (CR 103.1, 103.5): FirstPlayerChosen, MulliganTaken, HandKept.
    server.act(game_id, {"type": "choose_first_player"})
    server.act(game_id, {"type": "mulligan", "player": "P2"}, p2)
    server.act(game_id, {"type": "keep_hand", "player": "P2"}, p2)
    post("judge-calls", {"called_by": "P2", "question": "How many poison counters?"})
    post("judge-calls/call-1/ruling", {"ruling": "Three."})
    post("time-extensions", {"minutes": 3, "reason": "ruling"})
    post("deck-checks", {"players": ["P1"], "result": "legal"})
    post("penalties", {"player": "P1", "section": "2.1", "penalty": "Warning"})
    for _ in range(2):
        server.act(game_id, {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 1}, p1)
    reports = [r["report"] for r in server.state(game_id)["state"]["unacknowledged"]]
    post("acknowledge", {"report": reports[0]}, p2)
    post("dispute", {"report": reports[1], "reason": "only one"}, p2)
    return game_id


def test_no_timeline_line_shows_raw_data_for_any_event_type(page: Any, live_server: LiveServer) -> None:
    """Every event type the server records reads as a sentence: never the event's JSON."""
    from domain.events import EVENT_TYPES

    shown: set[str] = set()
    for game_id in (every_event_game(live_server), team_game(live_server), judging_game(live_server)):
        head = live_server.state(game_id)["version"]
        open_game(page, live_server, game_id)
        board_at(page, head)
        rows = page.locator("#timeline li.event")
        expect(rows).to_have_count(head)
        lines: list[dict[str, str]] = page.evaluate(
            """() => [...document.querySelectorAll('#timeline li.event')].map((li) => ({
                  type: li.dataset.type, text: li.querySelector('.line').textContent}))"""
        )
        for line in lines:
            assert line["text"].strip(), f"an empty line for {line['type']}"
            assert not RAW_DATA.search(line["text"]), f"raw data on the {line['type']} line: {line['text']!r}"
        shown |= {line["type"] for line in lines}
        for version in (2, head):
            expect(rows.nth(version - 1).locator(".line")).to_have_text(sentence(live_server, game_id, version))
    assert set(EVENT_TYPES) <= shown, f"not produced by the games: {sorted(set(EVENT_TYPES) - shown)}"


def test_lines_are_the_events_sentences_else_their_type(page: Any, live_server: LiveServer) -> None:
    """The page shows the server's words: an event's ``sentence`` when it has one; from a server
    with neither sentences nor a timeline, the event's type name (and still no raw data)."""
    game_id = live_server.create_game(game_body("Sentences-Open", 1, 1))
    live_server.act(game_id, {"type": "lose_life", "player": "P1", "amount": 2})

    def with_sentences(route: Any) -> None:
        answer = route.fetch().json()
        for event in answer["events"]:
            event["sentence"] = f"The server's words for version {event['version']}"
        route.fulfill(json=answer)

    page.route(f"**/v1/games/{game_id}/events?*", with_sentences)
    open_game(page, live_server, game_id)
    board_at(page, 2)
    expect(page.locator('#timeline li[data-version="2"] .line')).to_have_text("The server's words for version 2")
    page.unroute(f"**/v1/games/{game_id}/events?*")

    # An older server: no sentence on the events, no timeline endpoint.
    def without_sentences(route: Any) -> None:
        answer = route.fetch().json()
        for event in answer["events"]:
            event.pop("sentence", None)
        route.fulfill(json=answer)

    page.route(f"**/v1/games/{game_id}/events?*", without_sentences)
    page.route(f"**/v1/games/{game_id}/timeline", lambda route: route.fulfill(status=404, json={"title": "Not Found"}))
    page.reload()
    board_at(page, 2)
    expect(page.locator('#timeline li[data-version="1"] .line')).to_have_text("GameStarted")
    expect(page.locator('#timeline li[data-version="2"] .line')).to_have_text("LifeLost")
    expect(page.locator("#error")).to_be_hidden()


def test_modules_are_served_as_javascript_under_the_csp(page: Any, live_server: LiveServer) -> None:
    """The page's script (its ES modules joined into one, api/web_assets.py) loads from this
    server with a JavaScript type (modules are refused otherwise, with nosniff), and nothing
    breaks the Content-Security-Policy."""
    game_id = live_server.create_game(game_body("Modules-Open", 1, 1))
    scripts: dict[str, str] = {}
    violations: list[str] = []
    page.on(
        "response",
        lambda r: scripts.__setitem__(r.url, r.headers.get("content-type", "")) if r.url.endswith(".js") else None,
    )
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    open_game(page, live_server, game_id)
    board_at(page, 1)
    loaded = [re.sub(r"\.[0-9a-f]{12}\.", ".HASH.", u) for u in scripts]
    assert loaded == [f"{live_server.url}/static/main.HASH.js"], scripts
    assert all(t.startswith("text/javascript") for t in scripts.values()), scripts
    page_response = live_server.api.get(f"/games/{game_id}")
    assert "script-src 'self'" in page_response.headers["content-security-policy"]
    assert re.search(r'<script type="module" src="/static/main\.[0-9a-f]{12}\.js"></script>', page_response.text)
    assert violations == []
