"""``serve``'s workers freeze their start-up heap (``api.heap``): the garbage collector's full
passes then skip the modules, classes and schemas that live as long as the process (a full
pass over them took 120-200 ms in a loaded worker: docs/performance.md, issue 15, sixth pass)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.app import create_app, create_served_app


@pytest.fixture
def unfrozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", f"sqlite:///{tmp_path / 'heap.sqlite3'}")
    monkeypatch.setenv("MTG_LEDGER_ADMIN_TOKEN", "heap-admin")
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    gc.unfreeze()
    yield
    gc.unfreeze()  # the test process's objects go back to being collected


def walked_by_full_collections(obj: object) -> bool:
    """Whether ``obj`` is in a generation the collector walks (not the permanent one)."""
    return any(o is obj for o in gc.get_objects())


def test_the_served_app_freezes_what_exists_once_it_has_started(unfrozen: None) -> None:
    app = create_served_app()
    assert gc.is_tracked(app.router) and walked_by_full_collections(app.router)
    with TestClient(app) as client:
        assert client.get("/v1/health").status_code == 200
        assert gc.get_freeze_count() > 1000
        assert not walked_by_full_collections(app.router)  # made before start-up: frozen
        made_after = {"a request's": ["objects"]}
        assert walked_by_full_collections(made_after)  # still collected as before


def test_apps_built_directly_do_not_freeze(unfrozen: None) -> None:
    """The test suite's apps come and go: a frozen cycle among them would never be freed."""
    with TestClient(create_app()) as client:
        assert client.get("/v1/health").status_code == 200
        assert gc.get_freeze_count() == 0
