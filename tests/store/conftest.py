"""One persistence suite, two stores: every ``store`` test runs on SQLite (a file in the test's
own directory) and on PostgreSQL (a schema of its own, dropped afterwards).

PostgreSQL params need ``MTG_LEDGER_TEST_POSTGRES`` (e.g.
``postgresql://postgres@127.0.0.1:5432/test``): unset, they are skipped with that reason; set but
unreachable, they FAIL (the connection is made inside the test body, not in a fixture).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor
from tests.conftest import ADMIN_TOKEN, postgres_schema

POSTGRES_ENV = "MTG_LEDGER_TEST_POSTGRES"
JUDGE = Actor("Jane Judge (L2)", "judge")
SCOREKEEPER = Actor("Sam Scorekeeper", "scorekeeper")

TWO_PLAYER: dict[str, Any] = {
    "variant": "two_player",
    "tournament": {"event": "GP-Test", "round": 3, "table": 12},
    "turn": {"number": 3, "active_player": "P1", "step": "draw"},
    "players": [
        {
            "id": "P1",
            "name": "Alice",
            "counters": {"rad": 3},
            "library": [
                {"name": "Lightning Bolt", "type_line": "Instant"},
                {"name": "Forest", "type_line": "Basic Land — Forest"},
                {"name": "Grizzly Bears", "type_line": "Creature — Bear", "power": "2", "toughness": "2"},
                {"name": "Island", "type_line": "Basic Land — Island"},
            ],
            "library_size": 40,
        },
        {"id": "P2", "name": "Bob", "library": ["Island", "Island", "Forest"]},
    ],
    "battlefield": [
        {"id": "hydra", "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}},
    ],
}


def add_rad(player: str = "P2", amount: int = 1) -> dict[str, Any]:
    return {"type": "add_counters", "target": {"player": player}, "kind": "rad", "amount": amount}


@dataclass
class Store:
    """One empty database for one test, plus direct access for tamper tests."""

    kind: str
    base_url: str
    directory: Path
    schema: str | None = None
    sibling_of: Store | None = None
    _created: bool = False
    _services: list[LedgerService] = field(default_factory=list)
    _siblings: list[Store] = field(default_factory=list)

    @property
    def url(self) -> str:
        if self.kind == "sqlite":
            return f"sqlite:///{self.directory / 'ledger.sqlite3'}"
        self._ensure_schema()
        joiner = "&" if "?" in self.base_url else "?"
        return f"{self.base_url}{joiner}schema={self.schema}"

    def service(self, **settings: Any) -> LedgerService:
        """A service on this database with these ``LedgerSettings`` (a snapshot every 5 events
        unless told), closed at teardown. A sibling's service runs no read models unless told:
        an import target is read through the service, and each read model holds connections of
        its own (on PostgreSQL a service holds about 22 connections with them, 11 without)."""
        settings.setdefault("snapshot_interval", 5)
        if self.sibling_of is not None:
            settings.setdefault("read_models", False)
        service = LedgerService(self.url, LedgerSettings(**settings))
        self._services.append(service)
        return service

    def sibling(self) -> Store:
        """Another, empty database of the same kind (for imports). The siblings made before it
        have their services closed: each is the target of one import that the test has moved
        on from, and a test that kept every one open held ~100 PostgreSQL connections (issue 43)."""
        for earlier in self._siblings:
            earlier.close_services()
        other = Store(self.kind, self.base_url, self.directory / f"sibling-{uuid4().hex[:6]}", sibling_of=self)
        other.directory.mkdir()
        if self.kind == "postgresql":
            other.schema = f"{self.schema}_s{uuid4().hex[:4]}"
        self._siblings.append(other)
        return other

    # -- direct database access (tests only: the application never names a database) --------
    def _ensure_schema(self) -> None:
        if self._created or self.kind != "postgresql":
            return
        import psycopg

        with psycopg.connect(self.base_url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE SCHEMA "{self.schema}"')
        self._created = True

    def table(self, name: str) -> str:
        """A table's qualified name (``events`` and ``snapshots`` map to the ledger's tables)."""
        if self.kind == "sqlite":
            return {"events": "stored_events", "snapshots": "stored_snapshots"}.get(name, name)
        return f'"{self.schema}".' + {"events": "ledger_events", "snapshots": "ledger_snapshots"}.get(name, name)

    def execute(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run SQL written with ``?`` placeholders and ``{events}``-style table names."""
        sql = sql.format(
            events=self.table("events"), snapshots=self.table("snapshots"), summaries=self.table("game_summaries")
        )
        if self.kind == "sqlite":
            with sqlite3.connect(self.directory / "ledger.sqlite3") as lite:
                rows: list[tuple[Any, ...]] = lite.execute(sql, params).fetchall()
            lite.close()
            return rows
        import psycopg

        self._ensure_schema()
        with psycopg.connect(self.base_url, autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(sql.replace("?", "%s"), params)
            return cur.fetchall() if cur.description else []

    def read_event(self, game_id: str, version: int) -> bytes:
        rows = self.execute(
            "SELECT state FROM {events} WHERE originator_id = ? AND originator_version = ?", game_id, version
        )
        return bytes(rows[0][0])

    def write_event(self, game_id: str, version: int, state: bytes) -> None:
        self.execute(
            "UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = ?", state, game_id, version
        )

    def close_services(self) -> None:
        for service in self._services:
            service.close()
        self._services.clear()

    def close(self) -> None:
        self.close_services()
        for sibling in self._siblings:
            sibling.close()
        if self._created:
            import psycopg

            with psycopg.connect(self.base_url, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')


def postgres_base_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty store of each kind for one test."""
    if request.param == "sqlite":
        created = Store("sqlite", "", tmp_path)
    else:
        base = postgres_base_url()
        if base is None:
            pytest.skip(f"{POSTGRES_ENV} is not set: the PostgreSQL params need a server URL")
        created = Store("postgresql", base, tmp_path, schema=f"mtgl_test_{os.getpid()}_{uuid4().hex[:8]}")
    try:
        yield created
    finally:
        created.close()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    """SQLite only (fast tests that do not depend on the store)."""
    created = Store("sqlite", "", tmp_path)
    try:
        yield created
    finally:
        created.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def two_servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """A server that plays the games and another, on an empty database, that imports them."""

    def settings(url: str, name: str) -> Settings:
        return Settings(_env_file=None, database_url=url, admin_token=ADMIN_TOKEN, catalog_path=tmp_path / name)

    if request.param == "sqlite":
        urls = [f"sqlite:///{tmp_path / 'live.sqlite3'}", f"sqlite:///{tmp_path / 'import.sqlite3'}"]
        live_app, target_app = create_app(settings(urls[0], "a.json")), create_app(settings(urls[1], "b.json"))
        with TestClient(live_app) as live, TestClient(target_app) as target:
            yield live, target
        return
    with postgres_schema("mtgl_two_a") as live_url, postgres_schema("mtgl_two_b") as target_url:
        live_app, target_app = create_app(settings(live_url, "a.json")), create_app(settings(target_url, "b.json"))
        with TestClient(live_app) as live, TestClient(target_app) as target:
            yield live, target
