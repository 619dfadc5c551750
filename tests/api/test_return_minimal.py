"""``Prefer: return=minimal`` on actions (docs/api.md, Headers): the answer leaves the state out;
without it (every v1 client) the answer is unchanged."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.presenters import prefers_minimal
from tests.api.helpers import create_game, version_of

GAIN = {"type": "gain_life", "player": "P1", "amount": 2}


def test_minimal_answer_has_the_events_and_no_state(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    version = version_of(client, game, admin_headers)
    response = client.post(
        f"/v1/games/{game}/actions", json=GAIN, headers={**admin_headers, "Prefer": "return=minimal"}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert "state" not in body
    assert body["version"] == version + 1
    assert [e["type"] for e in body["events"]] == ["LifeGained"]
    assert response.headers["Preference-Applied"] == "return=minimal"
    # Stored all the same: the state read back has the action.
    state = client.get(f"/v1/games/{game}", headers=admin_headers).json()["state"]
    assert state["players"]["P1"]["life"] == 22


def test_default_answer_keeps_the_state(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    response = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=admin_headers)
    assert response.status_code == 201
    assert response.json()["state"]["players"]["P1"]["life"] == 22
    assert "preference-applied" not in response.headers


def test_idempotent_replay_returns_the_first_answer_as_it_was(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game = create_game(client, admin_headers)
    headers = {**admin_headers, "Idempotency-Key": "minimal-1"}
    first = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    again = client.post(f"/v1/games/{game}/actions", json=GAIN, headers={**headers, "Prefer": "return=minimal"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()  # with the state, as first answered
    assert "preference-applied" not in again.headers


@pytest.mark.parametrize(
    ("header", "minimal"),
    [
        ("return=minimal", True),
        ("Return=Minimal", True),
        ('return="minimal"', True),
        ("respond-async, return=minimal; foo=bar", True),
        ("return=representation", False),
        ("minimal", False),
        ("", False),
        (None, False),
    ],
)
def test_prefer_header_parsing(header: str | None, minimal: bool) -> None:
    assert prefers_minimal(header) is minimal
