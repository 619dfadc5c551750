"""The benchmarks' load generator: ``bench/loadgen.c``, built on first use, driven from Python.

The load generator shares the machine's two cores with the servers it measures. The asyncio
client it replaces (one uvloop process) cost about 360 µs of CPU per request on a 2-core machine
(a fifth of a core at 600/s, taken from the servers, and most of all from the servers that scale
over both cores); the C program's epoll loop costs about a quarter of that, 91-111 µs
(docs/performance.md).
It needs a C compiler (``cc``, as on every machine these benchmarks run on) and builds itself
into ``bench/.build/`` when the source is newer than the binary.

Requests are built here (the same bytes as ``bench.harness.HttpClient`` sends), written to a
file, and sent by the C program at their scheduled times; it prints each answer's status and
latency, and its own CPU time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness import percentile, request_bytes
from bench.http_load import ACTIONS, AUTH

SOURCE = Path(__file__).with_name("loadgen.c")
BUILD = Path(__file__).with_name(".build")
BINARY = BUILD / "loadgen"

LEDGER_PATH = "/v1/games/{}/actions"
"""An action on a ledger game (``{}``: the game id)."""
PATHS = {"bare": "/bare/{}", "bare-load": "/bare-load/{}", "floor": "/floor/{}"}
"""The bare stacks' endpoints (``bench/bare_app.py``), by variant; every ledger takes ``LEDGER_PATH``."""

CLOSED_RATE_CAP = 4000.0
"""Closed loop: requests written per second of window at most; a faster server sends them again
from the start (the actions are balanced, so a game can take any number)."""


@dataclass
class Step:
    """One measured window at one rate (0 for a closed loop)."""

    rate: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    client_cpu: float = 0.0
    """The load generator's CPU seconds during the window."""

    @property
    def achieved(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def ms(self, p: float) -> float:
        return percentile(sorted(self.latencies), p) * 1000

    def sustained(self, p99_ms: float) -> bool:
        total = len(self.latencies) + self.errors
        return (
            bool(self.latencies)
            and self.ms(99) <= p99_ms
            and self.achieved >= 0.95 * self.rate
            and self.errors <= 0.01 * max(total, 1)
        )

    def summary(self) -> str:
        return (
            f"{self.achieved:,.0f}/s p50 {self.ms(50):.1f} p99 {self.ms(99):.1f} ms"
            + (f", {self.errors} errors" if self.errors else "")
            + f", client CPU {100 * self.client_cpu / self.seconds:.0f}%"
            if self.seconds
            else "no answers"
        )


def binary() -> Path:
    """The built load generator, (re)built when its source is newer."""
    if BINARY.exists() and BINARY.stat().st_mtime >= SOURCE.stat().st_mtime:
        return BINARY
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("bench/loadgen.c needs a C compiler (cc or gcc; set CC)")
    BUILD.mkdir(exist_ok=True)
    partial = BUILD / f"loadgen.{os.getpid()}"
    subprocess.run([compiler, "-O2", "-Wall", "-o", str(partial), str(SOURCE)], check=True)
    partial.replace(BINARY)  # atomic: two benchmarks building at once never run half a file
    return BINARY


def request(port: int, path: str, target: str, action: int) -> bytes:
    """The ``action``-th action sent to ``target`` (the actions take turns, ``ACTIONS``)."""
    return request_bytes("POST", path.format(target), port, ACTIONS[action % len(ACTIONS)], AUTH)


def _send(
    mode: str,
    port: int,
    rate: float,
    seconds: float,
    connections: int,
    requests: Sequence[bytes],
    lanes: Sequence[int] | None = None,
) -> Step:
    with tempfile.NamedTemporaryFile("wb", prefix="loadgen-", suffix=".req") as file:
        file.write(f"{len(requests)}\n".encode())
        for n, r in enumerate(requests):
            lane = "" if lanes is None else f" {lanes[n]}"
            file.write(f"{len(r)}{lane}\n".encode() + r)
        file.flush()
        out = subprocess.run(
            [str(binary()), mode, str(port), repr(rate), repr(seconds), str(connections), file.name],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    head, _, rows = out.partition("latencies\n")
    fields = dict(line.split(" ", 1) for line in head.splitlines())
    step = Step(0.0 if mode == "closed" else rate)
    step.errors = int(fields["errors"])
    step.seconds = float(fields["seconds"])
    step.client_cpu = float(fields["cpu"])
    for row in rows.splitlines():
        status, micros = row.split(" ")
        if status == "201":
            step.latencies.append(float(micros) / 1e6)
        else:
            step.errors += 1
    return step


def open_loop(
    port: int,
    targets: list[str],
    path: str,
    rate: float,
    seconds: float,
    connections: int,
    offset: int = 0,
    *,
    tables: bool = False,
) -> Step:
    """Send ``rate * seconds`` actions, each at its scheduled time (latency from that time), on
    at most ``connections`` keep-alive connections; action ``offset + i`` goes to game
    ``(offset + i) mod len(targets)``.

    ``tables``: every game has a keep-alive connection of its own instead (``connections`` is
    not used), as a phone at each table reports its own game: an action waits for the game's
    previous one to be answered, and with several workers each game stays on one of them. Without
    it any free connection carries any game's next action (a pool, a load balancer): with
    several workers a game's actions are spread over them."""
    count = max(1, int(rate * seconds))
    games = len(targets)
    numbers = range(offset, offset + count)
    requests = [request(port, path, targets[n % games], n // games) for n in numbers]
    if tables:
        return _send("tables", port, rate, seconds, 0, requests, [n % games for n in numbers])
    return _send("open", port, rate, seconds, connections, requests)


def closed_loop(port: int, targets: list[str], path: str, clients: int, seconds: float) -> Step:
    """``clients`` connections, each sending its next action when it has the answer, each over
    a share of the games of its own (``targets[c::clients]``), as the asyncio client did."""
    clients = min(clients, len(targets))
    shares = [targets[c::clients] for c in range(clients)]
    rounds = max(1, int(CLOSED_RATE_CAP * seconds / clients))
    # The C program's connection c sends file entries c, c + clients, c + 2 * clients, ...
    requests = [request(port, path, share[j % len(share)], j // len(share)) for j in range(rounds) for share in shares]
    return _send("closed", port, 0.0, seconds, clients, requests)
