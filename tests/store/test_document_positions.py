"""A document read model remembers the position it wrote (``store.documents``,
``DocumentView.position``) instead of reading it before every batch; on PostgreSQL that is a
guess its write checks, so a runner whose guess another runner made stale still never folds a
record twice."""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.persistence import Tracking

from domain.commands.judging import CallJudge
from ledger.service import LedgerService
from store.documents import DocumentProjection
from tests.store.conftest import SCOREKEEPER, TWO_PLAYER, Store


def _records(service: LedgerService, after: int = 0) -> list[tuple[Any, Tracking]]:
    app = service.app
    found = app.recorder.select_notifications(start=after + 1, limit=1000)
    return [(app.mapper.to_domain_event(n), Tracking(app.name, n.id)) for n in found]


def _runner(service: LedgerService) -> DocumentProjection:
    _, projection = service.matches._follower.runner_parts()
    assert isinstance(projection, DocumentProjection)
    return projection


def _call(service: LedgerService, question: str) -> None:
    service.act("g1", CallJudge("P1", question), SCOREKEEPER)


def _game(service: LedgerService) -> None:
    service.create_game({**TWO_PLAYER, "tournament": {"event": "E", "round": 1, "table": 1}}, SCOREKEEPER, "g1")


def test_the_position_is_read_once_then_remembered(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    service = store.service(read_models=False)
    _game(service)
    runner = _runner(service)
    reads: list[str] = []
    real = type(runner.view).max_tracking_id

    def counted(view: Any, name: str) -> int | None:
        reads.append(name)
        found: int | None = real(view, name)
        return found

    monkeypatch.setattr(type(runner.view), "max_tracking_id", counted)
    done = 0
    for question in ("first", "second", "third"):
        _call(service, question)
        batch = _records(service, after=done)
        runner.process_batch(batch)
        done = batch[-1][1].notification_id
    assert len(reads) == 1  # the first batch reads it; the others fold from what was written
    assert [c["question"] for c in service.round("E", "1")["open_calls"]] == ["first", "second", "third"]


def test_a_stale_remembered_position_is_refused_and_read_again(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("on SQLite one runner at most: its election is a flock freed only when its process ends")
    old = store.service(read_models=False)
    new = store.service(read_models=False)
    _game(old)
    _call(old, "first")
    stale = _runner(old)
    stale.process_batch(_records(old))  # the old runner remembers the position it wrote
    seen = _records(old)[-1][1].notification_id
    _call(old, "second")
    _runner(new).process_batch(_records(new, after=seen))  # a failover: another runner writes on
    _call(old, "third")
    # The old runner's guess is the position before "second": its write is refused, the
    # position read again, and only "third" folded.
    stale.process_batch(_records(old, after=seen))
    assert [c["question"] for c in old.round("E", "1")["open_calls"]] == ["first", "second", "third"]
