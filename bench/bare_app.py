"""The stack's limit: a bare FastAPI endpoint doing one ``eventsourcing`` save, nothing else.

``POST /bare/{stream}`` parses a JSON body and appends one record (the ledger's own
``GameEvent`` type, transcoder and tables, a payload of the size an action stores) to the stream
with ONE ``save()``, like an action does, and answers a small JSON body. No authentication, no
rules, no hash chain, no state in the response: what FastAPI + uvicorn + ``eventsourcing`` + the
database can do per request on this machine, served the same way as ``mtg-ledger serve``
(uvicorn, same worker count). ``bench/http_load.py`` reports the ledger's throughput as a ratio
of this one's.

``POST /bare-load/{stream}`` is the bare stack as issue 15 defines it ("FastAPI + one
eventsourcing load and save per request"): the textbook ``eventsourcing`` application, an
aggregate (``Tally``) loaded with ``repository.get`` (every event of the stream read and
applied, no snapshots, no cache), one event triggered on it and the aggregate saved. Its cost
per request grows with the stream's length, as a naive event-sourced service's does. It runs
in a separate application with UUID ids (``create_load_application``; ``BARE_LOAD=1`` serves it).

``POST /floor/{stream}`` (``BARE_FLOOR=1``) stores nothing: it parses the body and answers,
the least any FastAPI endpoint behind uvicorn costs per request on this machine (the ceiling
of every server built on them: neither the ledger nor a bare stack can go faster).

Each worker remembers the head version of the streams it wrote; when another worker moved a
stream on, the save fails on the version's primary key, and the endpoint reads the head and
saves again (so two workers on one stream behave like two ledger workers with retries).

Settings (environment): ``MTG_LEDGER_DATABASE_URL``; ``BARE_CREATE_TABLES`` (``1``/``0``).
"""

from __future__ import annotations

import os
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from fastapi import FastAPI, Request

from store.application import LedgerApplication
from store.database_url import library_environment
from store.records import GameEvent

PAYLOAD = {"target": {"player": "P1"}, "kind": "rad", "amount": 1, "cause": "manual"}
ACTOR = {"name": "bench", "role": "judge"}


def make_application(database_url: str, create_tables: bool) -> LedgerApplication:
    env = library_environment(database_url, create_tables=create_tables)
    env["IS_SNAPSHOTTING_ENABLED"] = "n"
    return LedgerApplication(env)


class Tally(Aggregate):
    """The textbook aggregate of the load-and-save stack: a stream of recorded actions."""

    @staticmethod
    def create_id(name: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"bare/{name}")

    @event("Created")
    def __init__(self, name: str) -> None:
        self.name = name
        self.actions = 0

    @event("Recorded")
    def record(self, data: dict[str, Any]) -> None:
        self.actions += 1


def create_load_application(database_url: str, create_tables: bool) -> Application[UUID]:
    env = library_environment(database_url, create_tables=create_tables)
    env["IS_SNAPSHOTTING_ENABLED"] = "n"
    env["ORIGINATOR_ID_TYPE"] = "uuid"
    return Application[UUID](env)


def create_app() -> FastAPI:
    """The uvicorn factory (``bench.bare_app:create_app``)."""
    app = FastAPI(title="bare eventsourcing save")
    if os.environ.get("BARE_FLOOR") == "1":
        add_floor(app)
        return app
    create_tables = os.environ.get("BARE_CREATE_TABLES", "1") not in ("0", "n", "false")
    if os.environ.get("BARE_LOAD") == "1":
        add_load_and_save(app, create_load_application(os.environ["MTG_LEDGER_DATABASE_URL"], create_tables))
        return app
    store = make_application(os.environ["MTG_LEDGER_DATABASE_URL"], create_tables)
    heads: dict[str, int] = {}

    def head(stream: str) -> int:
        rows = store.recorder.select_events(stream, desc=True, limit=1)
        return rows[0].originator_version if rows else 0

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/bare/{stream}", status_code=201)
    async def save(stream: str, request: Request) -> dict[str, Any]:
        body = await request.json()
        from starlette.concurrency import run_in_threadpool

        def append() -> int:
            for _ in range(50):
                version = heads.get(stream, 0) + 1
                record = GameEvent(
                    originator_id=stream,
                    originator_version=version,
                    type="CountersAdded",
                    data={**PAYLOAD, "note": body.get("type")},
                    rule=None,
                    action_id="00000000-0000-0000-0000-000000000000",
                    actor=ACTOR,
                    recorded_at="2026-01-01T00:00:00.000000Z",
                    prev_hash="0" * 64,
                    hash="0" * 64,
                )
                try:
                    store.save(record)
                except IntegrityError:
                    heads[stream] = head(stream)
                    continue
                heads[stream] = version
                return version
            raise RuntimeError(f"stream {stream!r}: too many conflicts")

        return {"stream": stream, "version": await run_in_threadpool(append)}

    return app


def add_load_and_save(app: FastAPI, store: Application[UUID]) -> None:
    """``POST /bare-load/{stream}``: load the aggregate, trigger one event, save (a clash with
    another worker's save of the same stream loads again)."""

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/bare-load/{stream}", status_code=201)
    async def load_and_save(stream: str, request: Request) -> dict[str, Any]:
        body = await request.json()
        from starlette.concurrency import run_in_threadpool

        def append() -> int:
            for _ in range(50):
                try:
                    tally: Tally = store.repository.get(Tally.create_id(stream))
                except AggregateNotFoundError:
                    tally = Tally(stream)
                tally.record({**PAYLOAD, "note": body.get("type")})
                try:
                    store.save(tally)
                except IntegrityError:
                    continue
                return int(tally.version)
            raise RuntimeError(f"stream {stream!r}: too many conflicts")

        return {"stream": stream, "version": await run_in_threadpool(append)}


def add_floor(app: FastAPI) -> None:
    """``POST /floor/{stream}``: read the JSON body, answer; no store at all."""

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/floor/{stream}", status_code=201)
    async def floor(stream: str, request: Request) -> dict[str, Any]:
        body = await request.json()
        return {"stream": stream, "version": 1, "note": body.get("type")}
