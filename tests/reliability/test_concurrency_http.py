"""Many clients, one game: optimistic concurrency over HTTP on a real two-worker server.

16 clients each report their own actions to ONE game, each action under its own
Idempotency-Key and with ``If-Match`` set to the version the client last read; on 409 the
client reads the game again and retries the same action (same key). Every now and then a client
also re-sends an answered request (a lost response), which must be answered from the record.

Then: no lost update (every acknowledged ``gain_life`` is in the final life total), no duplicate
(one stored action per logical action, a re-send stores nothing), versions gapless, the chain
verifies, and the final state equals a serial replay (``domain.fold``) of the exported events.
"""

from __future__ import annotations

import json
import threading
import uuid
from typing import Any

import pytest

from bench.harness import ScratchStore, Server
from domain import fold
from domain.events import Event
from domain.view import state_view
from tests.reliability.support import GAME, Acked, Api, check_game

CLIENTS = 16


def play(port: int, game: str, me: int, actions: int, out: dict[str, Any], lock: threading.Lock) -> None:
    api = Api(port)
    conflicts = replays = 0
    acked: list[tuple[int, Acked]] = []
    try:
        for n in range(actions):
            amount = me * 1000 + n + 1  # unique: the final total shows any lost update
            body = {"type": "gain_life", "player": "P1", "amount": amount, "source": f"client {me}"}
            key = f"c{me}-{n}-{uuid.uuid4()}"
            version = api.ok("GET", f"/v1/games/{game}")["version"]
            while True:
                status, _, payload = api.request(
                    "POST", f"/v1/games/{game}/actions", body, {"If-Match": f'"{version}"', "Idempotency-Key": key}
                )
                if status == 201:
                    break
                assert status == 409, payload
                assert payload["code"] == "version_conflict", payload
                conflicts += 1
                version = api.ok("GET", f"/v1/games/{game}")["version"]
            acked.append((amount, Acked(payload["action_id"], tuple(e["version"] for e in payload["events"]))))
            if n % 3 == 0:  # the response was "lost": the same request again
                status, headers, again = api.request(
                    "POST", f"/v1/games/{game}/actions", body, {"If-Match": f'"{version}"', "Idempotency-Key": key}
                )
                assert status == 201 and headers.get("idempotent-replayed") == "true", (status, again)
                assert again["action_id"] == payload["action_id"]
                replays += 1
    finally:
        api.close()
    with lock:
        out["acked"] += acked
        out["conflicts"] += conflicts
        out["replays"] += replays


def run_clients(store: ScratchStore, actions: int) -> dict[str, Any]:
    out: dict[str, Any] = {"acked": [], "conflicts": 0, "replays": 0}
    lock = threading.Lock()
    with Server.ledger(store, workers=2) as server:
        api = Api(server.port)
        game = api.ok("POST", "/v1/games", GAME, 201)["game_id"]
        threads = [
            threading.Thread(target=play, args=(server.port, game, me, actions, out, lock)) for me in range(CLIENTS)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert len(out["acked"]) == CLIENTS * actions, "a client failed (see its assertion above)"
        stored = check_game(api, game, [ack for _, ack in out["acked"]])
        assert len(stored) == 1 + CLIENTS * actions, "one stored action per logical action"
        final = api.ok("GET", f"/v1/games/{game}")
        assert final["state"]["players"]["P1"]["life"] == 20 + sum(amount for amount, _ in out["acked"])
        # The export (what an auditor takes away) replays serially to the same state.
        status, _, raw = api.request("GET", f"/v1/games/{game}/export")
        assert status == 200
        lines = raw.decode().splitlines()
        events = [json.loads(line) for line in lines[1:]]
        replayed = fold([Event.parse(e["type"], e["data"], e.get("rule")) for e in events])
        assert final["state"] == json.loads(json.dumps(state_view(replayed, show_libraries=True)))
        api.close()
    return out


def test_sixteen_clients_on_one_game(store: ScratchStore) -> None:
    out = run_clients(store, actions=6)
    assert out["conflicts"] > 0, "the clients never collided: the test proved nothing"
    assert out["replays"] == CLIENTS * 2


@pytest.mark.slow
def test_sixteen_clients_on_one_game_soak(store: ScratchStore) -> None:
    out = run_clients(store, actions=60)
    assert out["conflicts"] > 0
