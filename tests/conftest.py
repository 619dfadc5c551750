"""Fixtures shared by all tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings

ADMIN_TOKEN = "test-admin-token"
POSTGRES_ENV = "MTG_LEDGER_TEST_POSTGRES"


def postgres_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


def require_postgres() -> str:
    """The PostgreSQL URL, or skip with the reason when it is unset (set-but-down fails later)."""
    url = postgres_url()
    if url is None:
        pytest.skip(f"{POSTGRES_ENV} is not set: the PostgreSQL suite needs a server URL")
    return url


@contextmanager
def postgres_schema(prefix: str) -> Iterator[str]:
    """A fresh schema on the PostgreSQL test server (skips when none is set): yields the URL
    that names it, and drops it afterwards."""
    import psycopg

    base = require_postgres()
    schema = f"{prefix}_{os.getpid()}_{uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    joiner = "&" if "?" in base else "?"
    try:
        yield f"{base}{joiner}schema={schema}"
    finally:
        with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings for one test: SQLite in the test's own directory, no ``.env`` read."""
    return Settings(
        _env_file=None,
        database_url=f"sqlite:///{tmp_path / 'ledger.sqlite3'}",
        admin_token=ADMIN_TOKEN,
        catalog_path=tmp_path / "cards.json",
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """An HTTP client for an app built from ``settings``, with its lifespan running."""
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def admin_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}
