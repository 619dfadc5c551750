"""Read models pull the commits of a short wait together, not one pull per commit: on PostgreSQL
a notification starts the wait (``store.postgres_recorder.GatheringSubscription``), on
SQLite the subscription looks once per interval (``store.sqlite_polling``);
docs/performance.md, issue 15."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from store.postgres_recorder import GATHER, GatheringSubscription
from store.sqlite_polling import POLL_INTERVAL, LogReader, PollingSubscription
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad

Subscribe = Callable[[Any, int], Any]
"""A subscription on the recorder after the notification id, waiting (or looking) every second."""


def _three_commits_come_in_one_pull(store: Store, subscribe: Subscribe, monkeypatch: pytest.MonkeyPatch) -> None:
    service = store.service(read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    recorder: Any = service.app.recorder
    start = recorder.max_notification_id()
    pulls: list[int] = []
    # The SQLite subscription reads through a connection of its own (``LogReader``).
    owner: Any = LogReader if store.kind == "sqlite" else recorder
    select = owner.select_notifications

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = select(*args, **kwargs)
        pulls.append(len(found))
        return found

    monkeypatch.setattr(owner, "select_notifications", counted)
    with subscribe(recorder, start) as subscription:
        time.sleep(0.2)  # the first pull (nothing new yet) is done
        assert pulls == [0]
        for _ in range(3):  # three commits, 50 ms apart: all within the wait
            service.act("g1", add_rad(), JUDGE)
            time.sleep(0.05)
        last = recorder.max_notification_id()
        seen = [next(subscription).id for _ in range(last - start)]
    assert seen == list(range(start + 1, last + 1))
    assert pulls[:2] == [0, last - start], pulls  # one pull held all three commits


def test_commits_within_the_wait_come_in_one_pull(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    if store.kind != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's; the SQLite subscription polls (the test below)")
    assert GATHER == 0.1  # a tenth of a second of lag for a pull per 40 commits at 400/s
    _three_commits_come_in_one_pull(
        store, lambda r, gt: GatheringSubscription(recorder=r, gt=gt, gather=1.0), monkeypatch
    )


def test_sqlite_commits_within_one_poll_come_in_one_pull(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's subscription looks every ``POLL_INTERVAL`` (the same wait as PostgreSQL's)."""
    if store.kind != "sqlite":
        pytest.skip("the polling subscription is SQLite's")
    assert POLL_INTERVAL == GATHER == 0.1
    _three_commits_come_in_one_pull(
        store, lambda r, gt: PollingSubscription(recorder=r, gt=gt, interval=1.0), monkeypatch
    )
