"""Delivering the outbox under trouble (issue 33, findings 4-6): a slow receiver holds its
own subscription only (a total deadline per request, subscriptions delivered concurrently),
a circuit breaker, a dead-letter state after ``max_attempts``, due rows by index and old rows
pruned, an atomic claim (two deliverers on one store send each delivery once), and an import
that doesn't fire its game's past events again."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest

from domain.commands.judging import GivePenalty
from ledger import webhooks
from ledger.service import LedgerService
from ledger.settings import WebhookDelivery
from ledger.webhook_delivery import BREAKER_FAILURES
from ledger.webhooks import VIEWS
from tests.judging.webhook_receivers import LOOPBACK, RawListener, receiving
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store


def _penalties(service: LedgerService, count: int, game: str = "g1") -> None:
    if not list(service.app.events.get(game, limit=1)):
        service.create_game(TWO_PLAYER, SCOREKEEPER, game)
    for _ in range(count):
        service.act(game, GivePenalty("P1", "2.1", "Warning"), JUDGE)
    service.wait_for_read_model()


def _due_now(store: Store) -> None:
    store.execute(f"UPDATE {store.table('webhook_deliveries')} SET due = 0 WHERE status = 'pending'")


def test_a_slow_receiver_is_cut_at_the_deadline_and_stalls_no_other_subscription(store: Store) -> None:
    dripping = RawListener("drip", interval=0.2)  # a byte every 0.2 s: no read ever times out
    try:
        with receiving() as fast:
            hooks = WebhookDelivery(deliver=True, deadline=3.0, lease=10.0, allow_private=LOOPBACK)
            service = store.service(webhooks=hooks)
            slow = service.subscribe_webhook(dripping.url, ["penalty_given"])
            service.subscribe_webhook(fast.url, ["penalty_given"])
            _penalties(service, 1)
            stored = time.monotonic()
            fast.wait_for(1, timeout=10)
            assert time.monotonic() - stored < 2.0  # not behind the slow one (cut at 3 s)
            deadline = time.monotonic() + 10
            while service.webhook_deliveries(slow["id"])[0]["last_error"] is None:
                assert time.monotonic() < deadline, "the slow request was never cut"
                time.sleep(0.05)
            assert time.monotonic() - stored < 5.0  # cut at 3 s, though it was still answering
            [cut] = service.webhook_deliveries(slow["id"])
            assert cut["status"] == "pending" and cut["last_error"] == "no answer" and cut["attempts"] == 1
    finally:
        dripping.close()


def test_a_failing_receiver_opens_its_circuit_and_gives_up_into_dead_letters(store: Store) -> None:
    with receiving() as failing:
        failing.status = 500
        hooks = WebhookDelivery(deliver=False, backoff=0.01, max_attempts=3, allow_private=LOOPBACK)
        service = store.service(webhooks=hooks)
        sub = service.subscribe_webhook(failing.url, ["penalty_given"])
        _penalties(service, 1)
        for _ in range(3):
            time.sleep(0.05)
            assert service.webhooks.deliver_due() == 0
        [dead] = service.webhook_deliveries(sub["id"])
        assert dead["status"] == "dead" and dead["attempts"] == 3 and dead["last_error"] == "HTTP 500"
        assert dead["dead_at"]
        time.sleep(0.05)
        assert service.webhooks.deliver_due() == 0 and len(failing.received) == 3  # never again
        # More failures in a row open the circuit: its deliveries wait, nothing is sent.
        _penalties(service, BREAKER_FAILURES)
        for _ in range(BREAKER_FAILURES - 3):
            service.webhooks.deliver_due()
        assert service.webhooks.deliverer.circuit_open(sub["id"])
        sent = len(failing.received)
        _due_now(store)
        assert service.webhooks.deliver_due() == 0 and len(failing.received) == sent
        assert service.webhooks.claim_due() == []


def test_delivered_and_dead_deliveries_are_pruned_after_their_retention(store: Store) -> None:
    with receiving() as receiver:
        hooks = WebhookDelivery(deliver=False, retention=60, dead_retention=3600, allow_private=LOOPBACK)
        service = store.service(webhooks=hooks)
        sub = service.subscribe_webhook(receiver.url, ["penalty_given"])
        _penalties(service, 3)
        assert service.webhooks.deliver_due() == 3
        _penalties(service, 1)  # one more, still pending
        deliverer = service.webhooks.deliverer
        assert deliverer.prune(time.time() + 30) == 0  # still within the retention
        assert deliverer.prune(time.time() + 61) == 3
        [left] = service.webhook_deliveries(sub["id"])
        assert left["status"] == "pending"


def test_due_deliveries_are_found_by_index_not_by_reading_every_row(store: Store) -> None:
    if store.kind != "sqlite":
        pytest.skip("the plan is checked on SQLite (PostgreSQL has the same partial index)")
    service = store.service(webhooks=WebhookDelivery(deliver=False, allow_private=LOOPBACK))
    del service
    plan = store.execute(
        "EXPLAIN QUERY PLAN SELECT key FROM webhook_deliveries WHERE due IS NOT NULL AND due <= 1 ORDER BY due, key"
    )
    assert any("webhook_deliveries_due" in str(row[-1]) for row in plan), plan


def test_two_deliverers_on_one_store_send_each_delivery_once(store: Store) -> None:
    with receiving() as receiver:
        hooks = WebhookDelivery(deliver=True, allow_private=LOOPBACK)
        first = store.service(webhooks=hooks)
        second = store.service(webhooks=hooks)  # like ``serve`` and the read-model process
        first.subscribe_webhook(receiver.url, ["penalty_given"])
        _penalties(first, 40)
        receiver.wait_for(40, timeout=20)
        time.sleep(1.0)  # any duplicate would arrive meanwhile
        ids = Counter(headers["X-Ledger-Delivery"] for headers, _ in receiver.received)
        assert len(ids) == 40 and set(ids.values()) == {1}, ids.most_common(3)
        del second


def test_concurrent_claims_never_take_the_same_delivery(store: Store) -> None:
    service = store.service(webhooks=WebhookDelivery(deliver=False, allow_private=LOOPBACK))
    other = store.service(webhooks=WebhookDelivery(deliver=False, allow_private=LOOPBACK))
    service.subscribe_webhook("http://127.0.0.1:9/hook", ["penalty_given"])
    _penalties(service, 30)
    claimed: list[list[str]] = [[], [], [], []]
    start = threading.Barrier(4)

    def claim(i: int) -> None:
        start.wait()
        for _ in range(10):
            claimed[i] += [key for key, _ in (service if i % 2 else other).webhooks.claim_due()]

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    every = [key for keys in claimed for key in keys]
    assert len(every) == len(set(every)) == 30
    [row] = store.execute(f"SELECT sum(attempts) FROM {store.table('webhook_deliveries')}")
    assert row[0] == 30  # each claim counted once: a true attempts count


def test_an_import_does_not_fire_the_games_past_events_again(store: Store) -> None:
    with receiving() as receiver:
        hooks = WebhookDelivery(deliver=False, allow_private=LOOPBACK)
        played = store.service(webhooks=hooks)
        played.subscribe_webhook(receiver.url, ["penalty_given"])
        _penalties(played, 2)
        assert played.webhooks.deliver_due() == 2
        export = list(played.export("g1"))
        elsewhere = store.sibling().service(webhooks=hooks, read_models=True)  # the webhook outbox is one
        sub = elsewhere.subscribe_webhook(receiver.url, ["penalty_given"])
        elsewhere.wait_for_read_model()
        elsewhere.import_game(export, JUDGE)
        elsewhere.wait_for_read_model()
        assert elsewhere.webhook_deliveries(sub["id"]) == []  # the two penalties were delivered already
        _penalties(elsewhere, 1)  # what happens after the import is delivered
        [new] = elsewhere.webhook_deliveries(sub["id"])
        assert elsewhere.webhooks.deliver_due() == 1 and new["event"] == "penalty_given"
        assert len(receiver.received) == 3


def test_deliveries_an_older_version_kept_as_documents_are_moved_and_sent(store: Store) -> None:
    with receiving() as receiver:
        hooks = WebhookDelivery(deliver=False, allow_private=LOOPBACK)
        old = store.service(webhooks=hooks)
        sub = old.subscribe_webhook(receiver.url, ["penalty_given"])
        _penalties(old, 1)
        [key, doc] = store.execute(
            f"SELECT key, doc FROM {store.table('webhook_deliveries')} WHERE subscription = ?", sub["id"]
        )[0]
        # As the version before issue 33 kept it: a document of the outbox's documents table.
        store.execute(f"DELETE FROM {store.table('webhook_deliveries')}")
        store.execute(f"INSERT INTO {store.table('webhook_outbox')} (key, doc) VALUES (?, ?)", key, doc)
        old.close()
        upgraded = store.service(webhooks=hooks)
        assert [d["status"] for d in upgraded.webhook_deliveries(sub["id"])] == ["pending"]
        assert upgraded.webhooks.deliver_due() == 1 and len(receiver.received) == 1
        assert store.execute(
            f"SELECT count(*) FROM {store.table('webhook_outbox')} WHERE substr(key, 1, 9) = ?", "delivery/"
        ) == [(0,)]


def test_an_idle_deliverer_backs_off_and_a_new_delivery_still_goes_at_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``ledger.webhooks``: a round when the outbox stores deliveries, else the wait doubles from
    # ROUND (a claim every 0.25 s was most of an idle server's instructions).
    monkeypatch.setattr(webhooks, "ROUND_MOST", 30.0)  # so that a timer cannot pass for the wake
    claims: list[float] = []
    view_class = VIEWS[store.kind]
    real = view_class.claim

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        claims.append(time.monotonic())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(view_class, "claim", counted)
    with receiving() as receiver:
        service = store.service(webhooks=WebhookDelivery(deliver=True, allow_private=LOOPBACK))
        service.subscribe_webhook(receiver.url, ["penalty_given"])
        time.sleep(2.0)  # the start settles
        settled = time.monotonic()
        time.sleep(6.0)
        idle = [t for t in claims if t > settled]
        # On a 0.25 s timer these 6 s would hold 24 claims; doubling from 0.25 s, two (at 3.75
        # and 7.75 s from the start).
        assert len(idle) <= 4, f"{len(idle)} claims in 6 idle seconds"
        _penalties(service, 1)
        stored = time.monotonic()
        receiver.wait_for(1, timeout=20)
        # The deliverer's own next look is about 15.75 s from the start, 7 s from now.
        assert time.monotonic() - stored < 3.0, "the new delivery waited for the idle deliverer's timer"
