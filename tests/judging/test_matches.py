"""Matches: a best-of-3 result from three games, an intentional draw, a Match Loss, the results
export (issue 14; MTR 2.1, 2.4; docs/judges.md)."""

from __future__ import annotations

import copy
import csv
import io
import json
from typing import Any

from fastapi.testclient import TestClient

from projections.matches import RESULT_COLUMNS
from tests.api.helpers import TWO_PLAYER, assert_problem, token

EVENT, ROUND = "GP-Match", 4


def _game(client: TestClient, admin: dict[str, str], table: int, **extra: Any) -> str:
    body = copy.deepcopy(TWO_PLAYER)
    body["tournament"] = {"event": EVENT, "round": ROUND, "table": table, **extra}
    r = client.post("/v1/games", json=body, headers=admin)
    assert r.status_code == 201, r.text
    game: str = r.json()["game_id"]
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]  (a read model)
    return game


def _concede(client: TestClient, admin: dict[str, str], game: str, loser: str) -> None:
    r = client.post(f"/v1/games/{game}/actions", json={"type": "concede", "player": loser}, headers=admin)
    assert r.status_code == 201 and r.json()["state"]["status"] == "finished", r.text


def _match(client: TestClient, admin: dict[str, str], table: int) -> dict[str, Any]:
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    r = client.get(f"/v1/events/{EVENT}/rounds/{ROUND}/tables/{table}", headers=admin)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_best_of_three_result_from_three_games(client: TestClient, admin_headers: dict[str, str]) -> None:
    games = [_game(client, admin_headers, 1, best_of=3) for _ in range(3)]
    _concede(client, admin_headers, games[0], "P2")  # P1 1-0
    _concede(client, admin_headers, games[1], "P1")  # 1-1
    assert _match(client, admin_headers, 1)["result"]["complete"] is False
    _concede(client, admin_headers, games[2], "P2")  # P1 2-1
    match = _match(client, admin_headers, 1)
    result = match["result"]
    assert [g["game_id"] for g in match["games"]] == games
    assert result["winner"] == "P1" and result["score"] == "2-1-0" and result["complete"] is True
    assert result["confirmed"] is False
    # Both players confirm the score they see; a stale score is refused.
    p1 = token(client, admin_headers, "player", game_id=games[2], player_id="P1")
    p2 = token(client, admin_headers, "player", game_id=games[2], player_id="P2")
    url = f"/v1/events/{EVENT}/rounds/{ROUND}/tables/1/confirm"
    assert_problem(client.post(url, json={"score": "2-0-0"}, headers=p1), 409, "result_changed")
    assert client.post(url, json={"score": "2-1-0"}, headers=p1).status_code == 201
    assert _match(client, admin_headers, 1)["result"]["confirmed"] is False
    assert client.post(url, json={"score": "2-1-0"}, headers=p2).status_code == 201
    assert _match(client, admin_headers, 1)["result"]["confirmed"] is True
    # The export: one row per table, CSV and JSON.
    rows = client.get(f"/v1/events/{EVENT}/rounds/{ROUND}/results.json", headers=admin_headers).json()["results"]
    assert rows == [
        {
            "event": EVENT,
            "round": str(ROUND),
            "table": 1,
            "player_a": "P1",
            "player_b": "P2",
            "a_wins": 2,
            "b_wins": 1,
            "draws": 0,
            "result": "a",
            "complete": True,
            "confirmed": True,
        }
    ]
    text = client.get(f"/v1/events/{EVENT}/rounds/{ROUND}/results.csv", headers=admin_headers).text
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert parsed[0]["a_wins"] == "2" and parsed[0]["result"] == "a" and parsed[0]["confirmed"] == "true"


def test_an_intentional_draw_with_no_game_played_is_0_0_3(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = _game(client, admin_headers, 2)
    url = f"/v1/events/{EVENT}/rounds/{ROUND}/tables/2/intentional-draw"
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    assert client.post(url, json={}, headers=p1).status_code == 201
    assert _match(client, admin_headers, 2)["result"]["complete"] is False  # both must agree
    assert client.post(url, json={}, headers=p2).status_code == 201
    result = _match(client, admin_headers, 2)["result"]
    assert result["draw"] is True and result["score"] == "0-0-3" and result["source"] == "intentional_draw"


def test_a_match_loss_ends_the_match(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = _game(client, admin_headers, 3)
    judge = token(client, admin_headers, "judge")
    body = {"player": "P2", "section": "3.2", "penalty": "Match Loss"}
    r = client.post(f"/v1/games/{game}/penalties", json=body, headers=judge)
    assert r.status_code == 201, r.text
    assert r.json()["state"]["status"] == "finished"
    result = _match(client, admin_headers, 3)["result"]
    assert result["winner"] == "P1" and result["complete"] is True and result["source"] == "penalty"
    # A scorekeeper's entry stands as entered.
    keeper = token(client, admin_headers, "scorekeeper")
    entered = client.post(
        f"/v1/events/{EVENT}/rounds/{ROUND}/tables/3/result", json={"wins": {"P1": 2, "P2": 0}}, headers=keeper
    )
    assert entered.status_code == 201, entered.text
    assert _match(client, admin_headers, 3)["result"]["source"] == "scorekeeper"
    round_view = client.get(f"/v1/events/{EVENT}/rounds/{ROUND}", headers=admin_headers).json()
    assert [m["table"] for m in round_view["tables"]] == [3]
    assert_problem(
        client.get(f"/v1/events/{EVENT}/rounds/{ROUND}/tables/99", headers=admin_headers), 404, "unknown_match"
    )


def test_the_answers_are_the_read_model_s_field_for_field(client: TestClient, admin_headers: dict[str, str]) -> None:
    """Issue 39: the match routes name their answers (``response_model``); the models drop and
    add nothing: each answer is what the service returns, with open calls, time extensions, a
    Match Loss and a confirmation in it."""
    service = client.app.state.service  # type: ignore[attr-defined]
    judge = token(client, admin_headers, "judge")
    calling = _game(client, admin_headers, 5)
    for path, body in (
        ("judge-calls", {"called_by": "P1", "question": "Does the trigger still resolve?"}),
        ("time-extensions", {"minutes": 3, "reason": "deck check"}),
    ):
        assert client.post(f"/v1/games/{calling}/{path}", json=body, headers=judge).status_code == 201
    lost = _game(client, admin_headers, 6)
    penalty = {"player": "P2", "section": "3.2", "penalty": "Match Loss"}
    assert client.post(f"/v1/games/{lost}/penalties", json=penalty, headers=judge).status_code == 201
    _concede(client, admin_headers, _game(client, admin_headers, 7), "P2")
    keeper = token(client, admin_headers, "scorekeeper")
    entered = {"wins": {"P1": 1, "P2": 1}, "draws": 1}
    r = client.post(f"/v1/events/{EVENT}/rounds/{ROUND}/tables/7/result", json=entered, headers=keeper)
    assert r.status_code == 201 and r.json() == {"event": EVENT, "round": str(ROUND), "table": "7", **entered}
    service.wait_for_read_model()
    base = f"/v1/events/{EVENT}/rounds/{ROUND}"
    answers = {
        base: service.round(EVENT, str(ROUND)),
        f"{base}/tables/5": service.match(EVENT, str(ROUND), "5"),
        f"{base}/tables/6": service.match(EVENT, str(ROUND), "6"),
        f"{base}/results.json": {
            "event": EVENT,
            "round": str(ROUND),
            "columns": list(RESULT_COLUMNS),
            "results": service.round_results(EVENT, str(ROUND)),
        },
    }
    for path, expected in answers.items():
        r = client.get(path, headers=admin_headers)
        assert r.status_code == 200 and r.json() == json.loads(json.dumps(expected)), path
    [call] = answers[base]["open_calls"]
    [extension] = answers[base]["time_extensions"]
    assert call["table"] == 5 and extension["minutes"] == 3
    assert answers[f"{base}/tables/6"]["match_loss"]["penalty"] == "Match Loss"
