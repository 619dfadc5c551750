"""The benchmarks' C load generator (``bench/loadgen.c``): what it measures must be true.

It is driven against a small HTTP server of the test's own (keep-alive, one thread per
connection), which records each request's path and the connection it came on.
"""

from __future__ import annotations

import socket
import socketserver
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from bench.loadgen import LEDGER_PATH, closed_loop, open_loop


@dataclass
class Seen:
    delay: float = 0.0
    """Seconds each answer takes."""
    fail: str = "never-fails"
    """Paths holding this answer 500."""
    requests: list[tuple[int, str]] = field(default_factory=list)
    """(client port, path) of every request, in arrival order."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    serial: threading.Lock = field(default_factory=threading.Lock)
    """Held while answering: one request at a time over all connections."""


class Handler(socketserver.BaseRequestHandler):
    seen: Seen

    def handle(self) -> None:
        conn: socket.socket = self.request
        buffer = b""
        while True:
            while b"\r\n\r\n" not in buffer:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                buffer += chunk
            head, _, buffer = buffer.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            length = next(int(v) for k, _, v in (x.partition(": ") for x in lines[1:]) if k.lower() == "content-length")
            while len(buffer) < length:
                buffer += conn.recv(65536)
            buffer = buffer[length:]
            path = lines[0].split(" ")[1]
            with self.seen.lock:
                self.seen.requests.append((self.client_address[1], path))
            with self.seen.serial:
                time.sleep(self.seen.delay)
            status = b"500 Internal Server Error" if self.seen.fail in path else b"201 Created"
            conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}")


@pytest.fixture
def server() -> Iterator[tuple[int, Seen]]:
    seen = Seen()
    handler = type("BoundHandler", (Handler,), {"seen": seen})
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as httpd:
        httpd.daemon_threads = True
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        yield httpd.server_address[1], seen
        httpd.shutdown()


GAMES = [f"g{i}" for i in range(10)]


def test_open_loop_sends_every_action_at_its_rate_over_the_games(server: tuple[int, Seen]) -> None:
    port, seen = server
    step = open_loop(port, GAMES, LEDGER_PATH, rate=200, seconds=1.0, connections=8, offset=5)
    assert len(step.latencies) == 200 and step.errors == 0
    assert 0.95 <= step.seconds < 2.0 and step.sustained(50)
    # Action offset + i goes to game (offset + i) mod 10: the first is g5, then g6, ...
    paths = [p for _, p in seen.requests]
    assert sorted(paths) == sorted(f"/v1/games/g{(5 + i) % 10}/actions" for i in range(200))
    assert len({port for port, _ in seen.requests}) <= 8  # kept-alive: never more than the limit
    assert 0 < step.client_cpu < 1.0


def test_open_loop_counts_latency_from_the_scheduled_time(server: tuple[int, Seen]) -> None:
    """No coordinated omission: a server answering 50/s offered 100/s builds a queue, and the
    queue is charged to it. From the send time every answer would take about 20 ms."""
    port, seen = server
    seen.delay = 0.02
    step = open_loop(port, GAMES, LEDGER_PATH, rate=100, seconds=1.0, connections=4)
    assert len(step.latencies) == 100
    # The last action waits behind about 50 others: ~1 s late, scheduled at 1 s, answered at ~2 s.
    assert step.ms(99) > 700
    assert not step.sustained(50)


def test_answers_other_than_201_are_errors(server: tuple[int, Seen]) -> None:
    port, seen = server
    seen.fail = "/g3/"
    step = open_loop(port, GAMES, LEDGER_PATH, rate=100, seconds=0.5, connections=4)
    assert step.errors == 5 and len(step.latencies) == 45
    assert not step.sustained(50)  # 10% errors


def test_a_server_that_is_not_there_gives_errors_not_answers() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, never listening: connections are refused
        step = open_loop(port, GAMES, LEDGER_PATH, rate=50, seconds=0.2, connections=2)
    assert step.latencies == [] and step.errors == 10


def test_closed_loop_keeps_each_connection_on_its_own_games(server: tuple[int, Seen]) -> None:
    port, seen = server
    step = closed_loop(port, GAMES, LEDGER_PATH, clients=4, seconds=0.5)
    assert step.errors == 0 and len(step.latencies) == len(seen.requests) > 40
    games_by_connection: dict[int, set[str]] = {}
    for client, path in seen.requests:
        games_by_connection.setdefault(client, set()).add(path.split("/")[3])
    assert len(games_by_connection) == 4
    shares = sorted(sorted(g) for g in games_by_connection.values())
    assert shares == sorted(sorted(GAMES[c::4]) for c in range(4))


def test_tables_give_each_game_a_connection_of_its_own(server: tuple[int, Seen]) -> None:
    """Mode ``tables``: every game's actions go over one connection, and only that game's."""
    port, seen = server
    step = open_loop(port, GAMES, LEDGER_PATH, rate=200, seconds=1.0, connections=2, offset=3, tables=True)
    assert step.rate == 200 and len(step.latencies) == 200 and step.errors == 0 and step.sustained(50)
    games_by_connection: dict[int, set[str]] = {}
    for client, path in seen.requests:
        games_by_connection.setdefault(client, set()).add(path.split("/")[3])
    assert sorted(sorted(g) for g in games_by_connection.values()) == [[g] for g in sorted(GAMES)]
    assert sorted(p for _, p in seen.requests) == sorted(f"/v1/games/g{(3 + i) % 10}/actions" for i in range(200))


def test_tables_queue_a_games_actions_behind_each_other_and_count_the_wait(server: tuple[int, Seen]) -> None:
    """One game at 50 actions/s against a server taking 30 ms per answer: its actions cannot
    overlap on its one connection, so they queue, and the queue is charged from each action's
    scheduled time (it would be about 30 ms from the send)."""
    port, seen = server
    seen.delay = 0.03
    step = open_loop(port, ["g0"], LEDGER_PATH, rate=50, seconds=1.0, connections=8, tables=True)
    assert len(step.latencies) == 50 and step.errors == 0
    assert len({client for client, _ in seen.requests}) == 1
    assert step.ms(99) > 300  # the last waits behind ~17 others: scheduled at 1 s, answered at ~1.5 s
    assert not step.sustained(50)


def test_tables_count_a_refused_game_as_errors() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        step = open_loop(port, GAMES, LEDGER_PATH, rate=50, seconds=0.2, connections=2, tables=True)
    assert step.latencies == [] and step.errors == 10
