"""Small helpers for the API tests."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

TWO_PLAYER: dict[str, Any] = {
    "variant": "two_player",
    "tournament": {"event": "GP-Test", "round": 2, "table": 7},
    "turn": {"number": 3, "active_player": "P1", "step": "draw"},
    "players": [
        {
            "id": "P1",
            "counters": {"rad": 2},
            "library": [
                {"name": "Grizzly Bears", "type_line": "Creature — Bear", "power": "2", "toughness": "2"},
                {"name": "Forest", "type_line": "Basic Land — Forest"},
                "Island",
            ],
        },
        {"id": "P2", "library": ["Island", "Island"]},
    ],
    "battlefield": [
        {"id": "throne", "card": "Throne of Geth", "controller": "P1"},
        {"id": "thopter", "card": "Ornithopter", "controller": "P1"},
    ],
}


def create_game(client: TestClient, headers: dict[str, str], body: dict[str, Any] | None = None) -> str:
    response = client.post("/v1/games", json=body or TWO_PLAYER, headers=headers)
    assert response.status_code == 201, response.text
    game_id: str = response.json()["game_id"]
    return game_id


def token(client: TestClient, admin: dict[str, str], role: str, **bound: str) -> dict[str, str]:
    response = client.post("/v1/tokens", json={"name": f"test {role}", "role": role, **bound}, headers=admin)
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def version_of(client: TestClient, game_id: str, headers: dict[str, str]) -> int:
    response = client.get(f"/v1/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return int(response.json()["version"])


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response.headers
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert body["status"] == status
    assert body["detail"] and body["title"] and body["type"]
    return body
