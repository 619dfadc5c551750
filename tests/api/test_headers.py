"""If-Match, Idempotency-Key and the SSE stream (docs/api.md, Actions and Undo, replay and audit)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game, version_of

GAIN = {"type": "gain_life", "player": "P1", "amount": 1}


def test_if_match_current_version_is_accepted(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    version = version_of(client, game, admin_headers)
    response = client.post(
        f"/v1/games/{game}/actions", json=GAIN, headers={**admin_headers, "If-Match": f'"{version}"'}
    )
    assert response.status_code == 201
    assert response.json()["version"] == version + 1


def test_if_match_stale_version_is_409_and_stores_nothing(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    version = version_of(client, game, admin_headers)
    client.post(f"/v1/games/{game}/actions", json=GAIN, headers=admin_headers)
    response = client.post(
        f"/v1/games/{game}/actions", json=GAIN, headers={**admin_headers, "If-Match": f'"{version}"'}
    )
    assert_problem(response, 409, "version_conflict")
    assert version_of(client, game, admin_headers) == version + 1


def test_if_match_garbage_is_400(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    response = client.post(f"/v1/games/{game}/actions", json=GAIN, headers={**admin_headers, "If-Match": "soon"})
    assert_problem(response, 400, "invalid_if_match")


def test_idempotency_same_key_same_body_replays_first_response(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game = create_game(client, admin_headers)
    headers = {**admin_headers, "Idempotency-Key": "k-1"}
    first = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    second = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert version_of(client, game, admin_headers) == first.json()["version"]
    life = client.get(f"/v1/games/{game}", headers=admin_headers).json()["state"]["players"]["P1"]["life"]
    assert life == 21


def test_idempotency_same_key_other_body_is_409(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    headers = {**admin_headers, "Idempotency-Key": "k-2"}
    client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    before = version_of(client, game, admin_headers)
    other = client.post(f"/v1/games/{game}/actions", json={**GAIN, "amount": 5}, headers=headers)
    assert_problem(other, 409, "idempotency_key_reused")
    assert version_of(client, game, admin_headers) == before


def test_idempotency_survives_a_restart(client: TestClient, admin_headers: dict[str, str], settings: object) -> None:
    from api.app import create_app

    game = create_game(client, admin_headers)
    headers = {**admin_headers, "Idempotency-Key": "durable"}
    first = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers).json()
    with TestClient(create_app(settings)) as again:  # type: ignore[arg-type]
        replay = again.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
        assert replay.json() == first
        assert version_of(again, game, admin_headers) == first["version"]


def _sse_events(text: str) -> list[dict[str, str]]:
    out = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key] = value.strip()
        if "id" in fields:
            out.append(fields)
    return out


def test_sse_sends_every_event_with_its_version(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    client.post(f"/v1/games/{game}/actions", json=GAIN, headers=admin_headers)
    response = client.get(f"/v1/games/{game}/events/stream", params={"follow": "false"}, headers=admin_headers)
    assert response.headers["content-type"].startswith("text/event-stream")
    events = _sse_events(response.text)
    head = version_of(client, game, admin_headers)
    assert [int(e["id"]) for e in events] == list(range(1, head + 1))
    assert json.loads(events[-1]["data"])["type"] == "LifeGained"


def test_sse_resumes_after_last_event_id(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    for _ in range(3):
        client.post(f"/v1/games/{game}/actions", json=GAIN, headers=admin_headers)
    response = client.get(
        f"/v1/games/{game}/events/stream", params={"follow": "false"}, headers={**admin_headers, "Last-Event-ID": "2"}
    )
    ids = [int(e["id"]) for e in _sse_events(response.text)]
    assert ids and ids[0] == 3
    assert ids == list(range(3, version_of(client, game, admin_headers) + 1))


def test_sse_bad_last_event_id(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    response = client.get(
        f"/v1/games/{game}/events/stream", params={"follow": "false"}, headers={**admin_headers, "Last-Event-ID": "x"}
    )
    assert_problem(response, 400, "invalid_last_event_id")


def test_idempotent_retry_after_a_lost_response_is_answered_from_the_record(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """The action was stored with its key but the process died before the response was kept:
    the retry gets the stored action's response, and nothing is stored twice."""
    game = create_game(client, admin_headers)
    service = client.app.state.service  # type: ignore[attr-defined]
    original = service.remember_response

    def crash(*args: object) -> None:
        raise RuntimeError("crash before remember")

    service.remember_response = crash
    headers = {**admin_headers, "Idempotency-Key": "lost-response"}
    try:
        crashing = TestClient(client.app, raise_server_exceptions=False)
        crashed = crashing.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
        assert crashed.status_code == 500
        assert crashed.json()["code"] == "internal_error"
    finally:
        service.remember_response = original
    stored = version_of(client, game, admin_headers)
    retry = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    assert retry.status_code == 201, retry.text
    assert retry.json()["version"] == stored
    assert [e["type"] for e in retry.json()["events"]] == ["LifeGained"]
    assert version_of(client, game, admin_headers) == stored
    again = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    assert again.json() == retry.json()


def test_idempotency_same_json_with_keys_reordered_is_the_same_request(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game = create_game(client, admin_headers)
    headers = {**admin_headers, "Idempotency-Key": "reordered", "Content-Type": "application/json"}
    first = client.post(
        f"/v1/games/{game}/actions", content=b'{"type":"gain_life","player":"P1","amount":1}', headers=headers
    )
    again = client.post(
        f"/v1/games/{game}/actions", content=b'{ "amount": 1, "player": "P1", "type": "gain_life" }', headers=headers
    )
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
