"""Authorization matrix (docs/api.md, Authentication and roles): every role against every endpoint."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import create_game, token

ROLES = ("none", "spectator", "player", "scorekeeper", "judge", "admin")
RANK = {role: i for i, role in enumerate(ROLES)}


def _allowed(minimum: str, role: str) -> bool:
    return RANK[role] >= RANK[minimum]


Call = Callable[[TestClient, str, dict[str, str]], Any]

# (name, minimum role, call); each call is legal by the rules, so only authorization decides.
ENDPOINTS: list[tuple[str, str, Call]] = [
    (
        "POST /v1/tokens",
        "admin",
        lambda c, g, h: c.post("/v1/tokens", json={"name": "x", "role": "spectator"}, headers=h),
    ),
    ("GET /v1/cards/{name}", "spectator", lambda c, g, h: c.get("/v1/cards/Forest", headers=h)),
    (
        "POST /v1/games",
        "scorekeeper",
        lambda c, g, h: c.post(
            "/v1/games", json={"variant": "two_player", "players": [{"id": "A"}, {"id": "B"}]}, headers=h
        ),
    ),
    ("GET /v1/games", "spectator", lambda c, g, h: c.get("/v1/games", headers=h)),
    ("GET /v1/games/{id}", "spectator", lambda c, g, h: c.get(f"/v1/games/{g}", headers=h)),
    (
        "GET /v1/games/{id}?version",
        "spectator",
        lambda c, g, h: c.get(f"/v1/games/{g}", params={"version": 1}, headers=h),
    ),
    (
        "POST actions (as P1)",
        "player",
        lambda c, g, h: c.post(
            f"/v1/games/{g}/actions", json={"type": "gain_life", "player": "P1", "amount": 1}, headers=h
        ),
    ),
    (
        "POST undo",
        "judge",
        lambda c, g, h: c.post(f"/v1/games/{g}/undo", json={"to_version": 1, "reason": "matrix"}, headers=h),
    ),
    ("GET events", "spectator", lambda c, g, h: c.get(f"/v1/games/{g}/events", headers=h)),
    (
        "GET events/stream",
        "spectator",
        lambda c, g, h: c.get(f"/v1/games/{g}/events/stream", params={"follow": "false"}, headers=h),
    ),
    ("GET timeline", "spectator", lambda c, g, h: c.get(f"/v1/games/{g}/timeline", headers=h)),
    ("GET verify", "spectator", lambda c, g, h: c.get(f"/v1/games/{g}/verify", headers=h)),
    ("GET export", "judge", lambda c, g, h: c.get(f"/v1/games/{g}/export", headers=h)),
    (
        "POST import",
        "admin",
        lambda c, g, h: c.post(
            "/v1/games/import",
            content=c.get(f"/v1/games/{g}/export", headers=h).content or b"x",
            headers={**h, "Content-Type": "application/x-ndjson"},
        ),
    ),
]


@pytest.fixture
def tokens(client: TestClient, admin_headers: dict[str, str]) -> tuple[str, dict[str, dict[str, str]]]:
    game = create_game(client, admin_headers)
    # One action on the record, so that an undo is possible.
    client.post(
        f"/v1/games/{game}/actions", json={"type": "gain_life", "player": "P2", "amount": 1}, headers=admin_headers
    )
    headers = {
        "none": {},
        "spectator": token(client, admin_headers, "spectator"),
        "player": token(client, admin_headers, "player", game_id=game, player_id="P1"),
        "scorekeeper": token(client, admin_headers, "scorekeeper"),
        "judge": token(client, admin_headers, "judge"),
        "admin": admin_headers,
    }
    return game, headers


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "minimum", "call"), ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_role_matrix(
    client: TestClient,
    admin_headers: dict[str, str],
    tokens: tuple[str, dict[str, dict[str, str]]],
    role: str,
    name: str,
    minimum: str,
    call: Call,
) -> None:
    game, headers = tokens
    if name == "POST import":
        # Import needs an export (judge+) and a fresh id: export as admin, then rename the game.
        lines = client.get(f"/v1/games/{game}/export", headers=admin_headers).text.splitlines()
        body = "\n".join(lines).replace(f'"{game}"', f'"copy-{role}"').encode()
        response = client.post(
            "/v1/games/import", content=body, headers={**headers[role], "Content-Type": "application/x-ndjson"}
        )
        if _allowed(minimum, role):
            # The renamed copy no longer matches its hash chain: refused as tampered, but authorised.
            assert response.status_code in (201, 422), response.text
            return
    else:
        response = call(client, game, headers[role])
    if _allowed(minimum, role):
        assert response.status_code < 400, f"{role} on {name}: {response.status_code} {response.text}"
    else:
        expected = 401 if role == "none" else 403
        assert response.status_code == expected, f"{role} on {name}: {response.status_code} {response.text}"
        assert response.headers["content-type"].startswith("application/problem+json")


def test_health_needs_no_token(client: TestClient) -> None:
    assert client.get("/v1/health").status_code == 200


def test_player_cannot_act_for_another_player(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    response = client.post(
        f"/v1/games/{game}/actions", json={"type": "gain_life", "player": "P2", "amount": 1}, headers=p1
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_player"


def test_player_cannot_act_in_another_game(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    other = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    response = client.post(
        f"/v1/games/{other}/actions", json={"type": "gain_life", "player": "P1", "amount": 1}, headers=p1
    )
    assert response.status_code == 403
    assert response.json()["code"] == "wrong_game"


def test_unknown_token_is_401(client: TestClient) -> None:
    response = client.get("/v1/games", headers={"Authorization": "Bearer nope"})
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    # The hint for the usual cause: a token made against another store (issue 10).
    assert "store" in response.json()["detail"]


def test_events_record_the_actor(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    judge = token(client, admin_headers, "judge")
    client.post(f"/v1/games/{game}/actions", json={"type": "note", "text": "hello"}, headers=judge)
    events = client.get(f"/v1/games/{game}/events", headers=admin_headers).json()["events"]
    assert events[0]["actor"] == {"name": "admin", "role": "admin"}
    assert events[-1]["type"] == "NoteAdded"
    # Issue 38: a stored token's public id too (additive: the environment's admin token has none).
    listed = {t["name"]: t["id"] for t in client.get("/v1/tokens", headers=admin_headers).json()["tokens"]}
    assert events[-1]["actor"] == {"name": "test judge", "role": "judge", "token": listed["test judge"]}


def test_public_reads_allow_anonymous_reads_only(tmp_path: Any) -> None:
    from api.app import create_app
    from api.settings import Settings

    settings = Settings(
        _env_file=None,
        database_url=f"sqlite:///{tmp_path / 'p.sqlite3'}",
        admin_token="adm",
        public_reads=True,
        catalog_path=tmp_path / "cards.json",
    )
    with TestClient(create_app(settings)) as client:
        game = create_game(client, {"Authorization": "Bearer adm"})
        assert client.get(f"/v1/games/{game}").status_code == 200
        assert client.get(f"/v1/games/{game}").json()["state"]["players"]["P1"]["library"] is None
        assert client.post(f"/v1/games/{game}/actions", json={"type": "advance"}).status_code == 401


def test_whoami_names_the_token(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    assert client.get("/v1/whoami", headers=p1).json() == {
        "name": "test player",
        "role": "player",
        "game_id": game,
        "player_id": "P1",
    }
    assert client.get("/v1/whoami", headers=admin_headers).json()["role"] == "admin"
    assert client.get("/v1/whoami").status_code == 401


def test_player_token_decisions_are_its_own_not_your_priority(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """A player's choices are that player's (CR 601.2, 608.2): P2 can't make P1's proliferate
    choices, and can't end P1's step; both are 422 not_your_priority and store nothing."""
    game = create_game(client, admin_headers)
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    advance = client.post(f"/v1/games/{game}/actions", json={"type": "advance"}, headers=p2)
    assert advance.status_code == 422 and advance.json()["code"] == "not_your_priority"
    activate = {
        "type": "activate",
        "player": "P1",
        "permanent": "throne",
        "ability": 0,
        "costs": {"sacrifice": ["thopter"]},
    }
    assert client.post(f"/v1/games/{game}/actions", json=activate, headers=admin_headers).status_code == 201
    version = client.get(f"/v1/games/{game}", headers=admin_headers).json()["version"]
    choose = {"type": "resolve", "choices": {"proliferate": []}}
    refused = client.post(f"/v1/games/{game}/actions", json=choose, headers=p2)
    assert refused.status_code == 422 and refused.json()["code"] == "not_your_priority"
    assert client.get(f"/v1/games/{game}", headers=admin_headers).json()["version"] == version
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    assert client.post(f"/v1/games/{game}/actions", json=choose, headers=p1).status_code == 201


def test_an_idempotent_replay_is_only_shown_to_the_same_caller(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """Keys are scoped to the token: another token's retry with the same key is a new request,
    so it never sees a response holding hidden information it may not see."""
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    body = {"type": "gain_life", "player": "P1", "amount": 1}
    first = client.post(f"/v1/games/{game}/actions", json=body, headers={**admin_headers, "Idempotency-Key": "k"})
    assert first.json()["state"]["players"]["P2"]["library"] is not None
    other = client.post(f"/v1/games/{game}/actions", json=body, headers={**p1, "Idempotency-Key": "k"})
    assert other.status_code == 201
    assert "Idempotent-Replayed" not in other.headers
    assert other.json()["state"]["players"]["P2"]["library"] is None
