"""Webhooks: signed, delivered at least once from a durable outbox, across a restart in the
middle of a delivery (issue 14; docs/judges.md)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from ledger.settings import WebhookDelivery
from ledger.webhooks import verify_signature
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store

LOOPBACK = ("127.0.0.0/8",)
"""The receivers here listen on loopback: allowed as an operator would (``allow_private``)."""


class Receiver:
    """A local HTTP receiver: records each POST (headers and body); answers ``status``."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], bytes]] = []
        self.status = 200
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append(({k: v for k, v in self.headers.items()}, body))
                self.send_response(receiver.status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait_for(self, count: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.received) < count:
            assert time.monotonic() < deadline, f"received {len(self.received)} of {count}"
            time.sleep(0.02)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    created = Receiver()
    try:
        yield created
    finally:
        created.close()


def test_a_webhook_is_delivered_signed_after_a_restart_mid_delivery(store: Store, receiver: Receiver) -> None:
    first = store.service(webhooks=WebhookDelivery(deliver=False, lease=0.5, deadline=0.3, allow_private=LOOPBACK))
    sub = first.webhooks.subscribe(receiver.url, ["game_ended", "penalty_given"])
    first.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    first.act("g1", {"type": "concede", "player": "P2"}, JUDGE)
    first.wait_for_read_model()
    # The outbox claims the delivery; the process stops before it is sent and acknowledged.
    claimed = first.webhooks.claim_due()
    assert [d["event"] for _, d in claimed] == ["game_ended"]
    first.close()
    assert receiver.received == []
    # A new process on the same store: the claim expires and the delivery goes out.
    second = store.service(webhooks=WebhookDelivery(deliver=True, lease=0.5, deadline=0.3, allow_private=LOOPBACK))
    receiver.wait_for(1)
    headers, body = receiver.received[0]
    assert verify_signature(sub["secret"], headers["X-Ledger-Timestamp"], body, headers["X-Ledger-Signature"])
    assert not verify_signature("another secret", headers["X-Ledger-Timestamp"], body, headers["X-Ledger-Signature"])
    stale = str(int(headers["X-Ledger-Timestamp"]) - 3600)  # a replay an hour later is refused
    assert not verify_signature(sub["secret"], stale, body, headers["X-Ledger-Signature"])
    payload = json.loads(body)
    assert payload["event"] == "game_ended" and payload["data"]["data"]["winners"] == ["P1"]
    assert headers["X-Ledger-Delivery"] == payload["delivery"]
    deadline = time.monotonic() + 5
    while second.webhooks.deliveries(sub["id"])[0]["status"] != "delivered":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    [status] = second.webhooks.deliveries(sub["id"])
    # Two attempts: the claim of the process that stopped counts (it may have reached the receiver).
    assert status["attempts"] == 2 and status["event"] == "game_ended"


def test_a_failed_delivery_is_retried_with_backoff(store: Store, receiver: Receiver) -> None:
    service = store.service(webhooks=WebhookDelivery(deliver=False, backoff=0.5, allow_private=LOOPBACK))
    sub = service.subscribe_webhook(receiver.url, ["penalty_given"])
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    service.act("g1", {"type": "note", "text": "not a penalty"}, JUDGE)
    service.wait_for_read_model()
    assert service.webhooks.claim_due() == []  # nothing subscribed happened
    from domain.commands.judging import GivePenalty

    service.act("g1", GivePenalty("P1", "2.1", "Warning"), JUDGE)
    service.wait_for_read_model()
    receiver.status = 500
    assert service.webhooks.deliver_due() == 0
    [failed] = service.webhook_deliveries(sub["id"])
    assert failed["status"] == "pending" and failed["attempts"] == 1 and failed["last_error"] == "HTTP 500"
    assert service.webhooks.deliver_due() == 0  # backing off: not due yet
    time.sleep(0.6)
    receiver.status = 204
    assert service.webhooks.deliver_due() == 1
    assert [json.loads(b)["event"] for _, b in receiver.received] == ["penalty_given", "penalty_given"]
    assert service.webhook_deliveries(sub["id"])[0]["status"] == "delivered"
