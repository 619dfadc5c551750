"""``LedgerApplication.save``: the ledger's own records go straight to the event store, without
the library's per-object ``Protocol`` check (about 23 µs an object on Python 3.11); anything else
still takes the library's way (``store.application``)."""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing import application as library
from eventsourcing.domain import Aggregate

from store.records import GameEvent
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def _collected(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every object the library's ``save`` collects (its ``ProcessingEvent.collect_events``)."""
    seen: list[Any] = []
    real = library.ProcessingEvent.collect_events

    def spied(self: Any, *objs: Any, **kwargs: Any) -> None:
        seen.extend(objs)
        real(self, *objs, **kwargs)

    monkeypatch.setattr(library.ProcessingEvent, "collect_events", spied)
    return seen


def test_the_ledgers_records_skip_the_librarys_collect(sqlite_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _collected(monkeypatch)
    service = sqlite_store.service(read_models=False)
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    result = service.act("g1", add_rad(), JUDGE)
    assert seen == [], "a ledger record went through the library's per-object check"
    # What was saved reads back as written, hash chain and all.
    stored = list(service.app.events.get("g1"))
    assert [e.originator_version for e in stored] == list(range(1, result.version + 1))
    assert all(isinstance(e, GameEvent) for e in stored)
    assert stored[-1].hash == result.events[-1].hash
    assert service.verify("g1").ok


def test_anything_else_takes_the_librarys_way(sqlite_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _collected(monkeypatch)
    service = sqlite_store.service(read_models=False)

    class Counter(Aggregate):
        def __init__(self) -> None:
            self.n = 0

    counter = Counter()
    recordings = service.app.save(counter)
    assert seen == [counter] and len(recordings) == 1
    assert service.app.repository.get(counter.id).n == 0
