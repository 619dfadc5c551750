"""Issue 11, finding 4: sizes are bounded at the edge (card fields, strings, lists, players), the
timeline is paged, verify of a long game is cheap for low roles, and event streams are capped
per token and per worker (429 with Retry-After)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from api.limits import StreamSlots
from domain.commands.bodies.text import CARD_FIELD_LIMITS, MAX_LIST, MAX_PLAYERS, MAX_STRING
from tests.api.helpers import TWO_PLAYER, assert_problem, create_game, token


def _enter(oracle_text: str) -> dict[str, Any]:
    card = {
        "name": "Big Text",
        "type_line": "Creature — Text",
        "power": "1",
        "toughness": "1",
        "oracle_text": oracle_text,
    }
    return {"type": "enter", "id": "big", "card": card, "controller": "P1"}


def test_card_fields_are_bounded(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    limit = CARD_FIELD_LIMITS["oracle_text"]
    huge = client.post(f"/v1/games/{game_id}/actions", json=_enter("x" * 3_900_000), headers=admin_headers)
    body = assert_problem(huge, 422, "limit_exceeded")
    assert "card.oracle_text" in body["detail"] and str(limit) in body["detail"]
    assert_problem(
        client.post(f"/v1/games/{game_id}/actions", json=_enter("x" * (limit + 1)), headers=admin_headers),
        422,
        "limit_exceeded",
    )
    ok = client.post(f"/v1/games/{game_id}/actions", json=_enter("x" * limit), headers=admin_headers)
    assert ok.status_code == 201, ok.text
    assert client.get(f"/v1/games/{game_id}", headers=admin_headers).json()["version"] == 2


def test_strings_lists_and_players_are_bounded(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    note = client.post(
        f"/v1/games/{game_id}/actions", json={"type": "note", "text": "n" * (MAX_STRING + 1)}, headers=admin_headers
    )
    assert_problem(note, 422, "limit_exceeded")
    many = [{"id": f"P{i}"} for i in range(MAX_PLAYERS + 1)]
    players = assert_problem(
        client.post("/v1/games", json={"variant": "multiplayer", "players": many}, headers=admin_headers),
        422,
        "limit_exceeded",
    )
    assert "players" in players["detail"]
    library = {**TWO_PLAYER, "players": [{"id": "P1", "library": ["Island"] * (MAX_LIST + 1)}, {"id": "P2"}]}
    body = assert_problem(client.post("/v1/games", json=library, headers=admin_headers), 422, "limit_exceeded")
    assert "players[0].library" in body["detail"]


def test_creating_a_game_of_the_most_players_is_quick(client: TestClient, admin_headers: dict[str, str]) -> None:
    players = [{"id": f"P{i}", "library": ["Island"] * 100} for i in range(MAX_PLAYERS)]
    started = time.perf_counter()
    create_game(client, admin_headers, {"variant": "multiplayer", "players": players})
    assert time.perf_counter() - started < 5


def test_the_timeline_is_paged(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    for i in range(5):
        client.post(f"/v1/games/{game_id}/actions", json={"type": "note", "text": f"n{i}"}, headers=admin_headers)
    first = client.get(f"/v1/games/{game_id}/timeline?limit=4", headers=admin_headers).json()
    assert [line["version"] for g in first["timeline"] for line in g["lines"]] == [1, 2, 3, 4]
    assert first["next_after"] == 4
    rest = client.get(f"/v1/games/{game_id}/timeline?after=4&limit=4", headers=admin_headers).json()
    assert [line["version"] for g in rest["timeline"] for line in g["lines"]] == [5, 6]
    assert rest["next_after"] is None
    assert_problem(
        client.get(f"/v1/games/{game_id}/timeline?limit=1001", headers=admin_headers), 400, "invalid_request"
    )


def test_a_spectators_verify_starts_at_the_last_verified_checkpoint(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game_id = create_game(client, admin_headers)
    spectator = token(client, admin_headers, "spectator")
    whole = client.get(f"/v1/games/{game_id}/verify", headers=spectator).json()
    assert whole == {**whole, "ok": True, "events": 1, "checked_from": 1}
    client.post(f"/v1/games/{game_id}/actions", json={"type": "note", "text": "x"}, headers=admin_headers)
    again = client.get(f"/v1/games/{game_id}/verify", headers=spectator).json()
    assert again["ok"] and again["events"] == 2 and again["checked_from"] == 2
    judge = client.get(f"/v1/games/{game_id}/verify", headers=admin_headers).json()
    assert judge["checked_from"] == 1 and judge["head"] == again["head"]
    assert_problem(client.get(f"/v1/games/{game_id}/verify?full=true", headers=spectator), 403, "forbidden")


def test_event_streams_are_capped_per_token_and_per_worker(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    spectator = token(client, admin_headers, "spectator")
    slots: StreamSlots = client.app.state.streams  # type: ignore[attr-defined]
    token_id = client.get("/v1/tokens", headers=admin_headers).json()["tokens"][0]["id"]
    path = f"/v1/games/{game_id}/events/stream?follow=false"

    for _ in range(slots.per_key):  # streams this token holds open elsewhere
        slots.acquire(f"token:{token_id}")
    refused = client.get(path, headers=spectator)
    assert_problem(refused, 429, "too_many_streams")
    assert int(refused.headers["Retry-After"]) > 0
    assert client.get(path, headers=admin_headers).status_code == 200  # another token is not held back
    slots.release(f"token:{token_id}")
    answered = client.get(path, headers=spectator)
    assert answered.status_code == 200 and "id: 1" in answered.text
    assert slots.open(f"token:{token_id}") == slots.per_key - 1  # the finished stream gave its slot back

    for i in range(slots.total - slots.open()):
        slots.acquire(f"someone-{i % 1000}-{i}")
    assert_problem(client.get(path, headers=admin_headers), 429, "too_many_streams")
