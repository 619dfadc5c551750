"""The bare stack of ``bench/instructions.py``: FastAPI + one ``eventsourcing`` aggregate load and
save per action, no rules, no audit (a benchmark's app, not part of the product).

What a naive event-sourced game server would be, written the way the library's documentation
writes one: an aggregate (``Table``) with one event method, loaded with ``repository.get`` (every
event of its stream read and applied; no snapshots, no cache), the action recorded on it and the
aggregate saved, all in one request. It stores what the ledger stores of an action, less the audit:

- ``POST /games`` creates a game: one ``Started`` event holding the whole create body (the
  ledger's ``GameStarted`` records the players, the battlefield and the tournament too);
- ``POST /games/{id}/actions`` records one ``ActionRecorded`` event: the action's type and the
  rest of its body as its data, the action id (a fresh UUID), the actor (the ledger's admin: a
  name and a role) and the time it was recorded, as the ledger's event record has them. No hash
  chain (no audit), no rules (nothing is checked, no state is kept), no bearer token looked up;
  the answer is the new version and the recorded event, not a game state.

The stores and the library settings are the ledger's own (``store.database_url``: SQLite in WAL
mode, or PostgreSQL through the same connection code), the transcoder the library's default, the
aggregate ids UUIDs (the textbook's). The synchronous load and save run in the threadpool, as the
ledger's do. ``BARE_CREATE_TABLES`` (``1``/``0``): create the tables at start-up.

``BARE_FLOOR=1`` serves the floor instead: ``POST /floor/{id}`` reads the JSON body and answers,
storing nothing (it does not import the store): the least any FastAPI endpoint
behind uvicorn costs per request, the ceiling of every server built on them.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from fastapi import FastAPI, HTTPException, Request
from starlette.concurrency import run_in_threadpool

ACTOR = {"name": "admin", "role": "admin"}
"""Who the actions are recorded as: the ledger's benchmark runs as its admin token."""


class Table(Aggregate):
    """One game: its create body and a count of the actions recorded on it."""

    @staticmethod
    def create_id(game_id: str) -> UUID:
        return uuid5(NAMESPACE_URL, f"bare-stack/{game_id}")

    @event("Started")
    def __init__(self, game_id: str, setup: dict[str, Any]) -> None:
        self.game_id = game_id
        self.actions = 0

    @event("ActionRecorded")
    def record(self, type: str, data: dict[str, Any], action_id: str, actor: dict[str, str], recorded_at: str) -> None:
        self.actions += 1


def create_application(database_url: str, create_tables: bool) -> Application[UUID]:
    from store.database_url import library_environment

    env = library_environment(database_url, create_tables=create_tables)
    env["IS_SNAPSHOTTING_ENABLED"] = "n"
    env["ORIGINATOR_ID_TYPE"] = "uuid"
    return Application[UUID](env)


def create_app() -> FastAPI:
    """The uvicorn factory (``bench.bare_stack:create_app``)."""
    if os.environ.get("BARE_FLOOR") == "1":
        return create_floor()
    create_tables = os.environ.get("BARE_CREATE_TABLES", "1") not in ("0", "n", "false")
    store = create_application(os.environ["MTG_LEDGER_DATABASE_URL"], create_tables)
    app = FastAPI(title="bare stack: one aggregate load and save per action")

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/games", status_code=201)
    async def create_game(request: Request) -> dict[str, Any]:
        body = await request.json()
        game_id = str(body["game_id"])

        def start() -> int:
            table = Table(game_id, body)
            store.save(table)
            return int(table.version)

        return {"game_id": game_id, "version": await run_in_threadpool(start)}

    @app.post("/games/{game_id}/actions", status_code=201)
    async def act(game_id: str, request: Request) -> dict[str, Any]:
        body = await request.json()
        data = {k: v for k, v in body.items() if k != "type"}

        def load_record_save() -> dict[str, Any]:
            try:
                table: Table = store.repository.get(Table.create_id(game_id))
            except AggregateNotFoundError:
                raise HTTPException(404, f"unknown game {game_id!r}") from None
            recorded_at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            table.record(str(body["type"]), data, str(uuid4()), ACTOR, recorded_at)
            store.save(table)
            return {
                "version": table.version,
                "event": {"type": body["type"], "data": data, "actor": ACTOR, "recorded_at": recorded_at},
            }

        return await run_in_threadpool(load_record_save)

    return app


def create_floor() -> FastAPI:
    """``POST /floor/{id}``: read the JSON body, answer; no store at all."""
    app = FastAPI(title="the floor: a FastAPI endpoint that stores nothing")

    @app.get("/health")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/floor/{game_id}", status_code=201)
    async def floor(game_id: str, request: Request) -> dict[str, Any]:
        body = await request.json()
        return {"game_id": game_id, "version": 1, "type": body.get("type")}

    return app
