"""High availability: the PostgreSQL primary is killed with ``kill -9``, again and again, under
load, and no acknowledged action is lost or stored twice (issue 32; docs/reliability.md,
Failover).

On this one machine (``tests/reliability/patroni_cluster.py``, from deploy/patroni's own files):
etcd and three PostgreSQL nodes under Patroni, synchronous replication to one standby
(``synchronous_mode: true``), on loopback ports in a temporary directory. The server
(``mtg-ledger serve``, two workers and the read-model process) runs on the multi-host URL of the
three nodes with ``target_session_attrs=read-write``.

- Writers, one game each, post actions (one event, or three with ``proliferate``) and judge
  calls (each one webhook delivery), every logical action under its own ``Idempotency-Key``,
  sent again with that key after a ``503`` (or a lost connection) until it is answered 201;
  a reader reads a game, the game list and the health meanwhile.
- ``KILLS`` times (10; ``MTG_LEDGER_FAILOVER_KILLS``), once the cluster is healthy and the
  writers have been acknowledged for a while, the primary is killed: on odd kills its
  postmaster (Patroni fails over at once), on even kills its Patroni too (a dead host: the
  leader key must expire first); the node comes back as a standby. During the second kill one
  of the server's workers is SIGKILLed as well: its replacement starts with no primary, waits
  for the store, and the server goes on (issue 40).
- Afterwards: every acknowledged action is in the log exactly once, with the versions it was
  given; the number of stored actions equals the number of logical actions (none stored twice
  by a retry); every answer other than 201 was ``503 store_unavailable`` with ``Retry-After``,
  never a 500; the hash chain verifies; the live state equals a fold of the events; the game
  list and the round's matches equal what a fresh ledger projects from the exported games;
  the outbox has exactly one delivery per judge call, and each was delivered.

Recorded per kill (printed, and written as JSON to ``MTG_LEDGER_FAILOVER_REPORT`` if set): time
without a primary, time until a write was acknowledged again, the failed requests with their
statuses and the slowest answers (``MTG_LEDGER_FAILOVER_LOG``: a file to copy the server's log
to). Marked ``slow`` (``make soak``); skipped with the reason where Patroni, etcd or
PostgreSQL 15 are not installed (``make ha-deps``).
"""

from __future__ import annotations

import http.client
import http.server
import json
import os
import random
import shutil
import signal
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bench.harness import ScratchStore, Server
from domain import fold
from domain.events import Event
from domain.judging import MAX_OPEN_CALLS
from domain.view import state_view
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor
from tests.reliability.patroni_cluster import (
    SUPERUSER_PASSWORD,
    Kill,
    KillMode,
    PatroniCluster,
    free_port,
    unavailable,
)
from tests.reliability.support import ACTIONS, GAME, Acked, Api, all_events, worker_pids

pytestmark = pytest.mark.slow

KILLS = int(os.environ.get("MTG_LEDGER_FAILOVER_KILLS", "10"))
WRITERS = 4
WORKER_KILL = 2
"""The kill during which one of the server's workers is SIGKILLed too (a host's death: about
``ttl`` seconds without a primary); its replacement starts while there is none."""
"""Clients posting actions, one game each."""
RETRY_PAUSE = 0.2
"""Seconds a writer waits before sending a request again with its key."""
PAUSE = 0.02
"""Seconds a writer waits between two logical actions."""
TRAFFIC = 3.0
"""Seconds of acknowledged writes before each kill."""
DATABASE = "ledger"
SHAPES: dict[str, tuple[str, ...]] = {
    "GameStarted": ("GameStarted",),
    "LifeGained": ("LifeGained",),
    "NoteAdded": ("NoteAdded",),
    "Proliferated": ("Proliferated", "CountersAdded", "CountersAdded"),
    "CountersAdded": ("CountersAdded",),
    "JudgeCallOpened": ("JudgeCallOpened",),
}
"""Every action's events, by the type of its first event."""


@dataclass
class Attempt:
    """One request and what came of it."""

    sent: float
    answered: float
    path: str
    status: int | str
    """The HTTP status, or the name of the error when no answer came."""
    code: str | None = None
    retry_after: str | None = None


@dataclass
class Traffic:
    """Everything the clients saw."""

    acked: dict[str, list[Acked]] = field(default_factory=dict)
    logical: Counter[str] = field(default_factory=Counter)
    """Logical actions each writer sent (each answered 201 in the end, or left unfinished)."""
    unfinished: list[str] = field(default_factory=list)
    replayed: int = 0
    """201s answered ``Idempotent-Replayed: true``: a retry whose first try had been stored."""
    writes: list[Attempt] = field(default_factory=list)
    reads: list[Attempt] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _attempt(api: Api, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    sent = time.monotonic()
    try:
        status, fields, payload = api.request(method, path, body, headers)
    except (OSError, http.client.HTTPException) as err:
        return Attempt(sent, time.monotonic(), path, type(err).__name__), None, None
    code = payload.get("code") if isinstance(payload, dict) else None
    return Attempt(sent, time.monotonic(), path, status, code, fields.get("retry-after")), fields, payload


def writer(port: int, game: str, traffic: Traffic, stop: threading.Event, deadline: float, seed: int) -> None:
    """Logical actions until ``stop``: each is sent with its key until it is answered 201."""
    rng = random.Random(seed)
    api = Api(port, timeout=60)
    calls = 0
    try:
        while not stop.is_set():
            # At most MAX_OPEN_CALLS open calls per caller in a game (422 too_many_open_calls
            # after, issue 33): the writer's calls stay open, so it makes no more than that.
            if calls < MAX_OPEN_CALLS and rng.random() < 0.15:
                calls += 1
                path, body = f"/v1/games/{game}/judge-calls", {"question": f"failover {uuid.uuid4().hex[:8]}"}
            else:
                path, body = f"/v1/games/{game}/actions", rng.choice(ACTIONS)
            key = str(uuid.uuid4())
            with traffic.lock:
                traffic.logical[game] += 1
            while True:
                if time.monotonic() > deadline:
                    with traffic.lock:
                        traffic.unfinished.append(f"{game} {key} {path}")
                    return
                attempt, fields, payload = _attempt(api, "POST", path, body, {"Idempotency-Key": key})
                with traffic.lock:
                    traffic.writes.append(attempt)
                if attempt.status == 201:
                    versions = tuple(e["version"] for e in payload["events"])
                    with traffic.lock:
                        traffic.acked.setdefault(game, []).append(Acked(payload["action_id"], versions))
                        traffic.replayed += fields.get("idempotent-replayed") == "true"
                    break
                # 503 (and a lost connection) are what an outage may answer: send it again. Any
                # other answer is recorded and checked after the run (the test fails on it).
                time.sleep(RETRY_PAUSE)
            time.sleep(PAUSE)
    finally:
        api.close()


def reader(port: int, game: str, traffic: Traffic, stop: threading.Event) -> None:
    """Reads while the writers write: the game, the game list, the health."""
    api = Api(port, timeout=60)
    try:
        while not stop.is_set():
            for path in (f"/v1/games/{game}", "/v1/games", "/v1/health"):
                attempt, _, _ = _attempt(api, "GET", path)
                with traffic.lock:
                    traffic.reads.append(attempt)
            time.sleep(0.1)
    finally:
        api.close()


class Receiver(http.server.ThreadingHTTPServer):
    """A webhook receiver on loopback: records each delivery it is sent (answers 204)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _ReceiverHandler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook"


class _ReceiverHandler(http.server.BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with self.server.lock:
            self.server.received.append((self.headers.get("X-Ledger-Delivery", ""), json.loads(body)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def cluster() -> Iterator[PatroniCluster]:
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"the failover test needs Patroni, etcd and PostgreSQL 15: {reason}")
    with PatroniCluster(3) as started:
        with psycopg.connect(started.url("postgres"), autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{DATABASE}"')
        yield started


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_kill_9_of_the_primary_loses_no_acknowledged_action(cluster: PatroniCluster, receiver: Receiver) -> None:
    with tempfile.TemporaryDirectory(prefix="mtgl-failover-") as tmp:
        store = ScratchStore("postgresql", cluster.url(DATABASE), Path(tmp))
        server = Server.ledger(store, workers=2, MTG_LEDGER_WEBHOOK_ALLOW_PRIVATE="127.0.0.0/8")  # the receiver
        try:
            with server:
                run_kills(cluster, server, receiver, Path(tmp))
        finally:
            keep = os.environ.get("MTG_LEDGER_FAILOVER_LOG")
            if keep and server.log_path is not None and server.log_path.exists():
                shutil.copyfile(server.log_path, keep)


def run_kills(cluster: PatroniCluster, server: Server, receiver: Receiver, tmp: Path) -> None:
    api = Api(server.port)
    try:
        _run_kills(api, cluster, server, receiver, tmp)
    finally:
        api.close()


def _run_kills(api: Api, cluster: PatroniCluster, server: Server, receiver: Receiver, tmp: Path) -> None:
    games = [
        api.ok("POST", "/v1/games", {**GAME, "game_id": f"ha-{i}", "tournament": _tournament(i)}, 201)["game_id"]
        for i in range(WRITERS)
    ]
    hook = api.ok("POST", "/v1/webhooks", {"url": receiver.url, "events": ["judge_call_opened"]}, 201)
    traffic = Traffic()
    stop = threading.Event()
    deadline = time.monotonic() + 120 + KILLS * 90
    threads = [
        threading.Thread(target=writer, args=(server.port, g, traffic, stop, deadline, i), daemon=True)
        for i, g in enumerate(games)
    ]
    threads.append(threading.Thread(target=reader, args=(server.port, games[0], traffic, stop), daemon=True))
    for t in threads:
        t.start()
    kills: list[Kill] = []
    worker_killed: list[float] = []
    try:
        for number in range(1, KILLS + 1):
            cluster.wait_healthy(180)
            _wait_for_acks(traffic, TRAFFIC)
            mode: KillMode = "postgres" if number % 2 else "node"
            killed = cluster.kill_primary(number, mode)
            if number == WORKER_KILL:
                # A worker dies while there is no primary (issue 40): uvicorn starts another,
                # which must wait for the store, not fail its start-up and stop the server.
                worker_killed.append(time.monotonic())
                os.kill(worker_pids(server)[0], signal.SIGKILL)
            kill = cluster.wait_for_primary(killed, timeout=180)
            kills.append(kill)
            assert kill.primary_at is not None, f"kill {number}: no primary again:\n{cluster.logs()}"
            assert server.process is not None and server.process.poll() is None, f"serve stopped:\n{server.log()}"
            if mode == "node":
                cluster.restart_node(kill.victim)
        cluster.wait_healthy(180)
        _wait_for_acks(traffic, TRAFFIC)
        assert server.process is not None and server.process.poll() is None, f"serve stopped:\n{server.log()}"
        assert len(worker_pids(server)) == 2, server.log()
        if KILLS >= WORKER_KILL:
            # The killed worker was replaced and its replacement started (it waited for the
            # store: in the library's connection tries, or in the lifespan's own back-off).
            log = server.log_path.read_text(errors="replace") if server.log_path else ""
            assert "died" in log and "Application startup failed" not in log, log[-4000:]
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=120)
    log = server.log_path.read_text(errors="replace") if server.log_path is not None else ""
    report = summarize(kills, traffic, log)
    print(json.dumps(report, indent=2))
    if os.environ.get("MTG_LEDGER_FAILOVER_REPORT"):
        Path(os.environ["MTG_LEDGER_FAILOVER_REPORT"]).write_text(json.dumps(report, indent=2) + "\n")

    assert report["server_500s_logged"] == 0, server.log()
    assert not traffic.unfinished, f"logical actions never answered 201: {traffic.unfinished}\n{server.log()}"
    # The requests the killed worker had on its connections are cut (no answer): their clients
    # send them again with their keys, as after any lost connection.
    cut = [a for a in traffic.writes + traffic.reads if _cut_by(a, worker_killed)]
    odd = [a for a in traffic.writes + traffic.reads if a.status not in (200, 201, 503) and a not in cut]
    assert not odd, f"answers other than 200/201/503: {odd[:20]}\n{server.log()}"
    unavailable = [a for a in traffic.writes + traffic.reads if a.status == 503]
    assert all(a.code == "store_unavailable" and a.retry_after for a in unavailable), unavailable[:5]
    stored = {game: check_game(api, game, traffic.acked.get(game, [])) for game in games}
    for game in games:
        # Every logical action answered 201 exactly once: one stored action each, none twice.
        assert len(stored[game]) - 1 == traffic.logical[game] == len(traffic.acked.get(game, [])), game
    check_read_models(api, games, tmp)
    health = api.ok("GET", "/v1/health")
    assert health["status"] == "ok", f"the read models did not resume: {health}"
    calls = {(g, e["version"]) for g in games for a in stored[g] for e in a if e["type"] == "JudgeCallOpened"}
    check_webhooks(api, hook["id"], receiver, calls)


def _cut_by(attempt: Attempt, worker_killed: list[float]) -> bool:
    """A request that got no answer (a closed or reset connection) in the moment after the
    server's worker was killed."""
    return isinstance(attempt.status, str) and any(t <= attempt.answered <= t + 2.0 for t in worker_killed)


def _tournament(i: int) -> dict[str, Any]:
    return {"event": "Failover", "round": 1, "table": i + 1}


def _wait_for_acks(traffic: Traffic, seconds: float) -> None:
    """Until every writer has been acknowledged for ``seconds`` (the store serves again)."""
    start = time.monotonic()
    deadline = start + 180
    while time.monotonic() < deadline:
        with traffic.lock:
            recent = {a.path.split("/")[3] for a in traffic.writes if a.status == 201 and a.sent >= start}
        if len(recent) == WRITERS and time.monotonic() - start >= seconds:
            return
        time.sleep(0.1)
    raise TimeoutError("the writers were not acknowledged again")


def check_game(api: Api, game_id: str, acked: list[Acked]) -> list[list[dict[str, Any]]]:
    """``tests.reliability.support.check_game`` with the judge calls' shape too: versions 1..N,
    complete contiguous actions, every acknowledged action stored as answered, the chain
    verifies, the live state is a fold of the events. Returns the actions."""
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
        assert tuple(e["type"] for e in action) == SHAPES.get(action[0]["type"]), f"incomplete: {action}"
    stored = {a[0]["action_id"]: tuple(e["version"] for e in a) for a in actions}
    for ack in acked:
        assert stored.get(ack.action_id) == ack.versions, f"acknowledged action {ack} is not stored as answered"
    assert len({a.action_id for a in acked}) == len(acked), "one stored action acknowledged for two requests"
    report = api.ok("GET", f"/v1/games/{game_id}/verify")
    assert report == {
        "ok": True,
        "events": len(events),
        "head": events[-1]["hash"],
        "first_bad_version": None,
        "checked_from": 1,
    }
    replayed = fold([Event.parse(e["type"], e["data"], e.get("rule")) for e in events])
    live = api.ok("GET", f"/v1/games/{game_id}")
    assert live["version"] == len(events)
    assert live["state"] == json.loads(json.dumps(state_view(replayed, show_libraries=True)))
    return actions


def check_read_models(api: Api, games: list[str], tmp: Path) -> None:
    """The game list and the round's matches, as the server's runner projected them across
    the failovers, equal what a fresh ledger projects from the exported games."""
    heads = {g: api.ok("GET", f"/v1/games/{g}")["version"] for g in games}
    deadline = time.monotonic() + 60
    while True:
        listed = {s["game_id"]: s for s in api.ok("GET", "/v1/games")["games"] if s["game_id"] in heads}
        if {g: s["version"] for g, s in listed.items()} == heads or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert {g: s["version"] for g, s in listed.items()} == heads, "the game list did not catch up"
    served_round = api.ok("GET", "/v1/events/Failover/rounds/1")
    fresh = LedgerService(f"sqlite:///{tmp / 'fresh.sqlite3'}", LedgerSettings())
    try:
        for game in games:
            _, _, raw = api.request("GET", f"/v1/games/{game}/export")
            fresh.import_game(raw.decode().splitlines(), Actor("failover test", "admin"))
        fresh.wait_for_read_model(30)
        folded = {s.game_id: s.to_json() for s in fresh.list_games()}
        assert json.loads(json.dumps(folded)) == listed
        folded_round = json.loads(json.dumps(fresh.round("Failover", "1")))
        assert folded_round == served_round, _round_difference(served_round, folded_round)
    finally:
        fresh.close()


def _round_difference(served: dict[str, Any], folded: dict[str, Any]) -> str:
    """What the served round has that a fresh fold has not, and the other way round."""
    lines = []
    for key in sorted(set(served) | set(folded)):
        if served.get(key) == folded.get(key):
            continue
        a, b = served.get(key), folded.get(key)
        if isinstance(a, list) and isinstance(b, list):
            ca, cb = (
                Counter(json.dumps(x, sort_keys=True) for x in a),
                Counter(json.dumps(x, sort_keys=True) for x in b),
            )
            lines.append(f"{key}: served only {sorted((ca - cb).elements())[:10]}")
            lines.append(f"{key}: folded only {sorted((cb - ca).elements())[:10]}")
            if ca == cb:
                lines.append(f"{key}: same items, another order")
        else:
            lines.append(f"{key}: served {json.dumps(a)[:2000]}")
            lines.append(f"{key}: folded {json.dumps(b)[:2000]}")
    return "\n".join(lines)


def check_webhooks(api: Api, subscription: str, receiver: Receiver, calls: set[tuple[str, int]]) -> None:
    """One delivery per judge call (``calls``: game and version) in the outbox, each delivered
    (the receiver saw it)."""
    assert calls, "no judge call was made: the webhook check proved nothing"
    deadline = time.monotonic() + 120
    while True:
        deliveries = api.ok("GET", f"/v1/webhooks/{subscription}/deliveries")["deliveries"]
        pending = [d for d in deliveries if d.get("status") != "delivered"]
        if (not pending and len(deliveries) >= len(calls)) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not pending, f"undelivered after the failovers: {pending[:5]}"
    assert len(deliveries) == len(calls), f"{len(deliveries)} deliveries for {len(calls)} judge calls"
    with receiver.lock:
        seen = {delivery: body for delivery, body in receiver.received}
    assert len(seen) == len(calls), f"the receiver saw {len(seen)} deliveries for {len(calls)} judge calls"
    assert {(body["data"]["game_id"], int(body["data"]["version"])) for body in seen.values()} == calls


def summarize(kills: list[Kill], traffic: Traffic, server_log: str) -> dict[str, Any]:
    """Per kill: time without a primary, time to the next acknowledged write, and every request
    that failed from the kill until the next one (statuses counted)."""
    rows = []
    bounds = [k.killed_at for k in kills] + [float("inf")]
    for i, kill in enumerate(kills):
        start, end = bounds[i], bounds[i + 1]
        # A request belongs to the last kill before its answer (one sent before a kill and
        # answered after it waited through that kill's outage).
        writes = [a for a in traffic.writes if start <= a.answered < end]
        reads = [a for a in traffic.reads if start <= a.answered < end]
        back = kill.primary_at if kill.primary_at is not None else start
        acked_again = [a.answered for a in writes if a.status == 201 and a.answered >= back]
        rows.append(
            {
                "kill": kill.number,
                "mode": kill.mode,
                "victim": kill.victim,
                "new_primary": kill.new_primary,
                "without_primary_s": round(kill.without_primary or -1, 2),
                # From the kill to the first 201 once a primary was back (answers in between
                # are of commits made before the kill).
                "writes_resumed_s": round(min(acked_again) - start, 2) if acked_again else None,
                "failed_writes": _statuses(writes),
                "failed_reads": _statuses(reads),
                "slowest_write_s": _slowest(writes),
                "slowest_read_s": _slowest(reads),
                "writes_over_1s": sum(a.answered - a.sent > 1 for a in writes),
            }
        )
    return {
        "kills": len(kills),
        "logical_actions": sum(traffic.logical.values()),
        "acknowledged": sum(len(a) for a in traffic.acked.values()),
        "replayed_after_unknown_outcome": traffic.replayed,
        "lost_answers_resolved_by_the_server": server_log.count("their save's answer was lost"),
        "server_500s_logged": server_log.count("unexpected error on"),
        "write_requests": len(traffic.writes),
        "read_requests": len(traffic.reads),
        "per_kill": rows,
    }


def _slowest(attempts: list[Attempt]) -> float:
    return round(max((a.answered - a.sent for a in attempts), default=0.0), 2)


def _statuses(attempts: list[Attempt]) -> dict[str, int]:
    """Failed requests counted by status, code and what was asked (``/v1/games/*``: one game)."""
    return dict(
        Counter(
            f"{a.status} {a.code or ''} {_kind(a.path)}".replace("  ", " ")
            for a in attempts
            if a.status not in (200, 201)
        )
    )


def _kind(path: str) -> str:
    parts = path.split("/")
    if len(parts) > 3 and parts[2] == "games":
        return "/".join(["", "v1", "games", "*", *parts[4:]])
    return path


def test_a_base_backup_and_the_wal_archive_restore_to_a_point_in_time(cluster: PatroniCluster) -> None:
    """The restore drill of docs/operations.md (Backups): a base backup taken from a standby
    with ``pg_basebackup``, the primary's WAL archive, a restore to a moment between two actions
    (the later one is not there), and the restored games verify. Also: a finished game's export
    read from a standby (``target_session_attrs=standby``) equals the primary's."""
    url = cluster.url(DATABASE)
    settings = LedgerSettings(read_models=False)
    service = LedgerService(url, settings)
    tmp = cluster.root / "drill"
    tmp.mkdir()
    cluster.own(tmp)
    try:
        for i in range(2):
            service.create_game({**GAME, "tournament": _tournament(i)}, Actor("drill", "admin"), f"drill-{i}")
            for body in ACTIONS * 5:
                service.act(f"drill-{i}", body, Actor("drill", "admin"))
        standby = next(m for m in cluster.members() if m["role"] == "sync_standby")
        cluster.run(
            [
                *("pg_basebackup", "-h", "127.0.0.1", "-p", str(standby["port"]), "-U", "replicator"),
                *("-D", str(tmp / "base"), "-Fp", "-Xstream", "-c", "fast"),
            ]
        )
        for body in ACTIONS:
            service.act("drill-0", body, Actor("drill", "admin"))
        wanted = {g: service.head_version(g) for g in ("drill-0", "drill-1")}
        exported = _export(service, "drill-1")
        time.sleep(1.1)  # recovery_target_time has a resolution of the clock's: a second apart
        with psycopg.connect(url, autocommit=True) as conn:
            target = conn.execute("SELECT now()::text").fetchone()
        assert target is not None
        time.sleep(1.1)
        late = service.act("drill-0", ACTIONS[0], Actor("drill", "admin"))
        _switch_and_archive(cluster, url)  # the segment holding the late action goes to the archive
        # A finished game (no more actions) read from a standby: its export is the same.
        from_standby = LedgerService(
            cluster.url(DATABASE).replace("target_session_attrs=read-write", "target_session_attrs=standby"),
            LedgerSettings(read_models=False, create_tables=False),
        )
        try:
            assert _export(from_standby, "drill-1") == exported
        finally:
            from_standby.close()
    finally:
        service.close()
    restored = _restore(cluster, tmp / "base", target[0])
    try:
        back = LedgerService(restored, LedgerSettings(read_models=False, create_tables=False))
        try:
            assert {g: back.head_version(g) for g in wanted} == wanted, "restored to the wrong moment"
            assert late.version == wanted["drill-0"] + 1
            for game in wanted:
                report = back.verify(game)
                assert report.ok and report.events == wanted[game]
        finally:
            back.close()
    finally:
        cluster.run(["pg_ctl", "-D", str(tmp / "base"), "-m", "immediate", "stop"])


def _export(service: LedgerService, game: str) -> list[Any]:
    """A game's export, less the moment it was made (``*_at`` of its header)."""
    header, *events = [json.loads(line) for line in service.export(game) if line.strip()]
    return [{k: v for k, v in header.items() if not k.endswith("_at")}, *events]


def _switch_and_archive(cluster: PatroniCluster, url: str, timeout: float = 30.0) -> None:
    """Close the primary's current WAL segment and wait until it is in the archive."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_walfile_name(pg_switch_wal())").fetchone()
    assert row is not None
    segment = cluster.archive / str(row[0])
    deadline = time.monotonic() + timeout
    while not segment.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{segment.name} not archived: {sorted(p.name for p in cluster.archive.iterdir())}")
        time.sleep(0.2)


def _restore(cluster: PatroniCluster, base: Path, target: str) -> str:
    """Start the base backup as a server of its own, recovering from the archive to ``target``
    (``recovery_target_time``); the URL of its ledger database once it is promoted."""
    for name in ("standby.signal", "postmaster.pid"):
        (base / name).unlink(missing_ok=True)
    (base / "recovery.signal").write_text("")
    port = free_port()
    with open(base / "postgresql.conf", "a") as conf:
        conf.write(
            "\n# restore drill\n"
            f"restore_command = 'cp {cluster.archive}/%f %p'\n"
            f"recovery_target_time = '{target}'\n"
            "recovery_target_action = 'promote'\n"
            "archive_mode = off\n"
            "synchronous_standby_names = ''\n"
            "primary_conninfo = ''\n"
            "hot_standby = on\n"
            f"port = {port}\n"
            "listen_addresses = '127.0.0.1'\n"
            f"unix_socket_directories = '{base}'\n"
        )
    cluster.own(base)
    cluster.run(["pg_ctl", "-D", str(base), "-l", str(base / "restore.log"), "-w", "-t", "120", "start"])
    restored = f"postgresql://postgres:{SUPERUSER_PASSWORD}@127.0.0.1:{port}/{DATABASE}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with psycopg.connect(restored, autocommit=True, connect_timeout=2) as conn:
            row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
            if row is not None and not row[0]:
                return restored
        time.sleep(0.2)
    raise TimeoutError((base / "restore.log").read_text(errors="replace")[-4000:])
