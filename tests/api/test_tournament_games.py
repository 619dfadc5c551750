"""A match's later games and featured tables through the API (docs/api.md, Tournaments):
``POST .../tables/{t}/games`` creates the match's next game once its latest game has ended and
the match is undecided (MTR 2.1: best of three, played until a player has won two games);
``POST .../tables/{t}/featured`` marks a table, its status then `featured`. Every refusal is
problem+json with its stable code and stores nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem
from tests.api.tournament_client import Scorekeeper


def _paired(client: TestClient, headers: dict[str, str], tid: str, **fields: Any) -> tuple[Scorekeeper, Any]:
    sk = Scorekeeper(client, headers, tid)
    sk.create(rounds=1, **fields)
    sk.register("Ann", "Ben", "Cat", "Dov")
    return sk, sk.post("/rounds", {"seed": 5})


def _concede(client: TestClient, headers: dict[str, str], game: str, player: str) -> None:
    ended = client.post(f"/v1/games/{game}/actions", json={"type": "concede", "player": player}, headers=headers)
    assert ended.status_code == 201, ended.text


def _exists(client: TestClient, headers: dict[str, str], game: str) -> bool:
    return client.get(f"/v1/games/{game}", headers=headers).status_code == 200


def test_a_best_of_three_plays_its_games_one_after_another(client: TestClient, admin_headers: dict[str, str]) -> None:
    """MTR 2.1: a match is best of three; game 2 follows game 1, game 3 only at 1-1."""
    sk, rnd = _paired(client, admin_headers, "NG")
    table = rnd["tables"][0]
    a, b = table["players"]
    path = "/rounds/1/tables/1/games"
    before = sk.version()
    refused = client.post(f"/v1/tournaments/NG{path}", json={}, headers=admin_headers)
    assert_problem(refused, 422, "previous_game_not_over")

    _concede(client, admin_headers, table["games"][0], b)  # game 1: a wins
    second = sk.post(path)
    assert second["game_id"] == "NG.r1.t1.g2" and second["game"] == 2
    assert second["games"] == ["NG.r1.t1.g1", "NG.r1.t1.g2"]
    game2 = client.get("/v1/games/NG.r1.t1.g2", headers=admin_headers).json()
    players = game2["state"]["players"]
    assert list(players) == table["players"] and [players[p]["name"] for p in players] == table["names"]
    assert game2["state"]["tournament"] == {"event": "NG", "round": 1, "table": 1, "rel": "regular", "best_of": 3}
    assert_problem(
        client.post(f"/v1/tournaments/NG{path}", json={}, headers=admin_headers), 422, "previous_game_not_over"
    )

    _concede(client, admin_headers, "NG.r1.t1.g2", a)  # game 2: b wins, 1-1
    assert sk.post(path)["game_id"] == "NG.r1.t1.g3"
    _concede(client, admin_headers, "NG.r1.t1.g3", a)
    assert_problem(client.post(f"/v1/tournaments/NG{path}", json={}, headers=admin_headers), 422, "all_games_played")
    assert sk.version() == before  # a game is not a tournament event: the record is unchanged
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    assert sk.get()["rounds"][0]["tables"][0]["games"] == ["NG.r1.t1.g1", "NG.r1.t1.g2", "NG.r1.t1.g3"]


def test_no_next_game_once_the_match_is_decided_or_reported(client: TestClient, admin_headers: dict[str, str]) -> None:
    """MTR 2.1: 2-0 decides a best of three; a reported match is over."""
    sk, rnd = _paired(client, admin_headers, "NG2")
    _, b = rnd["tables"][0]["players"]
    _concede(client, admin_headers, "NG2.r1.t1.g1", b)
    sk.post("/rounds/1/tables/1/games")
    _concede(client, admin_headers, "NG2.r1.t1.g2", b)
    decided = client.post("/v1/tournaments/NG2/rounds/1/tables/1/games", json={}, headers=admin_headers)
    assert_problem(decided, 422, "match_decided")
    c, d = rnd["tables"][1]["players"]
    sk.result(1, 2, {c: 2, d: 0})
    reported = client.post("/v1/tournaments/NG2/rounds/1/tables/2/games", json={}, headers=admin_headers)
    assert_problem(reported, 422, "match_already_reported")
    unknown = client.post("/v1/tournaments/NG2/rounds/1/tables/7/games", json={}, headers=admin_headers)
    assert_problem(unknown, 404, "unknown_table")
    bad = client.post("/v1/tournaments/NG2/rounds/1/tables/1/games", json={"x": 1}, headers=admin_headers)
    assert_problem(bad, 422, "unknown_field")
    # Nothing created by the refusals.
    assert not _exists(client, admin_headers, "NG2.r1.t1.g3") and not _exists(client, admin_headers, "NG2.r1.t2.g2")
    assert _exists(client, admin_headers, "NG2.r1.t1.g2")


def test_a_best_of_one_and_a_pod_have_one_game(client: TestClient, admin_headers: dict[str, str]) -> None:
    _, rnd = _paired(client, admin_headers, "NG3", best_of=1)
    _concede(client, admin_headers, "NG3.r1.t1.g1", rnd["tables"][0]["players"][0])
    refused = client.post("/v1/tournaments/NG3/rounds/1/tables/1/games", json={}, headers=admin_headers)
    assert_problem(refused, 422, "all_games_played")


def test_a_player_token_cannot_create_games(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd = _paired(client, admin_headers, "NG4")
    link = sk.post(f"/players/{rnd['tables'][0]['players'][0]}/link")
    player = {"Authorization": f"Bearer {link['token']}"}
    refused = client.post("/v1/tournaments/NG4/rounds/1/tables/1/games", json={}, headers=player)
    assert refused.status_code == 403
    refused = client.post("/v1/tournaments/NG4/rounds/1/tables/1/featured", json={}, headers=player)
    assert refused.status_code == 403


def test_a_featured_table(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk, rnd = _paired(client, admin_headers, "FT")
    marked = sk.post("/rounds/1/tables/2/featured", {"featured": True})
    assert marked["status"] == "featured" and marked["featured"] is True
    before = sk.version()
    again = client.post("/v1/tournaments/FT/rounds/1/tables/2/featured", json={"featured": True}, headers=admin_headers)
    assert_problem(again, 422, "table_already_featured")
    assert sk.version() == before
    not_bool = client.post(
        "/v1/tournaments/FT/rounds/1/tables/2/featured", json={"featured": "yes"}, headers=admin_headers
    )
    assert not_bool.status_code == 400 and not_bool.headers["content-type"].startswith("application/problem+json")
    statuses = [t["status"] for t in sk.get()["rounds"][0]["tables"]]
    assert statuses == ["pending", "featured"]
    record = sk.get("/record")
    assert record[-1]["type"] == "TableFeatured" and record[-1]["data"] == {"round": 1, "table": 2, "featured": True}
    c, d = rnd["tables"][1]["players"]
    assert sk.result(1, 2, {c: 2, d: 1})["status"] == "reported"  # a result wins over featured
    assert sk.post("/rounds/1/tables/2/featured", {"featured": False})["featured"] is False
