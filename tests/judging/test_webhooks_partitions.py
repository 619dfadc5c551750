"""Issue 39: with several partitions the webhook outbox follows every partition's log. Before,
it followed the home partition's only: ``game_ended`` was never delivered for a game stored in
the second database (3 of 8 tables in the attack run), though the round listed them all.

A ledger of two databases (two SQLite files; two PostgreSQL databases, the partition tests'),
games ending in both, one subscription, a local receiver: every ``game_ended`` arrives once.
Reopened, the outbox goes on from each partition's own tracked position: nothing is enqueued
again, and the games ending since are delivered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledger.partitions import partition_of
from ledger.service import LedgerService, LedgerSettings
from ledger.settings import WebhookDelivery
from ledger.webhooks import OutboxProjection
from store.records import GameEvent
from tests.judging.webhook_receivers import LOOPBACK, Receiver, receiving
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER
from tests.store.test_partitions import two_databases  # noqa: F401  (the fixture)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def two_stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[str]]:
    """Two databases' URLs, the first the home partition."""
    if request.param == "sqlite":
        yield [f"sqlite:///{tmp_path / name}" for name in ("home.sqlite3", "second.sqlite3")]
    else:
        yield request.getfixturevalue("two_databases")


def _ledger(urls: list[str]) -> LedgerService:
    hooks = WebhookDelivery(deliver=True, allow_private=LOOPBACK)
    return LedgerService(urls, LedgerSettings(snapshot_interval=5, webhooks=hooks))


def _end(service: LedgerService, ids: list[str]) -> None:
    for gid in ids:
        service.create_game(TWO_PLAYER, SCOREKEEPER, gid)
        service.act(gid, {"type": "concede", "player": "P2"}, JUDGE)


def _ended(receiver: Receiver) -> list[str]:
    return sorted(json.loads(body)["data"]["game_id"] for _, body in receiver.received)


def _in(partition: int, count: int, prefix: str) -> list[str]:
    return [g for g in (f"{prefix}{i}" for i in range(100)) if partition_of(g, 2) == partition][:count]


def test_game_ended_is_delivered_from_every_partition(two_stores: list[str]) -> None:
    # Games ending in turns in each database, each log's events at the same places (the home
    # log's first record is the subscription, the second's a game left open): the two logs'
    # positions of the deliveries are the same numbers, and each delivery is still its own.
    ids = [g for pair in zip(_in(0, 4, "w"), _in(1, 4, "w"), strict=True) for g in pair]
    later = [*_in(0, 2, "x"), *_in(1, 2, "x")]
    with receiving() as receiver:
        service = _ledger(two_stores)
        try:
            sub = service.subscribe_webhook(receiver.url, ["game_ended"])
            service.create_game(TWO_PLAYER, SCOREKEEPER, _in(1, 1, "open")[0])
            service.wait_for_read_model()  # the outbox knows the subscription before the games end
            _end(service, ids)
            receiver.wait_for(len(ids))
            service.wait_for_read_model()
            assert _ended(receiver) == sorted(ids)
            assert len({headers["X-Ledger-Delivery"] for headers, _ in receiver.received}) == len(ids)
            assert len(service.webhook_deliveries(sub["id"])) == len(ids)  # each enqueued once
        finally:
            service.close()
        reopened = _ledger(two_stores)
        try:
            _end(reopened, later)
            receiver.wait_for(len(ids) + len(later))
            reopened.wait_for_read_model()
            assert _ended(receiver) == sorted(ids + later)  # none of the first sent again
            assert len(reopened.webhook_deliveries(sub["id"])) == len(ids) + len(later)
        finally:
            reopened.close()


SUBSCRIBED = "2026-12-05T12:00:00.000000Z"


def _deliveries(partition: int, recorded_at: str) -> dict[str, Any]:
    """What a ``GameEnded`` recorded at ``recorded_at`` in ``partition``'s log, at position 7,
    enqueues for a subscription made at ``SUBSCRIBED``."""
    folds = type("Folds", (OutboxProjection,), {"partition": partition})
    sub = {"id": "wh-000000000001", "url": "http://x", "events": ["game_ended"], "created_at": SUBSCRIBED}
    docs = {"subs": {"ids": [sub["id"]]}, f"sub/{sub['id']}": sub}
    actor = {"name": "j", "role": "judge"}
    record = GameEvent("g1", 9, "GameEnded", {"winner": "P1"}, None, "a1", actor, recorded_at, "0", "1")
    return folds.changes(record, docs.get, 7)


def test_another_partitions_events_go_to_the_subscriptions_made_before_them() -> None:
    # No order between two databases' logs: an event of another partition is delivered to the
    # subscriptions made by the time it was recorded (an outbox that starts late, after an
    # upgrade, must not send that partition's whole past); the home log's order decides there.
    before, after = "2026-12-05T11:59:59.999999Z", "2026-12-05T12:00:00.000001Z"
    assert _deliveries(1, before) == {}
    [(key, delivery)] = _deliveries(1, after).items()
    assert key == "delivery/wh-000000000001/p1/000000000007" and delivery["id"] == "wh-000000000001-p1-000000000007"
    assert json.loads(delivery["body"])["data"]["game_id"] == "g1"
    [(home_key, home)] = _deliveries(0, before).items()  # the home log: its order decides
    assert home_key == "delivery/wh-000000000001/000000000007" and home["id"] == "wh-000000000001-000000000007"
