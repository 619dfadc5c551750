"""Issue 11, finding 7: tokens may expire, are listed (admin; never secrets) with their last use,
and are revoked at once by ``DELETE /v1/tokens/{id}``."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, token


def _make(client: TestClient, admin: dict[str, str], **body: object) -> dict[str, object]:
    response = client.post("/v1/tokens", json={"name": "Jane (L2)", "role": "judge", **body}, headers=admin)
    assert response.status_code == 201, response.text
    made: dict[str, object] = response.json()
    return made


def test_tokens_are_listed_without_secrets_with_their_last_use(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    made = _make(client, admin_headers)
    secret = str(made["token"])
    assert client.get("/v1/whoami", headers={"Authorization": f"Bearer {secret}"}).status_code == 200

    response = client.get("/v1/tokens", headers=admin_headers)

    assert response.status_code == 200
    assert secret not in response.text
    [listed] = response.json()["tokens"]
    assert listed["id"] == made["id"] and listed["name"] == "Jane (L2)" and listed["role"] == "judge"
    assert listed["last_used_at"] is not None and listed["revoked_at"] is None and listed["expires_at"] is None
    assert set(listed) == {
        "id", "name", "role", "game_id", "player_id", "issued_at", "expires_at", "revoked_at", "last_used_at"
    }  # fmt: skip


def test_only_admins_list_or_revoke(client: TestClient, admin_headers: dict[str, str]) -> None:
    judge = token(client, admin_headers, "judge")
    assert_problem(client.get("/v1/tokens", headers=judge), 403, "forbidden")
    made = _make(client, admin_headers)
    assert_problem(client.delete(f"/v1/tokens/{made['id']}", headers=judge), 403, "forbidden")


def test_a_revoked_token_is_refused_at_once(client: TestClient, admin_headers: dict[str, str]) -> None:
    made = _make(client, admin_headers)
    headers = {"Authorization": f"Bearer {made['token']}"}
    assert client.get("/v1/whoami", headers=headers).status_code == 200

    response = client.delete(f"/v1/tokens/{made['id']}", headers=admin_headers)

    assert response.status_code == 200, response.text
    assert response.json()["revoked_at"] is not None
    body = assert_problem(client.get("/v1/whoami", headers=headers), 401, "invalid_token")
    assert "revoked" in body["detail"]
    assert client.delete(f"/v1/tokens/{made['id']}", headers=admin_headers).status_code == 200  # again: no-op
    assert_problem(client.delete("/v1/tokens/0123456789abcdef", headers=admin_headers), 404, "unknown_token")


def test_expiry(client: TestClient, admin_headers: dict[str, str]) -> None:
    assert_problem(
        client.post(
            "/v1/tokens",
            json={"name": "x", "role": "judge", "expires_at": "2001-01-01T00:00:00Z"},
            headers=admin_headers,
        ),
        400,
        "invalid_field",
    )
    assert_problem(
        client.post("/v1/tokens", json={"name": "x", "role": "judge", "expires_at": "tomorrow"}, headers=admin_headers),
        400,
        "invalid_field",
    )
    made = _make(client, admin_headers, expires_at="2999-01-01T01:00:00+01:00")
    assert made["expires_at"] == "2999-01-01T00:00:00.000000Z"
    headers = {"Authorization": f"Bearer {made['token']}"}
    assert client.get("/v1/whoami", headers=headers).status_code == 200
    client.app.state.service.tokens._now = lambda: "2999-01-01T00:00:00.000001Z"  # type: ignore[attr-defined]
    body = assert_problem(client.get("/v1/whoami", headers=headers), 401, "invalid_token")
    assert "expired" in body["detail"]
