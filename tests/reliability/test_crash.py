"""Crash safety: ``kill -9`` of the whole server (every worker) under sustained load, then restart.

Each trial: clients post actions to several games (each action under its own Idempotency-Key);
after a random moment the server's process group gets SIGKILL, nothing flushed or closed. The
server is started again on the same store, and:

- every action answered 201 before the crash is stored, with exactly the versions it was given;
- no action is half-stored: every action's events are contiguous and complete, versions 1..N;
- every request that was in flight (no answer) is retried with its key: it is stored exactly
  once (the first save's, when it had gone through, answered from the record; else now);
- ``GET /verify`` is ok and the live state equals a serial replay of the stored events.

3 trials per store in ``make test``, 20 in ``make soak``.
"""

from __future__ import annotations

import http.client
import random
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest

from bench.harness import ScratchStore, Server
from tests.reliability.support import ACTIONS, GAME, Acked, Api, check_game

GAMES = 4
"""Games played at once, one client each (two on the first: a version conflict is possible)."""


@dataclass
class Ledger:
    """What the clients saw: acknowledged actions per game and the requests left unanswered."""

    acked: dict[str, list[Acked]] = field(default_factory=dict)
    in_flight: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    """(game, idempotency key, body) of requests the crash cut off."""
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, game: str, response: dict[str, Any]) -> None:
        versions = tuple(e["version"] for e in response["events"])
        with self.lock:
            self.acked.setdefault(game, []).append(Acked(response["action_id"], versions))


def client(port: int, game: str, ledger: Ledger, stop: threading.Event, seed: int) -> None:
    """Posts actions until the server dies (or ``stop``); 409s (another client moved the game)
    are retried with a new key; anything else but 201 is a failure."""
    rng = random.Random(seed)
    api = Api(port)
    try:
        while not stop.is_set():
            body = rng.choice(ACTIONS)
            key = str(uuid.uuid4())
            try:
                status, _, payload = api.request("POST", f"/v1/games/{game}/actions", body, {"Idempotency-Key": key})
            except (OSError, http.client.HTTPException):
                with ledger.lock:
                    ledger.in_flight.append((game, key, body))
                return
            if status == 201:
                ledger.ack(game, payload)
            elif status == 409 and payload.get("code") == "version_conflict":
                continue
            else:
                with ledger.lock:
                    ledger.failures.append(f"{game}: {status} {payload!r}")
                return
    finally:
        api.close()


def crash_trials(store: ScratchStore, trials: int, workers: int, seed: int) -> None:
    rng = random.Random(seed)
    ledger = Ledger()
    server = Server.ledger(store, workers=workers).start()
    api = Api(server.port)
    try:
        games = [api.ok("POST", "/v1/games", {**GAME, "game_id": f"crash-{i}"}, 201)["game_id"] for i in range(GAMES)]
        for trial in range(trials):
            stop = threading.Event()
            threads = [
                threading.Thread(target=client, args=(server.port, game, ledger, stop, rng.random()), daemon=True)
                for game in [*games, games[0]]
            ]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.3, 1.2))
            server.kill(signal.SIGKILL)
            stop.set()
            for t in threads:
                t.join(timeout=30)
            assert not ledger.failures, ledger.failures
            server = Server.ledger(store, workers=workers)
            server.start()
            api.close()
            api = Api(server.port)
            # The requests the crash cut off: retried with their keys, each is stored exactly once.
            for game, key, body in ledger.in_flight:
                status, _, payload = api.request("POST", f"/v1/games/{game}/actions", body, {"Idempotency-Key": key})
                assert status == 201, f"trial {trial}: retry of {key}: {status} {payload!r}"
                ledger.ack(game, payload)
            retried = len(ledger.in_flight)
            ledger.in_flight.clear()
            for game in games:
                actions = check_game(api, game, ledger.acked.get(game, []))
                # Every logical action was acknowledged once (directly or on its retry): no
                # duplicates, nothing beyond what the clients asked for.
                assert len(actions) - 1 == len(ledger.acked.get(game, [])), f"trial {trial}: {game}"
            assert retried <= GAMES + 1
    finally:
        api.close()
        server.stop()


def test_kill_9_under_load_loses_no_acknowledged_action(store: ScratchStore) -> None:
    crash_trials(store, trials=3, workers=2, seed=7)


@pytest.mark.slow
def test_kill_9_under_load_soak(store: ScratchStore) -> None:
    crash_trials(store, trials=20, workers=2, seed=11)
