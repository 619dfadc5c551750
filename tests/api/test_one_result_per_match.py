"""One result per match (issue 38, item 7): a tournament's match has one result, the tournament's.
The older matches endpoints (``/v1/events/{e}/rounds/{r}/tables/{t}/result|confirm``) keep
working for a tournament's match but write and answer that one result, so the two results
exports can't disagree."""

from __future__ import annotations

import csv
import io
from typing import Any

from fastapi.testclient import TestClient

from tests.api.tournament_client import Scorekeeper


def _paired(client: TestClient, headers: dict[str, str], tid: str) -> tuple[Scorekeeper, str, str]:
    sk = Scorekeeper(client, headers, tid)
    sk.create(rounds=3)
    sk.register("Ann", "Bob", "Cid", "Dee")
    rnd = sk.post("/rounds", {"seed": 3})
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    a, b = rnd["tables"][0]["players"]
    return sk, a, b


def _tournament_rows(client: TestClient, headers: dict[str, str], tid: str) -> list[dict[str, str]]:
    text = client.get(f"/v1/tournaments/{tid}/results.csv", headers=headers).text
    return list(csv.DictReader(io.StringIO(text)))


def _v1_rows(client: TestClient, headers: dict[str, str], tid: str) -> list[dict[str, str]]:
    text = client.get(f"/v1/events/{tid}/rounds/1/results.csv", headers=headers).text
    return list(csv.DictReader(io.StringIO(text)))


def _v1_winner(row: dict[str, str]) -> str:
    return {"a": row["player_a"], "b": row["player_b"]}.get(row["result"], "")


def _v1_result(client: TestClient, headers: dict[str, str], tid: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/v1/events/{tid}/rounds/1/tables/1", headers=headers).json()["result"]
    return out


def test_two_paths_cannot_both_stand_tournament_first(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, a, b = _paired(client, admin_headers, "ATK1")
    sk.result(1, 1, {a: 2, b: 0})
    # The attack: the other player's 2-0 through the older path.
    r = client.post("/v1/events/ATK1/rounds/1/tables/1/result", json={"wins": {b: 2, a: 0}}, headers=admin_headers)
    assert (r.status_code, r.json()["code"]) == (422, "match_already_reported")
    result = _v1_result(client, admin_headers, "ATK1")
    assert (result["winner"], result["source"], result["wins"]) == (a, "tournament", {a: 2, b: 0})
    v1 = _v1_rows(client, admin_headers, "ATK1")[0]
    assert (v1["player_a"], v1["a_wins"], v1["b_wins"], v1["result"]) == (a, "2", "0", "a")
    assert sk.get()["rounds"][0]["tables"][0]["result"]["wins"] == {a: 2, b: 0}
    tournament = next(row for row in _tournament_rows(client, admin_headers, "ATK1") if row["table"] == "1")
    assert tournament["winner_id"] == a == _v1_winner(v1)


def test_two_paths_cannot_both_stand_v1_first(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, a, b = _paired(client, admin_headers, "ATK2")
    r = client.post(
        "/v1/events/ATK2/rounds/1/tables/1/result",
        json={"wins": {b: 2, a: 0}},
        headers={**admin_headers, "Idempotency-Key": "v1-once"},
    )
    assert r.status_code == 201, r.text
    # The v1 write is the tournament's result: the tournament path now refuses a second one.
    r = client.post("/v1/tournaments/ATK2/rounds/1/tables/1/result", json={"wins": {a: 2}}, headers=admin_headers)
    assert (r.status_code, r.json()["code"]) == (422, "match_already_reported")
    table = sk.get()["rounds"][0]["tables"][0]
    assert table["result"]["wins"] == {a: 0, b: 2}
    tournament = next(row for row in _tournament_rows(client, admin_headers, "ATK2") if row["table"] == "1")
    v1 = _v1_rows(client, admin_headers, "ATK2")[0]
    assert tournament["winner_id"] == b == _v1_winner(v1)
    # A retry with the same key stores nothing more.
    version = sk.version()
    again = client.post(
        "/v1/events/ATK2/rounds/1/tables/1/result",
        json={"wins": {b: 2, a: 0}},
        headers={**admin_headers, "Idempotency-Key": "v1-once"},
    )
    assert again.status_code == 201 and again.headers.get("Idempotent-Replayed") == "true"
    assert sk.version() == version


def test_v1_confirm_is_the_players_report(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, a, b = _paired(client, admin_headers, "ATK3")
    links = {p: sk.post(f"/players/{p}/link")["token"] for p in (a, b)}
    path = "/v1/events/ATK3/rounds/1/tables/1/confirm"
    first = client.post(path, json={"score": "2-1-0"}, headers={"Authorization": f"Bearer {links[a]}"})
    assert first.status_code == 201, first.text
    assert _v1_result(client, admin_headers, "ATK3")["complete"] is False  # one player's word is no result
    wrong = client.post(path, json={"score": "1-2-0"}, headers={"Authorization": f"Bearer {links[b]}"})
    assert (wrong.status_code, wrong.json()["code"]) == (409, "result_changed")
    second = client.post(path, json={"score": "2-1-0"}, headers={"Authorization": f"Bearer {links[b]}"})
    assert second.status_code == 201, second.text
    assert sk.get()["rounds"][0]["tables"][0]["result"]["wins"] == {a: 2, b: 1}
    result = _v1_result(client, admin_headers, "ATK3")
    assert (result["winner"], result["confirmed"], result["source"]) == (a, True, "tournament")


def test_an_event_that_is_not_a_tournament_keeps_the_old_model(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    body = {
        "variant": "two_player",
        "players": [{"id": "x", "name": "X"}, {"id": "y", "name": "Y"}],
        "tournament": {"event": "LOCAL", "round": 1, "table": 1},
    }
    assert client.post("/v1/games", json=body, headers=admin_headers).status_code == 201
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    r = client.post("/v1/events/LOCAL/rounds/1/tables/1/result", json={"wins": {"x": 2}}, headers=admin_headers)
    assert r.status_code == 201, r.text
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    assert _v1_result(client, admin_headers, "LOCAL")["source"] == "scorekeeper"


def test_v1_intentional_draw_by_both_players_is_the_tournaments_draw(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk, a, b = _paired(client, admin_headers, "ATK4")
    links = {p: sk.post(f"/players/{p}/link")["token"] for p in (a, b)}
    path = "/v1/events/ATK4/rounds/1/tables/1/intentional-draw"
    assert client.post(path, json={}, headers={"Authorization": f"Bearer {links[a]}"}).status_code == 201
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    assert sk.get()["rounds"][0]["tables"][0]["result"] is None  # one player's agreement is no draw
    assert client.post(path, json={}, headers={"Authorization": f"Bearer {links[b]}"}).status_code == 201
    result = sk.get()["rounds"][0]["tables"][0]["result"]
    assert result == {"wins": {a: 0, b: 0}, "draws": 3, "intentional_draw": True}  # MTR 2.4: 0-0-3
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    v1 = _v1_result(client, admin_headers, "ATK4")
    assert (v1["draw"], v1["source"], v1["score"]) == (True, "tournament", "0-0-3")
