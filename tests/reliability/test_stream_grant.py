"""Issue 33, finding 12: an open event stream (SSE) ends once its token is revoked or expires:
it asks again every ``GRANT_CHECK_SECONDS`` (``api.routes.audit``) and closes with an ``error``
event (``invalid_token``). Before the fix a revoked token's stream went on delivering events.
A real server (``mtg-ledger serve``) on each store, a raw connection reading the stream."""

from __future__ import annotations

import json
import socket
import time
from datetime import UTC, datetime, timedelta

from api.routes.audit import GRANT_CHECK_SECONDS
from bench.harness import ADMIN_TOKEN, ScratchStore, Server, request_sync
from tests.api.helpers import TWO_PLAYER

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def _token(server: Server, **fields: str) -> dict[str, str]:
    status, body = request_sync("127.0.0.1", server.port, "POST", "/v1/tokens", fields, ADMIN)
    assert status == 201, body
    return dict(body)


def _open_stream(server: Server, game: str, secret: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=GRANT_CHECK_SECONDS * 4)
    sock.sendall(
        f"GET /v1/games/{game}/events/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n\r\n".encode()
    )
    return sock


def _first_event(sock: socket.socket) -> bytes:
    data = b""
    while b"GameStarted" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    return data


def _read_until_closed(sock: socket.socket, deadline: float) -> bytes:
    data = b""
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            return data + b"<closed>"
        data += chunk
        if b"0\r\n\r\n" in data.split(b"event: error", 1)[-1] and b"event: error" in data:
            return data + b"<closed>"  # the chunked body's last chunk
    return data


def test_a_revoked_tokens_stream_ends(store: ScratchStore) -> None:
    with Server.ledger(store) as server:
        status, created = request_sync("127.0.0.1", server.port, "POST", "/v1/games", TWO_PLAYER, ADMIN)
        assert status == 201, created
        game = created["game_id"]
        token = _token(server, name="a spectator", role="spectator")
        sock = _open_stream(server, game, token["token"])
        with sock:
            first = _first_event(sock)
            assert first.startswith(b"HTTP/1.1 200") and b"GameStarted" in first, first[:300]
            status, _ = request_sync("127.0.0.1", server.port, "DELETE", f"/v1/tokens/{token['id']}", None, ADMIN)
            assert status == 200
            started = time.monotonic()
            rest = _read_until_closed(sock, started + GRANT_CHECK_SECONDS * 3)
        assert b"event: error" in rest and b"invalid_token" in rest and rest.endswith(b"<closed>"), rest[-400:]
        assert time.monotonic() - started <= GRANT_CHECK_SECONDS * 2


def test_an_expired_tokens_stream_ends(store: ScratchStore) -> None:
    with Server.ledger(store) as server:
        status, created = request_sync("127.0.0.1", server.port, "POST", "/v1/games", TWO_PLAYER, ADMIN)
        assert status == 201, created
        game = created["game_id"]
        soon = (datetime.now(UTC) + timedelta(seconds=2)).isoformat(timespec="microseconds").replace("+00:00", "Z")
        token = _token(server, name="briefly", role="spectator", expires_at=soon)
        with _open_stream(server, game, token["token"]) as sock:
            assert _first_event(sock).startswith(b"HTTP/1.1 200")
            rest = _read_until_closed(sock, time.monotonic() + GRANT_CHECK_SECONDS * 3)
        assert b"event: error" in rest and b"expired" in rest and rest.endswith(b"<closed>"), rest[-400:]
        assert json.loads(rest.split(b"data: ")[-1].split(b"\n")[0])["code"] == "invalid_token"
