"""Local webhook receivers for the webhook tests: one that answers a status (and a
``Location``), one that drips its answer a byte at a time, one that hangs up at once."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LOOPBACK = ("127.0.0.0/8",)
"""The receivers listen on loopback: allowed as an operator would (``allow_private``)."""


class Receiver:
    """Records each POST (headers and body) and answers ``status`` (with ``location``)."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 200
        self.location: str | None = None
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append(({k: v for k, v in self.headers.items()}, body))
                self.send_response(receiver.status)
                if receiver.location is not None:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait_for(self, count: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.received) < count:
            assert time.monotonic() < deadline, f"received {len(self.received)} of {count}"
            time.sleep(0.02)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class RawListener:
    """A TCP listener that, for each connection, runs ``behave(conn)`` on a thread: drip an
    answer slowly, or hang up without one."""

    def __init__(self, behave: str, interval: float = 0.3) -> None:
        self.behave = behave
        self.interval = interval
        self.connections = 0
        self._stop = threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            if self.behave == "hang_up":
                return
            # "drip": one byte of a never-ending status line every ``interval`` seconds, so no
            # single read ever waits long (a per-read timeout never fires).
            try:
                for byte in b"HTTP/1.1 200 OK" * 100:
                    if self._stop.wait(self.interval):
                        return
                    conn.sendall(bytes([byte]))
            except OSError:
                return

    def close(self) -> None:
        self._stop.set()
        self.sock.close()
        self.thread.join(timeout=5)


@contextmanager
def receiving() -> Iterator[Receiver]:
    created = Receiver()
    try:
        yield created
    finally:
        created.close()
