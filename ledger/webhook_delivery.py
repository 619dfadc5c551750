"""Sending the webhook outbox (``ledger.webhooks``): one request, and the deliverer.

One request (``send``, issue 33, findings 2-4): the URL's host is resolved and checked again
(``ledger.webhook_urls``) and the connection made to the address checked, with the URL's host
in ``Host`` and in TLS's server name; redirects are not followed and a 3xx answer is a failure
(the body reached no one); the request has a total deadline, connect to answer, not a
per-read timeout (a receiver dripping a byte every few seconds is cut at the deadline); and
what a failure says is generic: "no answer" whether the port was closed, filtered or slow.

The deliverer (finding 4): each round claims the due deliveries (``store.outbox``: an atomic
claim with a lease and the attempt counted) of the subscriptions that are not busy and whose
circuit is closed, and sends each subscription's in order on a small pool, so one slow
receiver holds one thread, not every subscription. ``BREAKER_FAILURES`` failed rounds in a row
open a subscription's circuit for ``BREAKER_COOLDOWN`` seconds; a delivery that failed
``max_attempts`` times is given up (``dead``, still listed).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from uuid import uuid4

from domain.errors import InvalidCommand
from ledger.settings import WebhookDelivery
from ledger.webhook_urls import AddressPolicy, IPAddress, check_url
from store.documents import Doc
from store.errors import STORE_UNREACHABLE
from store.outbox import OutboxView

log = logging.getLogger("mtg_ledger.webhooks")
POOL = 4
"""Subscriptions delivered to at once by one process."""
CLAIM_LIMIT = 64
"""Deliveries one round claims at most."""
BREAKER_FAILURES = 5
"""Failed rounds in a row that open a subscription's circuit."""
BREAKER_COOLDOWN = 60.0
"""Seconds an open circuit stays open before one more round is tried."""
NO_ANSWER = "no answer"
"""``last_error`` of a request that got no HTTP answer, whatever the reason."""
REFUSED = "address refused"
"""``last_error`` when the host now resolves to an address that is not allowed."""

Send = Callable[[str, bytes, Mapping[str, str]], int]
"""POST one body to a URL; the answer's status, or ``DeliveryFailed``."""


class DeliveryFailed(Exception):
    """No HTTP answer (the message is what ``last_error`` says)."""


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Ledger-Signature`` value of ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


class _Pinned(http.client.HTTPConnection):
    """Connects to ``address``, not to whatever ``host`` resolves to now."""

    def __init__(self, host: str, port: int, address: IPAddress, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((str(self._address), self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: IPAddress, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((str(self._address), self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def sender(policy: AddressPolicy, deadline: float) -> Send:
    """``send`` under ``policy``, each request cut at ``deadline`` seconds."""

    def send(url: str, body: bytes, headers: Mapping[str, str]) -> int:
        try:
            target = check_url(url)
            address = policy.resolve(target.host, target.port)[0]
        except InvalidCommand:
            raise DeliveryFailed(REFUSED) from None
        kind = _PinnedTLS if target.scheme == "https" else _Pinned
        conn = kind(target.host, target.port, address, deadline)
        # The deadline closes the socket under a request still connecting, sending or reading.
        cut = threading.Event()
        timer = threading.Timer(deadline, _cut, (conn, cut))
        timer.daemon = True
        timer.start()
        try:
            conn.request("POST", target.path, body=body, headers=dict(headers))
            status = conn.getresponse().status  # the body is not read: only the status counts
        except (OSError, http.client.HTTPException, ValueError):
            raise DeliveryFailed(NO_ANSWER) from None
        finally:
            timer.cancel()
            conn.close()
        if cut.is_set():  # a status line cut short can still parse ("HTTP/1.1 200 OK" without CRLF)
            raise DeliveryFailed(NO_ANSWER)
        return status

    return send


def _cut(conn: http.client.HTTPConnection, cut: threading.Event) -> None:
    cut.set()
    sock = conn.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


class OutageLog:
    """How the deliverer tells of a database it can't reach: one warning line when an outage
    begins (no traceback: nothing is wrong with the ledger, and its rounds go on trying), one
    info line when a round reaches the store again. A failover's outage was a full traceback
    every round, about 40 in a run of 6 kills (issue 40). Other errors keep their traceback."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._failed = 0

    def failed(self, what: str, err: BaseException) -> None:
        if not isinstance(err, STORE_UNREACHABLE):
            log.error("%s failed", what, exc_info=err)
            return
        with self._lock:
            self._failed += 1
            first = self._failed == 1
        if first:
            reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
            log.warning("%s: store unavailable (%s); trying again each round", what, reason)

    def reached(self) -> None:
        with self._lock:
            failed, self._failed = self._failed, 0
        if failed:
            log.info("webhook delivery: store reachable again after %d failed tries", failed)


class Deliverer:
    """Claims due deliveries from ``view`` and sends them with ``send``."""

    def __init__(self, view: OutboxView, send: Send, settings: WebhookDelivery) -> None:
        self._view = view
        self._send = send
        self.settings = settings
        self._pool = ThreadPoolExecutor(POOL, thread_name_prefix="webhook-send")
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._failures: dict[str, int] = {}
        self._open_until: dict[str, float] = {}
        self.outage = OutageLog()

    def claim(self, now: float, skip: set[str] | None = None) -> tuple[str, list[tuple[str, Doc]]]:
        """Claim what is due now (but ``skip``'s subscriptions); the claim's token and deliveries."""
        token = uuid4().hex
        with self._lock:
            closed = {sid for sid, until in self._open_until.items() if until > now}
            skip = closed | self._busy | (skip or set())
        return token, self._view.claim(now, self.settings.lease, token, CLAIM_LIMIT, skip)

    def start_round(self, wait: bool = False) -> int:
        """Claim and hand each subscription's deliveries to the pool; with ``wait``, wait for
        them: how many were acknowledged (without ``wait``: how many were claimed)."""
        now = time.time()
        token, claimed = self.claim(now)
        groups: dict[str, list[tuple[str, Doc]]] = {}
        for key, doc in claimed:
            groups.setdefault(doc["subscription"], []).append((key, doc))
        futures: list[Future[int]] = []
        with self._lock:
            self._busy.update(groups)
        for sid, items in groups.items():
            futures.append(self._pool.submit(self._run, sid, token, items, now + self.settings.lease))
        return sum(f.result() for f in futures) if wait else len(claimed)

    def _run(self, sid: str, token: str, items: list[tuple[str, Doc]], lease_end: float) -> int:
        delivered = 0
        try:
            sub = self._view.get_doc(f"sub/{sid}")
            for i, (key, doc) in enumerate(items):
                # Send only while the lease lasts a whole request more: after it, another
                # process may claim the delivery again, and the receiver would get it twice.
                if time.time() + self.settings.deadline >= lease_end:
                    self._release(items[i:], token)
                    break
                outcome = self._deliver(key, token, doc, sub)
                if outcome is None:
                    continue  # cancelled: its subscription is deleted
                if not outcome:
                    self._release(items[i + 1 :], token)  # the receiver is failing: the rest wait
                    self._failed(sid)
                    break
                delivered += 1
            else:
                with self._lock:
                    self._failures.pop(sid, None)
                    self._open_until.pop(sid, None)
        except Exception as err:  # a store error: the leases expire, the next round tries again
            self.outage.failed(f"webhook delivery to {sid}", err)
        finally:
            with self._lock:
                self._busy.discard(sid)
        return delivered

    def _failed(self, sid: str) -> None:
        with self._lock:
            failures = self._failures.get(sid, 0) + 1
            self._failures[sid] = failures
            if failures >= BREAKER_FAILURES:
                self._open_until[sid] = time.time() + BREAKER_COOLDOWN

    def circuit_open(self, sid: str) -> bool:
        """Whether ``sid``'s deliveries wait for its circuit to close."""
        with self._lock:
            return self._open_until.get(sid, 0.0) > time.time()

    def _release(self, items: list[tuple[str, Doc]], token: str) -> None:
        """Give back claimed deliveries not sent: due again, the attempt not counted."""
        for key, doc in items:
            self._view.finish(key, token, {**doc, "attempts": doc["attempts"] - 1, "claimed_until": 0.0}, None)

    def _deliver(self, key: str, token: str, doc: Doc, sub: Doc | None) -> bool | None:
        """Send one claimed delivery and write its outcome; whether it was acknowledged
        (``None``: not sent, its subscription is deleted)."""
        now = time.time()
        if sub is None or sub.get("deleted"):
            self._view.finish(key, token, {**doc, "status": "cancelled"}, now)
            return None
        body = doc["body"].encode()
        timestamp = int(now)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "mtg-ledger-webhooks",
            "X-Ledger-Event": doc["event"],
            "X-Ledger-Delivery": doc["id"],
            "X-Ledger-Timestamp": str(timestamp),
            "X-Ledger-Signature": sign(sub["secret"], timestamp, body),
        }
        try:
            status = self._send(sub["url"], body, headers)
            error = None if 200 <= status < 300 else f"HTTP {status}"
            if 300 <= status < 400:
                error += " (redirects are not followed)"  # type: ignore[operator]
        except DeliveryFailed as err:
            error = str(err)
        except Exception:  # a sender's bug must not say more than no answer either
            log.exception("webhook send failed")
            error = NO_ANSWER
        attempts = doc["attempts"]
        finished = time.time()
        done_at: float | None = finished
        if error is None:
            done = {**doc, "status": "delivered", "delivered_at": _iso(finished), "last_error": None}
        elif attempts >= self.settings.max_attempts:
            done = {**doc, "status": "dead", "dead_at": _iso(finished), "last_error": error}
        else:
            wait = min(self.settings.backoff * 2 ** (attempts - 1), 3600.0)
            done = {**doc, "last_error": error, "next_at": time.time() + wait}
            done_at = None
        self._view.finish(key, token, {**done, "claimed_until": 0.0}, done_at)
        return error is None

    def prune(self, now: float | None = None) -> int:
        """Delete delivered and dead deliveries past their retention; how many."""
        current = time.time() if now is None else now
        return self._view.prune(current - self.settings.retention, current - self.settings.dead_retention)

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat().replace("+00:00", "Z")
