"""A store that cannot be reached in time is ``503 store_unavailable`` with ``Retry-After``, never
a 500: the client (the table page's queue, a judge tool) sends the request again (docs/api.md,
Errors)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from tests.api.helpers import assert_problem, create_game, version_of
from tests.conftest import ADMIN_TOKEN

GAIN = {"type": "gain_life", "player": "P1", "amount": 1}


@pytest.fixture
def locked_file_client(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    """A server on a SQLite file whose busy timeout is one second (``?timeout=1``)."""
    path = tmp_path / "ledger.sqlite3"
    settings = Settings(
        _env_file=None,
        database_url=f"sqlite:///{path}?timeout=1",
        admin_token=ADMIN_TOKEN,
        catalog_path=tmp_path / "cards.json",
    )
    with TestClient(create_app(settings), raise_server_exceptions=True) as client:
        yield client, path


def test_a_store_locked_past_its_timeout_is_503_and_the_retry_is_stored(
    locked_file_client: tuple[TestClient, Path], admin_headers: dict[str, str]
) -> None:
    client, path = locked_file_client
    game = create_game(client, admin_headers)
    before = version_of(client, game, admin_headers)
    # Another process holds the file's write lock for longer than the server waits for it.
    other = sqlite3.connect(path, timeout=5, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        response = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=admin_headers)
        body = assert_problem(response, 503, "store_unavailable")
        assert response.headers["retry-after"] == "1"
        assert "again" in body["detail"]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert version_of(client, game, admin_headers) == before  # nothing was stored
    retry = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=admin_headers)
    assert retry.status_code == 201, retry.text
    assert retry.json()["version"] == before + 1
