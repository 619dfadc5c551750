"""The API suite runs on both stores: SQLite (a file per test) and PostgreSQL (a schema per test
on the server at MTG_LEDGER_TEST_POSTGRES; skipped with the reason when unset, failing when set
and unreachable)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from api.settings import Settings
from tests.conftest import ADMIN_TOKEN, postgres_schema


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
        yield Settings(_env_file=None, database_url=url, admin_token=ADMIN_TOKEN, catalog_path=tmp_path / "cards.json")
        return
    with postgres_schema("mtgl_api") as url:
        yield Settings(
            _env_file=None,
            database_url=url,
            admin_token=ADMIN_TOKEN,
            catalog_path=tmp_path / "cards.json",
        )
