"""Drops, a late entry, a bye, a corrected result, an intentional draw and a no-show change the
standings through the API as the MTR says (each test cites its rule); Commander pod events of 4
and 13 players; the round clock; one player link for the whole event; the exports; webhooks."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from tests.api.helpers import token
from tests.api.tournament_client import Scorekeeper


def _event(client: TestClient, headers: dict[str, str], tid: str, players: int, **fields: object) -> Scorekeeper:
    sk = Scorekeeper(client, headers, tid)
    sk.create(**fields)
    sk.register(*(f"Player {i}" for i in range(1, players + 1)))
    return sk


def _line(sk: Scorekeeper, player: str) -> dict[str, object]:
    return next(s for s in sk.get("/standings")["standings"] if s["player_id"] == player)


def test_a_bye_is_a_2_0_match_win_and_goes_to_one_player_once(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """MTR Appendix C: a bye counts as a won match, 2-0 in games (3 match points); the lowest-
    ranked player without a bye gets it (docs/rules.md, MTR 10.4)."""
    sk = _event(client, admin_headers, "BYE", 5, rounds=3)
    first = sk.post("/rounds", {"seed": 7})
    assert len(first["byes"]) == 1
    bye = first["byes"][0]
    line = _line(sk, bye)
    assert (line["points"], line["matches"], line["gw"]) == (3, "1-0-0", 1.0)
    for table in first["tables"]:
        a, b = table["players"]
        sk.result(1, table["table"], {a: 2, b: 0})
    second = sk.post("/rounds", {"seed": 7})
    assert second["byes"] and second["byes"] != [bye]


def test_a_drop_leaves_the_results_and_the_next_pairings(client: TestClient, admin_headers: dict[str, str]) -> None:
    """MTR 2.10: a dropped player is not paired in later rounds; their results stand (they count
    in their opponents' OMW%)."""
    sk = _event(client, admin_headers, "DROP", 4, rounds=3)
    rnd = sk.post("/rounds", {"seed": 1})
    a, b = rnd["tables"][0]["players"]
    sk.result(1, 1, {a: 2, b: 0})
    c, d = rnd["tables"][1]["players"]
    sk.result(1, 2, {c: 2, d: 1})
    dropped = sk.post(f"/players/{b}/drop", {"reason": "sick"})
    assert (dropped["status"], dropped["drop_reason"], dropped["dropped_after"]) == ("dropped", "sick", 1)
    second = sk.post("/rounds", {"seed": 1})
    paired = {p for t in second["tables"] for p in t["players"]} | set(second["byes"])
    assert b not in paired and paired == {a, c, d}
    line = _line(sk, b)
    assert line["dropped"] is True and line["matches"] == "0-1-0"
    assert _line(sk, a)["omw"] == 0.33  # b (0-1) counts for a at the 0.33 floor


def test_a_late_entry_takes_a_loss_for_each_missed_round(client: TestClient, admin_headers: dict[str, str]) -> None:
    """docs/rules.md, Late entry (no MTR section found; searched MTR 1.5, 2.10, IPG 3.1): the
    entrant starts on 0 points with a 0-2 match loss for each round already paired."""
    sk = _event(client, admin_headers, "LATE", 4, rounds=3)
    rnd = sk.post("/rounds", {"seed": 3})
    for table in rnd["tables"]:
        a, b = table["players"]
        sk.result(1, table["table"], {a: 2, b: 0})
    late = sk.post("/players", {"name": "Latecomer"})
    assert (late["player_id"], late["late_entry_rounds"]) == ("p5", 1)
    line = _line(sk, "p5")
    assert (line["points"], line["matches"]) == (0, "0-1-0")
    second = sk.post("/rounds", {"seed": 3})
    assert "p5" in {p for t in second["tables"] for p in t["players"]} | set(second["byes"])


def test_a_corrected_result_changes_the_standings_and_stays_on_the_record(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """A wrong result is corrected by an event with its reason, never an edit (issue 31); the
    standings are recomputed (MTR 3.1)."""
    sk = _event(client, admin_headers, "FIX", 4, rounds=2)
    rnd = sk.post("/rounds", {"seed": 5})
    a, b = rnd["tables"][0]["players"]
    sk.result(1, 1, {a: 2, b: 0})
    assert _line(sk, a)["points"] == 3
    fixed = sk.post("/rounds/1/tables/1/correction", {"wins": {a: 1, b: 2}, "draws": 0, "reason": "slip swapped"})
    assert fixed["result"]["wins"] == {a: 1, b: 2} and fixed["corrections"] == 1
    assert (_line(sk, a)["points"], _line(sk, b)["points"]) == (0, 3)
    record = sk.get("/record")
    assert [e["type"] for e in record[-2:]] == ["ResultReported", "ResultCorrected"]
    assert record[-1]["data"]["reason"] == "slip swapped" and record[-1]["actor"]["role"] == "admin"


def test_an_intentional_draw_is_one_point_each_and_0_0_3(client: TestClient, admin_headers: dict[str, str]) -> None:
    """MTR 2.4: players may agree to a draw; with no game played it is reported 0-0-3; a draw is
    1 match point each (MTR Appendix C). Once the match has a result it is too late."""
    sk = _event(client, admin_headers, "ID", 4, rounds=2)
    rnd = sk.post("/rounds", {"seed": 2})
    a, b = rnd["tables"][0]["players"]
    drawn = sk.post("/rounds/1/tables/1/intentional_draw")
    assert drawn["result"] == {"wins": {a: 0, b: 0}, "draws": 3, "intentional_draw": True}
    assert (_line(sk, a)["points"], _line(sk, a)["matches"]) == (1, "0-0-1")
    c, d = rnd["tables"][1]["players"]
    sk.result(1, 2, {c: 2, d: 0})
    before = sk.version()
    refused = client.post("/v1/tournaments/ID/rounds/1/tables/2/intentional_draw", json={}, headers=admin_headers)
    assert refused.status_code == 422 and refused.json()["code"] == "match_already_reported"
    assert sk.version() == before


def test_an_intentional_draw_is_refused_once_the_games_decided_the_match(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """MTR 2.4: a draw is agreed before the match is over; a best-of-one match whose game has
    ended (a concession, CR 104.3a) is over, even before its result reaches the tournament."""
    sk = _event(client, admin_headers, "ID1", 2, rounds=1, best_of=1)
    rnd = sk.post("/rounds", {"seed": 2})
    a, _ = rnd["tables"][0]["players"]
    game = rnd["tables"][0]["games"][0]
    ended = client.post(f"/v1/games/{game}/actions", json={"type": "concede", "player": a}, headers=admin_headers)
    assert ended.status_code == 201, ended.text
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    before = sk.version()
    refused = client.post("/v1/tournaments/ID1/rounds/1/tables/1/intentional_draw", json={}, headers=admin_headers)
    assert refused.status_code == 422 and refused.json()["code"] == "match_already_reported"
    assert sk.version() == before


def test_a_no_show_loses_0_2_and_is_dropped(client: TestClient, admin_headers: dict[str, str]) -> None:
    """IPG 3.1 (Tardiness: a Match Loss) and MTR 2.10 (a player who doesn't show up is dropped)."""
    sk = _event(client, admin_headers, "NOSHOW", 4, rounds=2)
    rnd = sk.post("/rounds", {"seed": 9})
    a, b = rnd["tables"][0]["players"]
    out = sk.post(f"/players/{a}/no_show")
    assert out["status"] == "no_show"
    table = sk.get()["rounds"][0]["tables"][0]
    assert table["result"]["wins"] == {a: 0, b: 2}
    assert _line(sk, b)["points"] == 3


def test_a_4_player_commander_pod_event(client: TestClient, admin_headers: dict[str, str]) -> None:
    """docs/rules.md, Commander pods: one game a pod, 3 points a win, 1 a draw (the default
    points mode); the pod's game is a Commander game of its four players."""
    sk = _event(client, admin_headers, "POD4", 4, kind="commander", rounds=2)
    rnd = sk.post("/rounds", {"seed": 4})
    assert [len(t["players"]) for t in rnd["tables"]] == [4]
    game = client.get(f"/v1/games/{rnd['tables'][0]['games'][0]}", headers=admin_headers).json()
    assert game["state"]["variant"] == "multiplayer" and set(game["state"]["players"]) == {"p1", "p2", "p3", "p4"}
    assert {p["life"] for p in game["state"]["players"].values()} == {40}  # CR 903.7
    winner = rnd["tables"][0]["players"][2]
    sk.result(1, 1, {winner: 1})
    standings = sk.get("/standings")["standings"]
    assert standings[0]["player_id"] == winner and standings[0]["points"] == 3
    assert all(s["points"] == 0 for s in standings[1:])
    second = sk.post("/rounds", {"seed": 4})
    sk.result(2, 1, {}, draws=1)  # a drawn pod: 1 point each
    assert second["round"] == 2 and _line(sk, winner)["points"] == 4


def test_a_13_player_commander_event_seats_pods_of_4_and_3_or_5(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """docs/rules.md, Commander pods: pods of 4; 13 players leave 1 over, so three pods of 3 and
    one of 4 (no byes)."""
    sk = _event(client, admin_headers, "POD13", 13, kind="commander", rounds=3)
    for number in (1, 2, 3):
        rnd = sk.post("/rounds", {"seed": number})
        sizes = sorted(len(t["players"]) for t in rnd["tables"])
        assert sum(sizes) == 13 and set(sizes) <= {3, 4, 5} and rnd["byes"] == []
        for table in rnd["tables"]:
            sk.result(number, table["table"], {table["players"][0]: 1})
    assert sum(s["points"] for s in sk.get("/standings")["standings"]) == 3 * 3 * len(rnd["tables"])


def test_the_round_clock_and_the_time_extensions_per_table(client: TestClient, admin_headers: dict[str, str]) -> None:
    """The clock's events carry the ledger's time; the remaining time is computed at read; the
    judges' time extension of a game shows on its table; MTR 2.5: five turns after time."""
    sk = _event(client, admin_headers, "CLOCK", 4, rounds=2, round_minutes=40)
    rnd = sk.post("/rounds", {"seed": 1})
    started = sk.post("/rounds/1/clock", {"action": "start"})
    assert started["state"] == "running" and 40 * 60 - 5 <= started["remaining_seconds"] <= 40 * 60
    assert started["turns_after_time"] == 5
    assert sk.post("/rounds/1/clock", {"action": "pause"})["state"] == "paused"
    assert sk.post("/rounds/1/clock", {"action": "resume"})["state"] == "running"
    game = rnd["tables"][1]["games"][0]
    extended = client.post(
        f"/v1/games/{game}/time-extensions", json={"minutes": 3, "reason": "deck check"}, headers=admin_headers
    )
    assert extended.status_code == 201, extended.text
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    tables = sk.get()["rounds"][0]["tables"]
    assert (tables[1]["status"], tables[1]["extension_minutes"]) == ("extended", 3)
    assert tables[0]["status"] == "pending"
    assert sk.post("/rounds/1/clock", {"action": "end"})["state"] == "ended"
    assert sk.get("/public")["clock"]["state"] == "ended"


def test_one_player_link_acts_in_every_game_of_the_event_as_its_player(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """Identity (issue 31): one token for the whole event, bound to the event and its player; it
    reads its own games and acts only as its player, and no game of another event."""
    sk = _event(client, admin_headers, "LINK", 4, rounds=2)
    rnd = sk.post("/rounds", {"seed": 1})
    me = rnd["tables"][0]["players"][1]
    link = sk.post(f"/players/{me}/link")
    assert link["url"].startswith("/tournaments/LINK/me#token=")  # the player's own page (issue 38)
    mine = {"Authorization": f"Bearer {link['token']}"}
    game = rnd["tables"][0]["games"][0]
    ok = client.post(f"/v1/games/{game}/actions", json={"type": "gain_life", "player": me, "amount": 1}, headers=mine)
    assert ok.status_code == 201, ok.text
    other = rnd["tables"][0]["players"][0]
    not_mine = client.post(
        f"/v1/games/{game}/actions", json={"type": "gain_life", "player": other, "amount": 1}, headers=mine
    )
    assert not_mine.status_code == 403 and not_mine.json()["code"] == "not_your_player"
    _event(client, admin_headers, "LINK2", 2, rounds=1).post("/rounds", {"seed": 1})
    elsewhere = client.post(
        "/v1/games/LINK2.r1.t1.g1/actions", json={"type": "gain_life", "player": me, "amount": 1}, headers=mine
    )
    assert elsewhere.status_code == 403 and elsewhere.json()["code"] == "wrong_game"
    assert client.get("/v1/tournaments/LINK/public", headers=mine).status_code == 200


def test_exports_carry_names_and_ids_and_neutralise_formulas(client: TestClient, admin_headers: dict[str, str]) -> None:
    """CSV cells starting with = + - @ TAB CR are written with a leading quote (CSV injection);
    round and table are integers; the roster imports and exports as CSV."""
    sk = Scorekeeper(client, admin_headers, "CSV")
    sk.create(rounds=1)
    roster = 'name,wizards_id\r\n=HYPERLINK("x"),111\r\nBob,\r\n@Carol,333\r\n+Dan,\r\n'
    imported = client.post(
        "/v1/tournaments/CSV/players.csv", content=roster, headers={**admin_headers, "Content-Type": "text/csv"}
    )
    assert imported.status_code == 201 and imported.json()["registered"] == 4
    rnd = sk.post("/rounds", {"seed": 1})
    for table in rnd["tables"]:
        a, b = table["players"]
        sk.result(1, table["table"], {a: 2, b: 1})
    standings = list(
        csv.DictReader(io.StringIO(client.get("/v1/tournaments/CSV/standings.csv", headers=admin_headers).text))
    )
    names = {row["name"] for row in standings}
    assert names == {'\'=HYPERLINK("x")', "Bob", "'@Carol", "'+Dan"}
    results = list(
        csv.DictReader(io.StringIO(client.get("/v1/tournaments/CSV/results.csv", headers=admin_headers).text))
    )
    assert [(r["round"], r["table"]) for r in results] == [("1", "1"), ("1", "2")]
    assert all(r["player1_id"].startswith("p") and r["player1_name"] for r in results)
    players = client.get("/v1/tournaments/CSV/players.csv", headers=admin_headers).text
    assert players.splitlines()[0] == "player_id,name,wizards_id,status,late_entry_rounds"
    view = sk.get()
    assert all(isinstance(t["table"], int) for r in view["rounds"] for t in r["tables"])
    public = sk.get("/public")
    assert "wizards_id" not in str(public) and "111" not in str(public) and "p1" not in str(public["standings"])


def test_round_paired_and_standings_updated_webhooks(settings: Settings) -> None:
    """docs/api.md, Webhooks: ``round_paired`` on a pairing, ``standings_updated`` on a result
    (delivery off: the outbox is read, nothing is sent)."""
    assert settings.admin_token is not None
    admin = {"Authorization": f"Bearer {settings.admin_token.get_secret_value()}"}
    quiet = settings.model_copy(update={"deliver_webhooks": False, "webhook_allow_private": "127.0.0.0/8"})
    with TestClient(create_app(quiet)) as client:
        sub = client.post(
            "/v1/webhooks",
            json={"url": "http://127.0.0.1:9/hook", "events": ["round_paired", "standings_updated"]},
            headers=admin,
        )
        assert sub.status_code == 201, sub.text
        sk = _event(client, admin, "HOOK", 2, rounds=1)
        sk.post("/rounds", {"seed": 1})
        sk.result(1, 1, {"p1": 2, "p2": 0})
        service = client.app.state.service  # type: ignore[attr-defined]
        service.wait_for_read_model()
        events = [d["event"] for d in service.webhook_deliveries(sub.json()["id"])]
        assert events == ["round_paired", "standings_updated"]


def test_a_spectator_reads_the_public_view_only(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk = _event(client, admin_headers, "ROLES", 2, rounds=1)
    spectator = token(client, admin_headers, "spectator")
    assert client.get("/v1/tournaments/ROLES/public", headers=spectator).status_code == 200
    denied = client.get("/v1/tournaments/ROLES", headers=spectator)
    assert denied.status_code == 403 and denied.json()["code"] == "forbidden"
    before = sk.version()
    assert client.post("/v1/tournaments/ROLES/rounds", json={}, headers=spectator).status_code == 403
    assert sk.version() == before
