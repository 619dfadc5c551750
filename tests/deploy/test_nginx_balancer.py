"""The example load balancer (deploy/nginx/mtg-ledger.conf; docs/operations.md, Several workers)
in front of two real ledger servers on one store: every request of one game (its actions, its
reads, its page, its live stream) reaches one worker, chosen by a consistent hash of the game id
in the path, and different games spread over both.

The file is served as it is, with only its ports swapped for free ones; which worker served a
request is read from the workers' own access logs. Skipped when nginx is not installed (``make
lb-deps`` installs Debian's package).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass

import pytest

from bench.harness import ROOT, Server, free_port, scratch_store
from tests.reliability.support import Api


def _nginx() -> str | None:
    found = shutil.which("nginx")
    if found is None and os.access("/usr/sbin/nginx", os.X_OK):
        found = "/usr/sbin/nginx"  # Debian's, off a non-root PATH
    return found


NGINX = _nginx()
pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed: run `make lb-deps` (Debian's nginx)")

CONFIG = ROOT / "deploy" / "nginx" / "mtg-ledger.conf"
GAME = {"variant": "two_player", "players": [{"id": "P1"}, {"id": "P2"}]}
GAIN = {"type": "gain_life", "player": "P1", "amount": 1}
ACCESS = re.compile(r'"(?:GET|POST|PUT|PATCH|DELETE|HEAD) (\S+) HTTP/1\.[01]"')
"""A request line in uvicorn's access log."""


def balancer_config(listen: int, workers: list[int]) -> str:
    """deploy/nginx/mtg-ledger.conf with the test's ports: the rest of the file is served as
    it is (a change of its shape fails here rather than testing something else)."""
    text = CONFIG.read_text(encoding="utf-8")
    for example, port in zip((8001, 8002), workers, strict=True):
        text, count = re.subn(rf"\bserver 127\.0\.0\.1:{example}\b", f"server 127.0.0.1:{port}", text)
        assert count == 1, f"expected one upstream server 127.0.0.1:{example} in {CONFIG}"
    text, count = re.subn(r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{listen};", text, flags=re.MULTILINE)
    assert count == 1, f"expected one 'listen 80;' in {CONFIG}"
    return text


@dataclass
class Balanced:
    """nginx on ``port`` in front of ``workers``."""

    port: int
    workers: list[Server]

    def served(self) -> dict[str, list[int]]:
        """Each request path the workers logged -> the workers (by index) that served it."""
        found: dict[str, list[int]] = {}
        for index, worker in enumerate(self.workers):
            assert worker.log_path is not None
            for path in ACCESS.findall(worker.log_path.read_text(encoding="utf-8", errors="replace")):
                found.setdefault(path, []).append(index)
        return found


def _wait_for(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        api = Api(port, timeout=2.0)
        try:
            status, _, _ = api.request("GET", "/v1/health")
            if status == 200:
                return
        except OSError:
            pass
        finally:
            api.close()
        assert time.monotonic() < deadline, f"nothing answered on port {port}"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def balanced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Balanced]:
    assert NGINX is not None
    with ExitStack() as stack:
        store = stack.enter_context(scratch_store("sqlite", prefix="lb"))
        # One after the other: the first creates the tables, the second finds them.
        workers = [stack.enter_context(Server.ledger(store, 1)) for _ in range(2)]
        front = free_port()
        home = tmp_path_factory.mktemp("nginx")
        (home / "mtg-ledger.conf").write_text(balancer_config(front, [w.port for w in workers]), encoding="utf-8")
        temp = " ".join(
            f"{kind}_temp_path {home / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (home / "nginx.conf").write_text(
            "daemon off;\nworker_processes 1;\n"
            + ("user root;\n" if os.geteuid() == 0 else "")  # its worker writes the temp files here
            + f"pid {home / 'nginx.pid'};\nerror_log {home / 'error.log'} warn;\n"
            + "events { worker_connections 256; }\n"
            # A site-wide gzip for text, as many sites have it: the stream must stay out of it.
            + f"http {{ access_log {home / 'access.log'}; {temp} gzip on; gzip_http_version 1.0; "
            + "gzip_types text/event-stream; "
            + f"include {home / 'mtg-ledger.conf'}; }}\n",
            encoding="utf-8",
        )
        with open(home / "stderr.log", "wb") as stderr:
            nginx = subprocess.Popen(
                [NGINX, "-p", str(home), "-c", str(home / "nginx.conf"), "-e", str(home / "error.log")],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            )
        try:
            try:
                _wait_for(front)
            except AssertionError:
                said = "".join((home / log).read_text(errors="replace") for log in ("stderr.log", "error.log"))
                raise AssertionError(f"nginx did not start: {said}") from None
            yield Balanced(front, workers)
        finally:
            nginx.terminate()
            with suppress(subprocess.TimeoutExpired):
                nginx.wait(timeout=10)
            if nginx.poll() is None:
                nginx.kill()
                nginx.wait(timeout=10)


def test_every_request_of_a_game_reaches_one_worker_and_games_spread(balanced: Balanced) -> None:
    api = Api(balanced.port)
    try:
        games = [api.ok("POST", "/v1/games", GAME, status=201)["game_id"] for _ in range(20)]
        for game in games:
            for _ in range(3):
                api.ok("POST", f"/v1/games/{game}/actions", GAIN, status=201)
            assert api.ok("GET", f"/v1/games/{game}")["state"]["players"]["P1"]["life"] == 23
            api.ok("GET", f"/v1/games/{game}/events")
            status, _, _ = api.request("GET", f"/v1/games/{game}/events/stream?follow=false")
            assert status == 200
            status, _, _ = api.request("GET", f"/games/{game}")  # the page
            assert status == 200
    finally:
        api.close()
    # Seven requests per game; a log line may trail its answer by a moment on a busy machine.
    deadline = time.monotonic() + 10
    served = balanced.served()
    while sum(len(w) for p, w in served.items() if "/games/" in p) < 7 * len(games) and time.monotonic() < deadline:
        time.sleep(0.1)
        served = balanced.served()
    worker_of: dict[str, int] = {}
    for game in games:
        of_game = re.compile(rf"/(?:v1/)?games/{re.escape(game)}(?:[/?]|$)")
        mine = {path: who for path, who in served.items() if of_game.match(path)}
        assert len(mine) == 5, f"{game}: expected its 5 paths in the workers' logs, got {sorted(mine)}"
        workers = {w for who in mine.values() for w in who}
        assert len(workers) == 1, f"{game}'s requests reached workers {sorted(workers)}: {mine}"
        assert sum(len(who) for who in mine.values()) == 7  # 3 actions, 4 other requests
        worker_of[game] = workers.pop()
    # 20 games on a hash ring of two workers: all on one would be a chance of about 1 in 500,000.
    assert sorted(set(worker_of.values())) == [0, 1], worker_of


def _read_event(sock: socket.socket, buffer: bytearray, timeout: float) -> dict[str, object]:
    """The next ``data:`` line's JSON from a Server-Sent Events stream (keep-alives skipped)."""
    sock.settimeout(timeout)
    while True:
        while b"\n" in buffer:
            end = buffer.index(b"\n")
            line = bytes(buffer[:end]).rstrip(b"\r")
            del buffer[: end + 1]
            if line.startswith(b"data: "):
                parsed: dict[str, object] = json.loads(line[len(b"data: ") :])
                return parsed
        chunk = sock.recv(65536)
        assert chunk, "the stream ended"
        buffer += chunk


def test_a_live_stream_through_the_balancer_gets_each_event_as_it_is_stored(balanced: Balanced) -> None:
    """Server-Sent Events pass through unbuffered and uncompressed, even under a site-wide gzip
    (the test's http block has one): an action stored while the stream is open arrives on it
    at once, not when a buffer fills or the stream ends."""
    api = Api(balanced.port)
    try:
        game = api.ok("POST", "/v1/games", GAME, status=201)["game_id"]
        sock = socket.create_connection(("127.0.0.1", balanced.port), timeout=10)
        try:
            sock.sendall(  # HTTP/1.0: no chunked framing around the lines
                f"GET /v1/games/{game}/events/stream HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                f"Authorization: {api.headers['Authorization']}\r\nAccept: text/event-stream\r\n"
                "Accept-Encoding: gzip\r\n\r\n".encode()
            )
            buffer = bytearray()
            started = _read_event(sock, buffer, timeout=10)  # the stored GameStarted (and setup)
            assert started["type"] == "GameStarted"
            version = api.ok("POST", f"/v1/games/{game}/actions", GAIN, status=201)["version"]
            deadline = time.monotonic() + 5
            while True:
                left = deadline - time.monotonic()
                assert left > 0, "the action's event did not arrive within 5 s"
                event = _read_event(sock, buffer, timeout=left)
                if event["version"] == version:
                    assert event["type"] == "LifeGained"
                    break
        finally:
            sock.close()
    finally:
        api.close()
