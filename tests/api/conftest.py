"""The API suite runs on both stores: SQLite (a file per test) and PostgreSQL (a schema per test
on the server at MTG_LEDGER_TEST_POSTGRES; skipped with the reason when unset, failing when set
and unreachable)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest

from api.settings import Settings
from tests.conftest import ADMIN_TOKEN, require_postgres


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
        yield Settings(_env_file=None, database_url=url, admin_token=ADMIN_TOKEN, catalog_path=tmp_path / "cards.json")
        return
    import psycopg

    base = require_postgres()
    schema = f"mtgl_api_{os.getpid()}_{uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    joiner = "&" if "?" in base else "?"
    try:
        yield Settings(
            _env_file=None,
            database_url=f"{base}{joiner}schema={schema}",
            admin_token=ADMIN_TOKEN,
            catalog_path=tmp_path / "cards.json",
        )
    finally:
        with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
