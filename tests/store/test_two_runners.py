"""Two runners of one read model for a moment: what a failover makes (docs/operations.md, High
availability). The runner election is an advisory lock on the primary, which a standby does not
have: after a failover another process is elected on the new primary while the old runner may
still finish a batch it pulled before, and its pools reconnect to the new primary too.

A document read model folds each record into documents (``store.documents``), so the two must
never both fold one record: the batch a runner writes starts where the view's tracking stood
when the runner read the documents it changes, or the write is refused and what is left of the
batch is folded again from the new position. (Tracking that only moves forward is not enough:
a stale runner's batch that ends past the other's would have been written on top of it, its
judge calls listed twice.)"""

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


def test_a_stale_runner_never_folds_a_record_twice(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("on SQLite one runner at most: its election is a flock freed only when its process ends")
    service = store.service(read_models=False)
    service.create_game({**TWO_PLAYER, "tournament": {"event": "E", "round": 1, "table": 1}}, SCOREKEEPER, "g1")
    _call(service, "first")
    _call(service, "second")
    stale_pull = _records(service)  # the old runner pulled these, then the primary died
    _call(service, "third")
    elected = _runner(service)
    elected.process_batch(_records(service))  # the newly elected runner projects everything
    _call(service, "fourth")
    # The old runner finishes what it had, plus what its next pull found: a batch that starts
    # before the new runner's position and ends past it.
    _runner(service).process_batch(stale_pull + _records(service, after=stale_pull[-1][1].notification_id))
    questions = [c["question"] for c in service.round("E", "1")["open_calls"]]
    assert questions == ["first", "second", "third", "fourth"]
