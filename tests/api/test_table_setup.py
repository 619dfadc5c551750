"""Setting up a table (docs/api.md, Player links and QR codes): the scorekeeper who created a game
gets one player link per player; QR codes of a text, as SVG."""

from __future__ import annotations

import re

import pytest
import segno
from fastapi.testclient import TestClient

from api.routes.table import qr_svg
from tests.api.helpers import TWO_PLAYER, create_game


def _named_token(client: TestClient, admin: dict[str, str], name: str, role: str) -> dict[str, str]:
    response = client.post("/v1/tokens", json={"name": name, "role": role}, headers=admin)
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def test_the_creator_gets_one_working_link_per_player(client: TestClient, admin_headers: dict[str, str]) -> None:
    keeper = _named_token(client, admin_headers, "Table desk", "scorekeeper")
    game_id = create_game(client, keeper)
    response = client.post(f"/v1/games/{game_id}/player-links", headers=keeper)
    assert response.status_code == 201, response.text
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["game_id"] == game_id
    assert [link["player_id"] for link in body["links"]] == ["P1", "P2"]
    for link in body["links"]:
        assert link["path"] == f"/games/{game_id}#token={link['token']}"
        who = client.get("/v1/whoami", headers={"Authorization": f"Bearer {link['token']}"}).json()
        assert (who["role"], who["game_id"], who["player_id"]) == ("player", game_id, link["player_id"])
    # The token acts as its player only.
    p1 = {"Authorization": f"Bearer {body['links'][0]['token']}"}
    ok = client.post(
        f"/v1/games/{game_id}/actions", json={"type": "lose_life", "player": "P1", "amount": 1}, headers=p1
    )
    assert ok.status_code == 201, ok.text
    other = client.post(
        f"/v1/games/{game_id}/actions", json={"type": "lose_life", "player": "P2", "amount": 1}, headers=p1
    )
    assert other.status_code == 403 and other.json()["code"] == "not_your_player"


def test_only_named_players_and_names_in_the_links(client: TestClient, admin_headers: dict[str, str]) -> None:
    body = {**TWO_PLAYER, "players": [{**TWO_PLAYER["players"][0], "name": "Alice"}, TWO_PLAYER["players"][1]]}
    game_id = create_game(client, admin_headers, body)
    response = client.post(f"/v1/games/{game_id}/player-links", json={"players": ["P1"]}, headers=admin_headers)
    assert response.status_code == 201, response.text
    assert [(link["player_id"], link["name"]) for link in response.json()["links"]] == [("P1", "Alice")]


def test_another_scorekeeper_is_refused_and_a_judge_is_not(client: TestClient, admin_headers: dict[str, str]) -> None:
    creator = _named_token(client, admin_headers, "Desk A", "scorekeeper")
    other = _named_token(client, admin_headers, "Desk B", "scorekeeper")
    judge = _named_token(client, admin_headers, "Jane", "judge")
    game_id = create_game(client, creator)
    before = client.get(f"/v1/games/{game_id}", headers=admin_headers).json()["version"]
    refused = client.post(f"/v1/games/{game_id}/player-links", headers=other)
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["code"] == "not_game_creator"
    assert client.post(f"/v1/games/{game_id}/player-links", headers=judge).status_code == 201
    assert client.get(f"/v1/games/{game_id}", headers=admin_headers).json()["version"] == before


@pytest.mark.parametrize("role", ["spectator", "player"])
def test_lower_roles_are_refused(client: TestClient, admin_headers: dict[str, str], role: str) -> None:
    game_id = create_game(client, admin_headers)
    bound = {"game_id": game_id, "player_id": "P1"} if role == "player" else {}
    made = client.post("/v1/tokens", json={"name": "low", "role": role, **bound}, headers=admin_headers)
    headers = {"Authorization": f"Bearer {made.json()['token']}"}
    response = client.post(f"/v1/games/{game_id}/player-links", headers=headers)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert client.post(f"/v1/games/{game_id}/player-links").status_code == 401


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"players": ["P9"]}, 404, "unknown_player"),
        ({"players": []}, 400, "invalid_field"),
        ({"players": "P1"}, 400, "invalid_field"),
        ({"player": ["P1"]}, 422, "unknown_field"),
    ],
)
def test_bad_bodies(client: TestClient, admin_headers: dict[str, str], body: object, status: int, code: str) -> None:
    game_id = create_game(client, admin_headers)
    response = client.post(f"/v1/games/{game_id}/player-links", json=body, headers=admin_headers)
    assert response.status_code == status, response.text
    assert response.json()["code"] == code


def test_unknown_game(client: TestClient, admin_headers: dict[str, str]) -> None:
    response = client.post("/v1/games/nope/player-links", headers=admin_headers)
    assert response.status_code == 404 and response.json()["code"] == "unknown_game"


def _matrix_of(svg: bytes) -> list[list[bool]]:
    """The dark modules of segno's SVG path (one "M x y.5 h n" run per horizontal stretch)."""
    text = svg.decode()
    path = re.search(r' d="([^"]+)"', text)
    assert path is not None
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for op, args in re.findall(r"([MmHhVv])([-0-9. ]+)", path.group(1)):
        nums = [float(n) for n in args.split()]
        if op == "M":
            x, y = nums
        elif op == "m":
            x, y = x + nums[0], y + nums[1]
        elif op in "hH":
            end = x + nums[0] if op == "h" else nums[0]
            dark.update((int(c), int(y)) for c in range(int(x), int(end)))
            x = end
    size = max(c for c, _ in dark) + 1
    return [[(c, r) in dark for c in range(size)] for r in range(size)]


def test_qr_code_is_svg_of_the_text(client: TestClient, admin_headers: dict[str, str]) -> None:
    text = "http://table.example/games/g1#token=secret"
    response = client.post("/v1/qr", json={"text": text}, headers=admin_headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.headers["cache-control"] == "no-store"
    assert response.content == qr_svg(text)
    expected = [[bool(m) for m in row] for row in segno.make(text, error="m", micro=False).matrix]
    got = _matrix_of(response.content)
    border = 4
    assert [row[border : border + len(expected)] for row in got[border : border + len(expected)]] == expected


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "invalid_field"),
        ({"text": ""}, 400, "invalid_field"),
        ({"text": "x" * 1001}, 400, "invalid_field"),
        ({"text": "x", "size": 3}, 422, "unknown_field"),
    ],
)
def test_qr_bad_bodies(client: TestClient, admin_headers: dict[str, str], body: object, status: int, code: str) -> None:
    response = client.post("/v1/qr", json=body, headers=admin_headers)
    assert response.status_code == status and response.json()["code"] == code


def test_both_endpoints_are_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/v1/games/{game_id}/player-links"]
    assert "image/svg+xml" in paths["/v1/qr"]["post"]["responses"]["200"]["content"]
