"""Helpers of the reliability suite: a plain HTTP client for subprocess servers, and the checks
every test makes of a stored game (complete actions, gapless versions, chain, replay)."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import ADMIN_TOKEN, Server
from domain import fold
from domain.events import Event
from domain.view import state_view

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
IDLE_REUSE = 2.0
"""Seconds a kept-alive connection may idle before ``Api`` opens a new one instead."""

GAME: dict[str, Any] = {
    "variant": "two_player",
    "tournament": {"event": "Reliability", "round": 1, "table": 1},
    "players": [{"id": "P1", "counters": {"rad": 1}}, {"id": "P2", "counters": {"rad": 1}}],
    "battlefield": [{"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}}],
}
"""A game every action below can be applied to any number of times, in any order (none of
them can end it: a random walk of life gains and losses would, in a long soak)."""

ACTIONS: list[dict[str, Any]] = [
    {"type": "gain_life", "player": "P1", "amount": 1},
    {"type": "proliferate", "player": "P1", "choose": [{"player": "P2"}, {"permanent": "hydra"}]},
    {"type": "note", "text": "reliability"},
    {"type": "add_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 2},
]
SHAPES: dict[str, tuple[str, ...]] = {
    "GameStarted": ("GameStarted",),
    "LifeGained": ("LifeGained",),
    "NoteAdded": ("NoteAdded",),
    "Proliferated": ("Proliferated", "CountersAdded", "CountersAdded"),
    "CountersAdded": ("CountersAdded",),
}
"""Every action's events, by the type of its first event: an action stored in part shows."""


class Api:
    """One keep-alive connection to a server on loopback; JSON in, ``(status, headers, body)`` out."""

    def __init__(self, port: int, headers: Mapping[str, str] | None = None, timeout: float = 30.0) -> None:
        self.port = port
        self.headers = dict(ADMIN if headers is None else headers)
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None
        self._used = 0.0

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self, method: str, path: str, body: Any = None, headers: Mapping[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        """Raises ``OSError`` / ``http.client.HTTPException`` when the server is gone."""
        if self._conn is not None and time.monotonic() - self._used > IDLE_REUSE:
            self.close()  # the server may be closing it right now (uvicorn: 5 s keep-alive)
        if self._conn is None:
            self._conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        data = None if body is None else json.dumps(body).encode()
        all_headers = {**self.headers, **(headers or {})}
        if data is not None:
            all_headers.setdefault("Content-Type", "application/json")
        try:
            self._conn.request(method, path, body=data, headers=all_headers)
            response = self._conn.getresponse()
            raw = response.read()
        except BaseException:
            self.close()
            raise
        self._used = time.monotonic()
        fields = {k.lower(): v for k, v in response.getheaders()}
        parsed: Any = raw
        media = fields.get("content-type", "").split(";")[0].strip()
        if media.endswith(("/json", "+json")):
            parsed = json.loads(raw)
        return response.status, fields, parsed

    def ok(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        got, _, payload = self.request(method, path, body)
        assert got == status, f"{method} {path}: {got} {payload!r}"
        return payload


def all_events(api: Api, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = api.ok("GET", f"/v1/games/{game_id}/events?after={after}&limit=1000")
        events += page["events"]
        after = page["next_after"]
    return events


@dataclass(frozen=True)
class Acked:
    """An action the server answered 201: its id and the versions of its events."""

    action_id: str
    versions: tuple[int, ...]


def check_game(api: Api, game_id: str, acked: list[Acked]) -> list[list[dict[str, Any]]]:
    """Every check of a stored game; returns its actions (events grouped by action id, in order).

    - versions are exactly 1..N (nothing lost in the middle, nothing duplicated);
    - each action's events are contiguous and have the complete shape (``SHAPES``);
    - every acknowledged action is there with exactly the versions it was given;
    - ``GET /verify`` is ok over all N events;
    - the live state equals ``domain.fold`` of the stored events (a serial replay).
    """
    events = all_events(api, game_id)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1)), "versions are not 1..N"
    actions: list[list[dict[str, Any]]] = []
    for event in events:
        if actions and actions[-1][0]["action_id"] == event["action_id"]:
            actions[-1].append(event)
        else:
            actions.append([event])
    ids = [a[0]["action_id"] for a in actions]
    assert len(ids) == len(set(ids)), "an action's events are not contiguous"
    for action in actions:
        shape = SHAPES.get(action[0]["type"])
        assert shape is not None, f"unexpected action {action[0]['type']}"
        assert tuple(e["type"] for e in action) == shape, f"action {action[0]['action_id']} is incomplete: {action}"
    stored = {a[0]["action_id"]: tuple(e["version"] for e in a) for a in actions}
    for ack in acked:
        assert stored.get(ack.action_id) == ack.versions, f"acknowledged action {ack} is not stored as answered"
    report = api.ok("GET", f"/v1/games/{game_id}/verify")
    # An admin's verify recomputes the whole chain (checked_from 1).
    expected = {"ok": True, "events": len(events), "head": events[-1]["hash"], "first_bad_version": None}
    assert report == {**expected, "checked_from": 1}
    replayed = fold([Event.parse(e["type"], e["data"], e.get("rule")) for e in events])
    live = api.ok("GET", f"/v1/games/{game_id}")
    assert live["version"] == len(events)
    assert live["state"] == json.loads(json.dumps(state_view(replayed, show_libraries=True)))
    return actions


def worker_pids(server: Server) -> list[int]:
    """The uvicorn workers among ``server``'s processes (those multiprocessing spawned; not its
    resource tracker nor the read-model process)."""
    found = []
    for pid in server.pids()[1:]:
        with suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found
