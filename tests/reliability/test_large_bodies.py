"""Issue 33, finding 10: a body over the 4 MiB limit is refused without being read whole
(``api.deps.raw_body``). Before the fix the server read a 200 MiB upload into memory (RSS +370
MiB) and only then answered ``413``. Now a ``Content-Length`` over the limit is answered at once,
before a byte of the body is sent, and a chunked body (no length) is read only up to the limit.
A real server (``mtg-ledger serve``) on each store; its RSS is measured before and after."""

from __future__ import annotations

import socket
import time

from bench.harness import ADMIN_TOKEN, ScratchStore, Server, rss_kib

MIB = 1024 * 1024
UPLOAD = 200 * MIB


def _head(port: int, extra: str) -> bytes:
    return (
        f"POST /v1/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {ADMIN_TOKEN}\r\n"
        f"Content-Type: application/json\r\n{extra}\r\n"
    ).encode()


def _answer(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def _worker_rss(server: Server) -> int:
    return sum(rss_kib(pid) for pid in server.pids())


def test_a_content_length_over_the_limit_is_413_before_the_body_is_sent(store: ScratchStore) -> None:
    with Server.ledger(store) as server, socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(_head(server.port, f"Content-Length: {UPLOAD}\r\n"))
        started = time.monotonic()
        answer = _answer(sock)  # no byte of the body sent: the old server waited for all 200 MiB
        assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
        assert b"payload_too_large" in answer or b"problem+json" in answer, answer[:600]
        assert time.monotonic() - started < 5


def test_a_chunked_body_is_read_only_up_to_the_limit(store: ScratchStore) -> None:
    with Server.ledger(store) as server:
        before = _worker_rss(server)
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(_head(server.port, "Transfer-Encoding: chunked\r\n"))
            piece = b"[" + b" " * (MIB - 2) + b"]"
            sent = 0
            try:
                while sent < UPLOAD:
                    sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
                    sent += len(piece)
                sock.sendall(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server stopped reading at the limit and closed the connection
            try:
                answer = _answer(sock)
            except ConnectionResetError:
                answer = b""
        after = _worker_rss(server)
        grown_mib = (after - before) / 1024
        print(f"chunked upload: {sent / MIB:.0f} MiB sent, server RSS {before / 1024:.0f} -> {after / 1024:.0f} MiB")
        assert answer == b"" or answer.startswith(b"HTTP/1.1 413"), answer[:300]
        assert sent < UPLOAD or answer.startswith(b"HTTP/1.1 413")
        assert grown_mib < 64, f"the server grew by {grown_mib:.0f} MiB reading a body over the limit"
