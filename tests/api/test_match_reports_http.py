"""Match results from the players over HTTP (issue 38; docs/api.md, Match results from the
players): a player's event link reports its own match, the opponent's confirms it in one call
(the tournament's result, MTR 2.1), disputes go to staff; access, idempotency and the prefill."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.tournament_client import Scorekeeper

BASE = "/v1/tournaments"


def _event(client: TestClient, headers: dict[str, str], tid: str) -> tuple[Scorekeeper, Any, dict[str, str]]:
    sk = Scorekeeper(client, headers, tid)
    sk.create(rounds=3)
    sk.register("Ann", "Bob", "Cid", "Dee")
    rnd = sk.post("/rounds", {"seed": 3})
    links = {p: sk.post(f"/players/{p}/link")["token"] for p in ("p1", "p2", "p3", "p4")}
    return sk, rnd, links


def _as(token: str, key: str | None = None) -> dict[str, str]:
    h = {"Authorization": f"Bearer {token}"}
    return {**h, "Idempotency-Key": key} if key else h


def _table(rnd: Any, n: int = 1) -> tuple[str, str, str]:
    t = rnd["tables"][n - 1]
    a, b = t["players"]
    return f"{BASE}/{{tid}}/rounds/1/tables/{t['table']}/report", a, b


def test_report_and_confirm_from_two_event_links(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd, links = _event(client, admin_headers, "REP1")
    path, a, b = _table(rnd)
    path = path.format(tid="REP1")
    mine = client.get(f"{BASE}/REP1/my_result", headers=_as(links[a])).json()
    assert (mine["state"], mine["you"], mine["can"]) == ("open", a, ["report"])
    r = client.post(path, json={"wins": {a: 2, b: 1}}, headers=_as(links[a], "k1"))
    assert r.status_code == 201, r.text
    assert r.json()["state"] == "pending" and r.json()["report"]["player"] == a
    theirs = client.get(f"{BASE}/REP1/my_result", headers=_as(links[b])).json()
    assert theirs["can"] == ["confirm", "dispute"] and theirs["report"]["wins"] == {a: 2, b: 1}
    r = client.post(f"{path}/confirm", headers=_as(links[b], "k2"))
    assert r.status_code == 201, r.text
    assert r.json()["state"] == "final" and r.json()["result"] == {"wins": {a: 2, b: 1}, "draws": 0}
    # The one result: the scorekeeper's view and results.csv say the same.
    table = sk.get()["rounds"][0]["tables"][0]
    assert table["result"]["wins"] == {a: 2, b: 1}
    csv = client.get(f"{BASE}/REP1/results.csv", headers=admin_headers).text
    assert f"{a}" in csv.splitlines()[1]
    # On the record: who (the token) and when.
    record = sk.get("/record")
    assert [r["type"] for r in record[-3:]] == ["MatchReportFiled", "MatchReportConfirmed", "ResultReported"]
    filed, confirmed = record[-3], record[-2]
    assert filed["data"]["player"] == a and confirmed["data"]["player"] == b
    assert filed["data"]["token"] and filed["data"]["token"] != confirmed["data"]["token"]
    assert confirmed["actor"]["role"] == "player" and confirmed["recorded_at"]
    assert confirmed["action_id"] == record[-1]["action_id"]  # one save


def test_access_rules(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd, links = _event(client, admin_headers, "REP2")
    path, a, _b = _table(rnd)
    path = path.format(tid="REP2")
    other = rnd["tables"][1]["players"][0]
    r = client.post(path, json={"wins": {a: 2}}, headers=_as(links[other]))
    assert (r.status_code, r.json()["code"]) == (403, "not_your_match")
    r = client.get(path, headers=_as(links[other]))
    assert (r.status_code, r.json()["code"]) == (403, "not_your_match")
    # Staff enter results at …/result; this is the players' path.
    r = client.post(path, json={"wins": {a: 2}}, headers=admin_headers)
    assert (r.status_code, r.json()["code"]) == (403, "forbidden")
    # A link of another event.
    sk2 = Scorekeeper(client, admin_headers, "REP2B")
    sk2.create(rounds=3)
    sk2.register("X", "Y")
    alien = sk2.post("/players/p1/link")["token"]
    r = client.post(path, json={"wins": {a: 2}}, headers=_as(alien))
    assert (r.status_code, r.json()["code"]) == (403, "wrong_game")
    # A dropped player's link.
    sk.post(f"/players/{a}/drop", {})
    r = client.post(path, json={"wins": {a: 2}}, headers=_as(links[a]))
    assert (r.status_code, r.json()["code"]) == (403, "report_by_dropped_player")


def test_refusals_change_nothing(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd, links = _event(client, admin_headers, "REP3")
    path, a, b = _table(rnd)
    path = path.format(tid="REP3")
    r = client.post(f"{path}/confirm", headers=_as(links[b]))
    assert (r.status_code, r.json()["code"]) == (422, "no_report_to_confirm")
    assert client.post(path, json={"wins": {a: 2}}, headers=_as(links[a])).status_code == 201
    version = sk.version()
    r = client.post(path, json={"wins": {b: 2}}, headers=_as(links[b]))
    assert (r.status_code, r.json()["code"]) == (409, "report_pending")
    r = client.post(f"{path}/confirm", headers=_as(links[a]))
    assert (r.status_code, r.json()["code"]) == (422, "not_your_report")
    assert sk.version() == version


def test_idempotent_report_and_confirm(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd, links = _event(client, admin_headers, "REP4")
    path, a, b = _table(rnd)
    path = path.format(tid="REP4")
    first = client.post(path, json={"wins": {a: 2, b: 1}}, headers=_as(links[a], "same"))
    again = client.post(path, json={"wins": {a: 2, b: 1}}, headers=_as(links[a], "same"))
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true" and again.json() == first.json()
    v = sk.version()
    c1 = client.post(f"{path}/confirm", headers=_as(links[b], "c"))
    c2 = client.post(f"{path}/confirm", headers=_as(links[b], "c"))
    assert c1.status_code == c2.status_code == 201 and c2.json() == c1.json()
    assert sk.version() == v + 2  # one save of two events (confirmed, result), not two
    r = client.post(path, json={"wins": {a: 2}}, headers=_as(links[a], "same-other"))
    assert (r.status_code, r.json()["code"]) == (422, "match_already_reported")


def test_dispute_then_staff_settle_with_a_reason(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd, links = _event(client, admin_headers, "REP5")
    path, a, b = _table(rnd)
    path = path.format(tid="REP5")
    client.post(path, json={"wins": {a: 2}}, headers=_as(links[a]))
    r = client.post(f"{path}/dispute", json={"note": "I won game 2"}, headers=_as(links[b]))
    assert r.status_code == 201 and r.json()["state"] == "disputed"
    waiting = sk.get("/reports")["reports"]
    assert [(w["table"], w["state"], w["report"]["note"]) for w in waiting] == [(1, "disputed", "I won game 2")]
    r = client.post(f"{BASE}/REP5/rounds/1/tables/1/result", json={"wins": {a: 2, b: 1}}, headers=admin_headers)
    assert (r.status_code, r.json()["code"]) == (400, "settle_needs_reason")
    body = {"wins": {a: 2, b: 1}, "reason": "judge watched game 2"}
    assert sk.post("/rounds/1/tables/1/result", body)["result"]["wins"] == {a: 2, b: 1}
    assert sk.get("/reports")["reports"] == []
    last = sk.get("/record")[-1]
    assert last["type"] == "ResultReported" and last["data"]["reason"] == "judge watched game 2"


def test_the_form_is_prefilled_from_the_games(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd, links = _event(client, admin_headers, "REP6")
    path, a, b = _table(rnd)
    path = path.format(tid="REP6")
    game = rnd["tables"][0]["games"][0]
    ended = client.post(f"/v1/games/{game}/actions", json={"type": "concede", "player": b}, headers=admin_headers)
    assert ended.status_code == 201, ended.text
    sk.post("/rounds/1/tables/1/games")
    g2 = "REP6.r1.t1.g2"
    ended = client.post(f"/v1/games/{g2}/actions", json={"type": "concede", "player": b}, headers=admin_headers)
    assert ended.status_code == 201, ended.text
    form = client.get(path, headers=_as(links[a])).json()
    assert form["prefill"] == {"wins": {a: 2, b: 0}, "draws": 0}
    assert [g["winners"] for g in form["games"]] == [[a], [a]]
    staff = client.get(path, headers=admin_headers).json()
    assert staff["prefill"] == form["prefill"] and staff["you"] is None and staff["can"] == []
