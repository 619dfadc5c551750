"""Fixtures shared by all tests."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings for one test: SQLite in the test's own directory, no ``.env`` read."""
    return Settings(
        _env_file=None,
        database_url=f"sqlite:///{tmp_path / 'ledger.sqlite3'}",
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """An HTTP client for an app built from ``settings``, with its lifespan running."""
    with TestClient(create_app(settings)) as test_client:
        yield test_client
