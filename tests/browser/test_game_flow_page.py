"""The game page outside the report panel, in Debian's Chromium (docs/web.md; issue 30): a table
set up only on the page plays its first three turns at phone size (390 px, touch) with the
page's jump buttons, the first player chosen at random and a mulligan taken, with no draw lost
and no acknowledgement asked for a turn-based action; the scorekeeper's player links and QR codes
on any game's page, at the server's public URL; the end-of-game banner with the match score and
the next game (a casual match and a tournament's table); version links that keep the timeline's
filter; the judge panel near the top for judges.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import segno

from tests.browser.support import DESKTOP, PHONE, READ_QR, LiveServer, device, running_server

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
expect = sync_api.expect

pytestmark = pytest.mark.browser

PUBLIC_URL = "http://192.168.1.20:8000"  # a venue's LAN address: only ever encoded, never reached
ATRAXA = "Atraxa, Grand Unifier"
EZURI = "Ezuri, Stalker of Spheres"


def shoot(tab: Any, path: Path, full_page: bool = False) -> None:
    tab.evaluate("document.activeElement && document.activeElement.blur()")
    tab.mouse.move(0, 0)
    tab.screenshot(path=str(path), full_page=full_page, caret="hide", animations="disabled")


def open_game(tab: Any, url: str) -> None:
    tab.goto(url)
    expect(tab.locator("#board")).to_have_attribute("data-version", re.compile(r"^\d+$"))


def wait_state(server: LiveServer, game_id: str, ok: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """The game's latest state once `ok` holds (the page's report travels through its queue;
    generous, for a machine shared with other test runs)."""
    deadline = time.monotonic() + 15
    while True:
        state: dict[str, Any] = server.state(game_id)["state"]
        if ok(state):
            return state
        assert time.monotonic() < deadline, f"{what}: the state never got there: {state['turn']}, {sizes(state)}"
        time.sleep(0.05)


def sizes(state: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {pid: (p["hand_size"], p["library_size"]) for pid, p in state["players"].items()}


def player_token(server: LiveServer, game_id: str, player_id: str) -> str:
    response = server.api.post(
        "/v1/tokens", json={"name": f"{player_id} phone", "role": "player", "game_id": game_id, "player_id": player_id}
    )
    assert response.status_code == 201, response.text
    secret: str = response.json()["token"]
    return secret


def set_up_on_the_page(
    tab: Any,
    server: LiveServer,
    variant: str,
    names: list[str],
    fill: Callable[[Any], None] | None = None,
    touch: bool = True,
) -> dict[str, str]:
    """Set a table up with the form on the games list; the players' links by player id."""

    def press(locator: Any) -> None:
        locator.tap() if touch else locator.click()

    tab.goto(f"{server.url}/#token={server.token('scorekeeper', name=f'Desk {variant} {len(names)}')}")
    setup = tab.get_by_role("region", name="Set up a table")
    if setup.locator("details").get_attribute("open") is None:
        press(setup.locator("summary"))
    setup.get_by_role("combobox", name="Variant").select_option(variant)
    for i, name in enumerate(names):
        if i >= 2 and setup.locator(f"#setup-name-P{i + 1}").count() == 0:
            press(setup.get_by_role("button", name="Add a player"))
        setup.get_by_role("textbox", name=f"Player {i + 1} name").fill(name)
    if fill:
        fill(setup)
    press(setup.get_by_role("button", name="Create the game and the player links"))
    figures = tab.locator("#setup-links figure.player-link")
    expect(figures).to_have_count(len(names))
    links: dict[str, str] = {}
    for i in range(len(names)):
        url = figures.nth(i).get_attribute("data-url")
        assert url is not None and "#token=" in url
        links[str(figures.nth(i).get_attribute("data-player"))] = url
    return links


def game_of(link: str) -> str:
    return link.split("/games/")[1].split("#")[0]


def flow(tab: Any) -> Any:
    return tab.locator("#game-flow")


def caught_up(tab: Any, server: LiveServer, game_id: str) -> None:
    """Wait until the page's board shows the game's latest version."""
    version = server.state(game_id)["version"]
    expect(tab.locator("#board")).to_have_attribute("data-version", str(version), timeout=15_000)


def jump(tab: Any, name: str) -> None:
    """One tap on a jump button (the issue's bar: "to my main phase" in one tap)."""
    button = flow(tab).get_by_role("button", name=name, exact=True)
    expect(button).to_be_enabled()
    button.tap()


def test_a_60_card_match_set_up_on_the_page_plays_three_turns_on_phones(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    def match(setup: Any) -> None:
        setup.get_by_role("combobox", name="Rules Enforcement Level").select_option("competitive")
        setup.get_by_role("combobox", name="Match").select_option("3")

    with device(browser, PHONE, touch=True) as desk:
        links = set_up_on_the_page(desk, live_server, "two_player", ["Alice", "Bob"], match)
        game_id = game_of(links["P1"])
        state = live_server.state(game_id)["state"]
        # Bug 1: a paper start, 53 cards in an unknown library and 7 in hand (the form sent no
        # library, and the API's old default was an empty one: the second player lost at their
        # first draw, CR 704.5b).
        assert sizes(state) == {"P1": (7, 53), "P2": (7, 53)}
        assert state["tournament"]["rel"] == "competitive" and state["tournament"]["best_of"] == 3
        assert state["tournament"]["event"].startswith("casual-")  # a casual match is kept by its table
        assert (state["tournament"]["round"], state["tournament"]["table"]) == (1, 1)

        # The scorekeeper's device picks the first player at random: one tap, an event.
        desk.goto(f"{live_server.url}/games/{game_id}")
        expect(flow(desk).get_by_role("button", name="Random first player")).to_be_visible()
        flow(desk).get_by_role("button", name="Random first player").tap()
        state = wait_state(live_server, game_id, lambda s: s.get("first_player") is not None, "random first player")
        assert state["first_player"]["method"] == "random"
        first = state["first_player"]["player"]
        second = "P2" if first == "P1" else "P1"
        name = {"P1": "Alice", "P2": "Bob"}
        expect(flow(desk).locator('[data-field="first-player"]')).to_have_text(name[first])
        expect(flow(desk).get_by_role("button", name="Random first player")).to_have_count(0)  # chosen once

    with device(browser, PHONE, touch=True) as one, device(browser, PHONE, touch=True) as two:
        open_game(one, links[first])
        open_game(two, links[second])
        assert "token" not in one.url and "token" not in two.url
        # Each phone offers mulligans for its own player only.
        expect(flow(two).get_by_role("button", name=f"{name[first]} takes a mulligan")).to_have_count(0)
        flow(two).get_by_role("button", name=f"{name[second]} takes a mulligan").tap()
        state = wait_state(live_server, game_id, lambda s: s["players"][second]["mulligans"] == 1, "mulligan")
        assert sizes(state)[second] == (7, 53)  # the hand shuffled back, a new seven (CR 103.5)
        # While the second player has not kept, the first player's jump is held (CR 103.5).
        expect(flow(one).get_by_role("button", name="To main phase", exact=True)).to_be_disabled()
        expect(flow(one)).to_contain_text(f"Waiting for {name[second]} to keep")
        shoot(two, screenshots / "game-start-phone.png")
        flow(two).get_by_role("button", name=f"{name[second]} keeps this hand").tap()
        state = wait_state(live_server, game_id, lambda s: s["players"][second]["hand_kept"], "keep")
        assert sizes(state)[second] == (6, 54)  # one card on the bottom for the one mulligan
        expect(two.locator(f'#game-flow li[data-player="{second}"]')).to_have_attribute("data-kept", "true")

        # Turn 1: the first player skips the draw (CR 103.8a).
        jump(one, "To main phase")
        state = wait_state(live_server, game_id, lambda s: s["turn"]["step"] == "precombat_main", "turn 1 main")
        assert state["turn"] == {"number": 1, "active_player": first, "active_team": None, "step": "precombat_main"}
        assert sizes(state) == {first: (7, 53), second: (6, 54)}
        expect(flow(one).locator("#flow-status")).to_have_text("Recorded: To main phase.")  # beside the button
        expect(flow(two)).to_be_hidden()  # not the second player's turn: nothing to move on
        jump(one, "To combat")
        wait_state(live_server, game_id, lambda s: s["turn"]["step"] == "declare_attackers", "turn 1 combat")
        jump(one, "To second main phase")
        wait_state(live_server, game_id, lambda s: s["turn"]["step"] == "postcombat_main", "turn 1 second main")
        jump(one, "To next turn's main phase")
        # Turn 2: the second player drew one card from the unknown library, and did not lose.
        state = wait_state(
            live_server, game_id, lambda s: s["turn"]["number"] == 2 and s["turn"]["step"] == "precombat_main", "turn 2"
        )
        assert state["turn"]["active_player"] == second
        assert sizes(state) == {first: (7, 53), second: (7, 53)}
        jump(two, "To combat")
        wait_state(live_server, game_id, lambda s: s["turn"]["step"] == "declare_attackers", "turn 2 combat")
        jump(two, "To second main phase")
        wait_state(live_server, game_id, lambda s: s["turn"]["step"] == "postcombat_main", "turn 2 second main")
        jump(two, "To next turn's main phase")
        state = wait_state(
            live_server, game_id, lambda s: s["turn"]["number"] == 3 and s["turn"]["step"] == "precombat_main", "turn 3"
        )
        assert state["turn"]["active_player"] == first
        assert sizes(state) == {first: (8, 52), second: (7, 53)}
        assert state["status"] == "in_progress" and not any(p["lost"] for p in state["players"].values())
        # Bug 2: no turn-based action waited for the opponent's acknowledgement.
        assert state["unacknowledged"] == []
        expect(one.locator("#unacknowledged")).to_be_hidden()
        expect(two.locator("#unacknowledged")).to_be_hidden()


def test_a_four_player_commander_pod_set_up_on_the_page_plays_three_turns(
    browser: Any, live_server: LiveServer
) -> None:
    names = ["Ann", "Ben", "Cy", "Di"]
    commanders = [ATRAXA, EZURI, ATRAXA, EZURI]

    def pod(setup: Any) -> None:
        # Commander's defaults: 100-card decks and 40 life (CR 903.5a, 903.7); one game a pod.
        expect(setup.get_by_role("spinbutton", name="Cards in each deck")).to_have_value("100")
        expect(setup.get_by_role("spinbutton", name="Starting life")).to_have_value("40")
        expect(setup.get_by_role("combobox", name="Match")).to_be_disabled()
        for i, commander in enumerate(commanders):
            setup.get_by_role("textbox", name=f"Player {i + 1} commander").fill(commander)

    with device(browser, PHONE, touch=True) as desk:
        links = set_up_on_the_page(desk, live_server, "commander", names, pod)
        game_id = game_of(links["P1"])
        state = live_server.state(game_id)["state"]
        # 92 in the library, 7 in hand and the commander in the command zone (bug 1: the first
        # player, who draws on turn 1 in a multiplayer game, lost at once with an empty library).
        assert sizes(state) == {p: (7, 92) for p in ("P1", "P2", "P3", "P4")}
        assert all(len(p["command"]) == 1 and p["life"] == 40 for p in state["players"].values())
        assert state["tournament"]["best_of"] == 1
        desk.goto(f"{live_server.url}/games/{game_id}")
        flow(desk).get_by_role("button", name="Random first player").tap()
        state = wait_state(live_server, game_id, lambda s: s.get("first_player") is not None, "random first player")
    order = ["P1", "P2", "P3", "P4"]
    start = order.index(state["first_player"]["player"])
    seats = order[start:] + order[:start]  # turn order from the first player (CR 101.4, 103.1)
    with (
        device(browser, PHONE, touch=True) as a,
        device(browser, PHONE, touch=True) as b,
        device(browser, PHONE, touch=True) as c,
        device(browser, PHONE, touch=True) as d,
    ):
        phones = dict(zip(order, (a, b, c, d), strict=True))
        for pid, tab in phones.items():
            open_game(tab, links[pid])
        # A mulligan in a multiplayer game: the first one is free (CR 103.5c).
        mulligan = seats[1]
        who = names[order.index(mulligan)]
        flow(phones[mulligan]).get_by_role("button", name=f"{who} takes a mulligan").tap()
        wait_state(live_server, game_id, lambda s: s["players"][mulligan]["mulligans"] == 1, "mulligan")
        flow(phones[mulligan]).get_by_role("button", name=f"{who} keeps this hand").tap()
        state = wait_state(live_server, game_id, lambda s: s["players"][mulligan]["hand_kept"], "keep")
        assert sizes(state)[mulligan] == (7, 92)
        hands = {p: (7, 92) for p in order}

        def drew(pid: str) -> None:
            hands[pid] = (hands[pid][0] + 1, hands[pid][1] - 1)

        def in_main(turn: int, step: str = "precombat_main") -> dict[str, Any]:
            state = wait_state(
                live_server,
                game_id,
                lambda s: s["turn"]["number"] == turn and s["turn"]["step"] == step,
                f"turn {turn}",
            )
            assert state["turn"]["active_player"] == seats[turn - 1]
            assert sizes(state) == hands  # one card a draw, from the unknown library
            assert state["unacknowledged"] == []  # bug 2: nobody acknowledges a turn-based action
            return state

        # Turn 1: the first player draws too in a multiplayer game (CR 103.8c). The first
        # player's phone has shown the other phone's mulligan and keep before its tap, as a
        # player sees the table settle first (under load its live update can trail the keep).
        caught_up(phones[seats[0]], live_server, game_id)
        jump(phones[seats[0]], "To main phase")
        drew(seats[0])
        in_main(1)
        for turn in (1, 2):
            tab = phones[seats[turn - 1]]
            jump(tab, "To second main phase")
            in_main(turn, "postcombat_main")
            jump(tab, "To next turn's main phase")  # through the next player's draw step
            drew(seats[turn])
            in_main(turn + 1)
        state = in_main(3)
        assert state["status"] == "in_progress" and not any(p["lost"] for p in state["players"].values())


def qr_text_matches(img: Any, text: str) -> bool:
    expect(img).to_have_js_property("complete", True)
    got = img.evaluate(READ_QR)
    expected = segno.make(text, error="m", micro=False).matrix
    n = len(expected)
    return bool([row[4 : 4 + n] for row in got[4 : 4 + n]] == [[bool(m) for m in row] for row in expected])


@pytest.fixture(scope="module")
def venue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose players' phones reach it at the venue's LAN address (MTG_LEDGER_PUBLIC_URL)."""
    base = tmp_path_factory.mktemp("venue-server")
    with running_server(base, public_reads=True, public_url=PUBLIC_URL) as server:
        yield server


def test_player_links_on_any_games_page_at_the_public_url(
    browser: Any, venue_server: LiveServer, screenshots: Path
) -> None:
    keeper = venue_server.token("scorekeeper", name="Venue desk")
    created = httpx.post(
        f"{venue_server.url}/v1/games",
        json={"variant": "two_player", "players": [{"id": "P1", "name": "Eve"}, {"id": "P2", "name": "Finn"}]},
        headers={"Authorization": f"Bearer {keeper}"},
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    # The scorekeeper who created the game, on another device than the one that set it up.
    with device(browser, DESKTOP) as desk:
        open_game(desk, f"{venue_server.url}/games/{game_id}#token={keeper}")
        desk.get_by_role("button", name="Player links", exact=True).click()
        figures = desk.locator("#links-out figure.player-link")
        expect(figures).to_have_count(2)
        expect(desk.locator("#links-status")).to_have_text("2 new links: each phone scans its own.")
        url = figures.nth(1).get_attribute("data-url")
        assert url is not None and url.startswith(f"{PUBLIC_URL}/games/{game_id}#token="), url
        img = figures.nth(1).get_by_role("img", name="QR code of Finn (P2)'s link")
        assert qr_text_matches(img, url)  # the code holds the LAN address, not 127.0.0.1
        token = url.split("#token=")[1]
        who = httpx.get(f"{venue_server.url}/v1/whoami", headers={"Authorization": f"Bearer {token}"}).json()
        assert (who["role"], who["game_id"], who["player_id"]) == ("player", game_id, "P2")
        shoot(desk, screenshots / "player-links.png")
        desk.get_by_role("button", name="Hide the links").click()
        expect(desk.locator("#links-out figure")).to_have_count(0)  # the secrets leave the page
    # Another scorekeeper is refused by the server, and the page says why beside the button.
    with device(browser, PHONE, touch=True) as other:
        open_game(
            other, f"{venue_server.url}/games/{game_id}#token={venue_server.token('scorekeeper', name='Other desk')}"
        )
        other.get_by_role("button", name="Player links", exact=True).tap()
        expect(other.locator("#links-status")).to_contain_text("not_game_creator")
        expect(other.locator("#links-out figure")).to_have_count(0)
    # A player's phone has no such control.
    with device(browser, PHONE, touch=True) as phone:
        open_game(phone, f"{venue_server.url}/games/{game_id}#token={player_token(venue_server, game_id, 'P1')}")
        expect(phone.locator("body")).to_have_attribute("data-role", "player")
        expect(phone.get_by_role("button", name="Player links", exact=True)).to_be_hidden()


def test_a_finished_game_shows_the_match_score_and_starts_the_next_game(
    browser: Any, live_server: LiveServer, screenshots: Path
) -> None:
    keeper = live_server.token("scorekeeper", name="Match desk")
    headers = {"Authorization": f"Bearer {keeper}"}
    body = {
        "game_id": "bo3-ada-bo",
        "variant": "two_player",
        "deck_size": 40,
        "tournament": {"event": "Casual-Bo3", "round": 1, "table": 7, "best_of": 3, "rel": "competitive"},
        "players": [{"id": "P1", "name": "Ada", "life": 25}, {"id": "P2", "name": "Bo", "life": 25}],
    }
    created = httpx.post(f"{live_server.url}/v1/games", json=body, headers=headers)
    assert created.status_code == 201, created.text
    live_server.act("bo3-ada-bo", {"type": "concede", "player": "P2"})
    with device(browser, PHONE, touch=True) as bo, device(browser, DESKTOP) as desk:
        open_game(bo, f"{live_server.url}/games/bo3-ada-bo#token={player_token(live_server, 'bo3-ada-bo', 'P2')}")
        banner = bo.get_by_role("region", name="Game over: Ada wins")
        expect(banner).to_be_visible()
        expect(banner.locator('[data-field="match-score"]')).to_have_text("Ada 1, Bo 0")
        expect(banner).to_contain_text("Match, best of 3 (game 1)")
        expect(banner).to_contain_text("Bo lost (CR 104.3a).")
        expect(banner).to_contain_text("Game 2 is next")
        expect(banner.get_by_role("button")).to_have_count(0)  # a player does not start games
        shoot(bo, screenshots / "endgame-phone.png")

        open_game(desk, f"{live_server.url}/games/bo3-ada-bo#token={keeper}")
        desk.get_by_role("region", name="Game over: Ada wins").get_by_role("button", name="Start game 2").click()
        desk.wait_for_url(re.compile(r"/games/bo3-ada-bo\.g2$"))
        state = live_server.state("bo3-ada-bo.g2")["state"]
        assert state["tournament"] == body["tournament"]
        assert {p: (v["name"], v["life"]) for p, v in state["players"].items()} == {"P1": ("Ada", 25), "P2": ("Bo", 25)}
        assert sizes(state) == {"P1": (7, 33), "P2": (7, 33)}  # the same 40-card decks, a new start
        # MTR 2.2: the loser of the previous game chooses who plays first.
        expect(flow(desk)).to_contain_text("Bo lost the previous game, so Bo chooses who plays first (MTR 2.2).")
        flow(desk).get_by_role("button", name="Bo plays first").click()
        state = wait_state(live_server, "bo3-ada-bo.g2", lambda s: s.get("first_player") is not None, "chosen")
        assert state["first_player"] == {"player": "P2", "method": "chosen"}
        assert state["turn"]["active_player"] == "P2"
        # Bo's phone, still on game 1, gets the way to game 2 without a reload.
        expect(bo.get_by_role("link", name="Go to the next game (bo3-ada-bo.g2)")).to_be_visible(timeout=12000)


def test_a_tournament_tables_next_game_comes_from_the_tournament(browser: Any, live_server: LiveServer) -> None:
    tid = "flow-cup"
    response = live_server.api.post(
        "/v1/tournaments", json={"id": tid, "name": "Flow Cup", "format": "modern", "best_of": 3}
    )
    assert response.status_code == 201, response.text
    for name in ("Gil", "Hana"):
        assert live_server.api.post(f"/v1/tournaments/{tid}/players", json={"name": name}).status_code == 201
    paired = live_server.api.post(f"/v1/tournaments/{tid}/rounds", json={})
    assert paired.status_code == 201, paired.text
    table = paired.json()["tables"][0]
    first = table["games"][0]
    state = live_server.state(first)["state"]
    loser = next(iter(state["players"]))
    live_server.act(first, {"type": "concede", "player": loser})
    with device(browser, DESKTOP) as desk:
        open_game(desk, f"{live_server.url}/games/{first}#token={live_server.token('scorekeeper', name='Cup desk')}")
        posts: list[str] = []
        desk.on("request", lambda r: posts.append(r.url.split(live_server.url)[1]) if r.method == "POST" else None)
        banner = desk.locator("#endgame")
        expect(banner).to_contain_text("Match, best of 3 (game 1)")
        banner.get_by_role("button", name="Start game 2").click()
        desk.wait_for_url(re.compile(rf"/games/{re.escape(tid)}\.r1\.t{table['table']}\.g2$"))
        # Asked of the tournament (which checks the match, MTR 2.1), not made as a casual game.
        assert f"/v1/tournaments/{tid}/rounds/1/tables/{table['table']}/games" in posts
        assert "/v1/games" not in posts
    view = live_server.api.get(f"/v1/tournaments/{tid}").json()
    games = view["rounds"][-1]["tables"][0]["games"]
    assert games == [first, f"{tid}.r1.t{table['table']}.g2"]  # the tournament made and numbered it


def test_version_links_keep_the_timeline_filter(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(
        {"variant": "two_player", "players": [{"id": "P1", "name": "Ivy"}, {"id": "P2", "name": "Jon"}]}
    )
    for amount in (1, 2, 3):
        live_server.act(game_id, {"type": "lose_life", "player": "P2", "amount": amount})
        live_server.act(game_id, {"type": "gain_life", "player": "P1", "amount": amount})
    events = live_server.api.get(f"/v1/games/{game_id}/events").json()["events"]
    jon = [e["version"] for e in events if "P2" in str(e["data"])]
    with device(browser, DESKTOP) as tab:
        open_game(tab, f"{live_server.url}/games/{game_id}")
        tab.get_by_role("combobox", name="Player").select_option(label="Jon (P2)")
        tab.keyboard.press("Home")
        link = tab.locator("#permalink")
        expect(link).to_have_attribute("href", f"/games/{game_id}?version=1&player=P2")
        expect(tab).to_have_url(re.compile(rf"/games/{game_id}\?version=1&player=P2$"))
        href = link.get_attribute("href")
    with device(browser, DESKTOP) as other:
        # The link opens the same view: that version, and only Jon's events.
        open_game(other, f"{live_server.url}{href}")
        expect(other.locator("#board")).to_have_attribute("data-version", "1")
        expect(other.get_by_role("combobox", name="Player")).to_have_value("P2")
        expect(other.locator("#tl-count")).to_have_text(f"{len(jon)} events of {len(events)} shown.")
        other.get_by_role("combobox", name="Event type").select_option(label="Life lost")
        expect(other).to_have_url(re.compile(r"\?version=1&player=P2&type=LifeLost$"))
        other.keyboard.press("End")  # the latest: the address loses the version, keeps the filter
        expect(other).to_have_url(re.compile(rf"/games/{game_id}\?player=P2&type=LifeLost$"))
        other.get_by_role("combobox", name="Player").select_option("")
        expect(other).to_have_url(re.compile(rf"/games/{game_id}\?type=LifeLost$"))


def test_the_judge_panel_is_near_the_top_for_judges(browser: Any, live_server: LiveServer) -> None:
    game_id = live_server.create_game(
        {"variant": "two_player", "players": [{"id": "P1", "name": "Kim"}, {"id": "P2", "name": "Lu"}]}
    )
    for size in (DESKTOP, PHONE):
        with device(browser, size, touch=size is PHONE) as tab:
            open_game(tab, f"{live_server.url}/games/{game_id}#token={live_server.token('judge')}")
            panel = tab.locator("#judge-panel")
            expect(panel).to_be_visible()
            expect(tab.locator("#report")).to_be_visible()
            top = panel.bounding_box()["y"]
            # Above the reporting panels, the seek bar and the board: the first thing a judge sees
            # under the game's title (and what waits for acknowledgement).
            for below in ("#report", ".seek", "#board"):
                assert top < tab.locator(below).bounding_box()["y"], below
            assert top < tab.viewport_size["height"]
            assert tab.evaluate("document.documentElement.scrollWidth") <= size["width"]


def test_the_setup_form_sends_the_deck_size_life_rel_and_match_length(browser: Any, live_server: LiveServer) -> None:
    def limited(setup: Any) -> None:
        setup.get_by_role("combobox", name="Deck").select_option(label="Limited: 40 cards")
        expect(setup.get_by_role("spinbutton", name="Cards in each deck")).to_have_value("40")
        setup.get_by_role("spinbutton", name="Starting life").fill("25")
        setup.get_by_role("combobox", name="Rules Enforcement Level").select_option("professional")
        setup.get_by_role("combobox", name="Match").select_option("5")
        setup.get_by_role("textbox", name="Tournament event").fill("Draft-Night")

    with device(browser, DESKTOP) as desk:
        links = set_up_on_the_page(desk, live_server, "two_player", ["Mo", "Nia"], limited, touch=False)
        state = live_server.state(game_of(links["P1"]))["state"]
        assert sizes(state) == {"P1": (7, 33), "P2": (7, 33)}  # a Limited deck: 33 and 7 (deck_size 40)
        assert [p["life"] for p in state["players"].values()] == [25, 25]
        assert state["tournament"] == {
            "event": "Draft-Night",
            "round": 1,
            "table": 1,
            "rel": "professional",
            "best_of": 5,
        }

    with device(browser, DESKTOP) as desk:

        def giants(setup: Any) -> None:
            # Two-Headed Giant: the life is each team's (CR 810.4 gives 30), one game.
            expect(setup.get_by_role("spinbutton", name="Starting life (each team)")).to_have_value("30")
            setup.get_by_role("spinbutton", name="Starting life (each team)").fill("34")
            expect(setup.get_by_role("combobox", name="Match")).to_have_value("1")

        links = set_up_on_the_page(
            desk, live_server, "two_headed_giant", ["Oz", "Pia", "Quin", "Rey"], giants, touch=False
        )
        state = live_server.state(game_of(links["P1"]))["state"]
        assert {t: v["life"] for t, v in state["teams"].items()} == {"A": 34, "B": 34}
        assert sizes(state) == {p: (7, 53) for p in ("P1", "P2", "P3", "P4")}
        assert state["tournament"] == {"rel": "regular", "best_of": 1}
