"""Issue 11, finding 5: numbers in headers and bodies are parsed strictly (ASCII digits, bounded
length), never a 500; the exact requests of the issue."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game


def _raw(value: str) -> bytes:
    """The header's bytes: '²' is the single byte 0xB2 in ISO-8859-1, which servers decode
    headers as (so the server sees '²', and ``'²'.isdigit()`` is true)."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode()


def _asgi(client: TestClient, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes = b"") -> int:
    """One request straight into the app with these exact header bytes (the test client
    re-encodes header values, so it can't send the byte 0xB2 alone); returns the status."""
    sent: list[dict[str, Any]] = []
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "app": client.app,
        "state": {},
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def call() -> None:
        await client.app(scope, receive, send)  # type: ignore[arg-type]

    try:
        asyncio.run(call())
    except Exception:
        return 500
    return int(next(m["status"] for m in sent if m["type"] == "http.response.start"))


def test_the_exact_header_bytes_of_the_issue_are_400s(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    auth = (b"authorization", admin_headers["Authorization"].encode())
    body = b'{"type": "gain_life", "player": "P1", "amount": 1}'
    for value in (b"\xb2", b'"\xb2"', b'"' + b"9" * 5000 + b'"'):
        headers = [auth, (b"content-type", b"application/json"), (b"if-match", value)]
        assert _asgi(client, "POST", f"/v1/games/{game_id}/actions", headers, body) == 400, value[:10]
    for value in (b"\xb2", b"9" * 5000):
        headers = [auth, (b"last-event-id", value)]
        assert _asgi(client, "GET", f"/v1/games/{game_id}/events/stream?follow=false", headers) == 400, value[:10]


def _json(headers: dict[str, str]) -> dict[str, str]:
    return {**headers, "Content-Type": "application/json"}


def test_an_integer_of_more_than_4300_digits_in_a_body_is_a_400(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game_id = create_game(client, admin_headers)
    huge = "9" * 5000
    action = f'{{"type": "gain_life", "player": "P1", "amount": {huge}}}'
    assert_problem(
        client.post(f"/v1/games/{game_id}/actions", content=action, headers=_json(admin_headers)),
        400,
        "value_out_of_range",
    )
    create = f'{{"variant": "two_player", "players": [{{"id": "P1", "life": {huge}}}, {{"id": "P2"}}]}}'
    assert_problem(client.post("/v1/games", content=create, headers=_json(admin_headers)), 400, "value_out_of_range")
    nested = f'{{"actions": 1, "reason": "x", "extra": [{{"deep": -{huge}}}]}}'
    assert_problem(
        client.post(f"/v1/games/{game_id}/undo", content=nested, headers=_json(admin_headers)),
        400,
        "value_out_of_range",
    )
    # the connection is still usable: the next request on it is answered
    assert client.get(f"/v1/games/{game_id}", headers=admin_headers).status_code == 200


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_non_numbers_are_refused(client: TestClient, admin_headers: dict[str, str], value: str) -> None:
    game_id = create_game(client, admin_headers)
    action = f'{{"type": "gain_life", "player": "P1", "amount": {value}}}'
    assert_problem(
        client.post(f"/v1/games/{game_id}/actions", content=action, headers=_json(admin_headers)),
        400,
        "value_out_of_range",
    )


@pytest.mark.parametrize("value", ['"' + "9" * 5000 + '"', "9" * 20, '"²"', "²", '"\u0661\u0662"', '"+3"', '" 3"'])
def test_if_match_takes_ascii_digits_of_bounded_length(
    client: TestClient, admin_headers: dict[str, str], value: str
) -> None:
    game_id = create_game(client, admin_headers)
    response = client.post(
        f"/v1/games/{game_id}/actions",
        json={"type": "gain_life", "player": "P1", "amount": 1},
        headers={**admin_headers, "If-Match": _raw(value)},
    )
    body = assert_problem(response, 400, "invalid_if_match")
    assert len(body["detail"]) < 200


@pytest.mark.parametrize("value", ["²", "9" * 5000, "\u0661"])
def test_last_event_id_takes_ascii_digits_of_bounded_length(
    client: TestClient, admin_headers: dict[str, str], value: str
) -> None:
    game_id = create_game(client, admin_headers)
    response = client.get(
        f"/v1/games/{game_id}/events/stream?follow=false",
        headers={**admin_headers, "Last-Event-ID": _raw(value)},
    )
    assert_problem(response, 400, "invalid_last_event_id")


def test_a_plain_version_still_works(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    response = client.post(
        f"/v1/games/{game_id}/actions",
        json={"type": "gain_life", "player": "P1", "amount": 1},
        headers={**admin_headers, "If-Match": 'W/"1"'},
    )
    assert response.status_code == 201, response.text
