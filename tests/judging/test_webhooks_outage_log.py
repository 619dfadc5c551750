"""Issue 40, finding 10 (and 6's third part): during a database outage the webhook deliverer
logged a full traceback every round (about 40 in a failover run of 6 kills). Now an outage is
one warning line, without a traceback, and its end one info line; any other error keeps its
traceback."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import psycopg
import pytest

from ledger.settings import WebhookDelivery
from tests.store.conftest import Store

LOGGER = "mtg_ledger.webhooks"


def _records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER]


@pytest.mark.parametrize(
    "outage",
    [
        psycopg.OperationalError("connection failed: connection to server at 127.0.0.1 port 5432 failed\nrefused"),
        sqlite3.OperationalError("database is locked"),
    ],
    ids=["postgresql", "sqlite"],
)
def test_an_outage_is_one_warning_line_and_its_end_one_info_line(
    store: Store, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, outage: Exception
) -> None:
    service = store.service(webhooks=WebhookDelivery(deliver=False))
    hooks = service.webhooks
    claim = hooks.view.claim

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise outage

    caplog.set_level(logging.INFO, logger=LOGGER)
    monkeypatch.setattr(hooks.view, "claim", unreachable)
    pruned = 0.0
    for _ in range(12):  # twelve rounds of an outage
        claimed, pruned = hooks.delivery_round(pruned)
        assert claimed == 0
    [warning] = _records(caplog)
    assert warning.levelno == logging.WARNING and warning.exc_info is None, warning
    assert "store unavailable" in warning.getMessage() and "\n" not in warning.getMessage()
    monkeypatch.setattr(hooks.view, "claim", claim)
    hooks.delivery_round(pruned)
    hooks.delivery_round(pruned)
    [_, back] = _records(caplog)
    assert back.levelno == logging.INFO and "reachable again after 12" in back.getMessage()


def test_any_other_error_keeps_its_traceback(
    store: Store, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = store.service(webhooks=WebhookDelivery(deliver=False))
    hooks = service.webhooks

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("a bug")

    monkeypatch.setattr(hooks.view, "claim", broken)
    hooks.delivery_round(0.0)
    [error] = _records(caplog)
    assert error.levelno == logging.ERROR and error.exc_info is not None
