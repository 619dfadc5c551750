"""Webhooks: a durable outbox following the notification log, and its deliverer (docs/judges.md).

The outbox is a ``DocumentProjection`` with its own tracking position (docs/architecture.md,
read models): for each stored record that a subscription asks for (``game_ended``, ``match_result``,
``judge_call_opened``, ``penalty_given``) it writes a pending delivery document, in the same
transaction as the tracking record. A restart resumes after the last record it tracked, and
every delivery written stays until it is acknowledged, so none is lost.

The deliverer claims a due delivery for a lease (``claimed_until``), POSTs it, and marks it
``delivered`` on a 2xx answer; otherwise it counts the attempt and backs off exponentially. A
claim whose process stopped before the answer expires and is delivered again: at least once,
so receivers deduplicate by ``X-Ledger-Delivery``.

Signature: ``X-Ledger-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>." + body)>`` with
``X-Ledger-Timestamp`` (Unix seconds); ``verify_signature`` is the receiver's check (a stale
timestamp is refused, so a captured request can't be replayed later).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any
from uuid import uuid4

from domain import events as ev
from domain.errors import Code, InvalidCommand, NotFound
from ledger.clock import Now
from store.application import LedgerApplication
from store.database_url import StoreKind
from store.documents import Doc, DocumentProjection, Get, follower, view_classes
from store.read_model_group import ReadModelGroup
from store.records import GameEvent, MatchReported, WebhookSubscribed, webhook_stream_id
from store.runner_election import ElectedRunner

log = logging.getLogger("mtg_ledger.webhooks")
VIEWS = view_classes("webhook_outbox")
#: The events a subscription may ask for.
WEBHOOK_EVENTS: tuple[str, ...] = ("game_ended", "match_result", "judge_call_opened", "penalty_given")
#: The webhook event of each game event that has one.
_BY_CLASS: dict[type[ev.DomainEvent], str] = {
    ev.GameEnded: "game_ended",
    ev.JudgeCallOpened: "judge_call_opened",
    ev.PenaltyGiven: "penalty_given",
}
SIGNATURE_TOLERANCE = 300
"""Seconds a receiver accepts a timestamp away from its clock."""


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Ledger-Signature`` value of ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={mac.hexdigest()}"


def verify_signature(
    secret: str, timestamp: str, body: bytes, signature: str, *, now: float | None = None, tolerance: int = 300
) -> bool:
    """A receiver's check: the signature matches and the timestamp is recent."""
    try:
        sent = int(timestamp)
    except ValueError:
        return False
    current = time.time() if now is None else now
    if abs(current - sent) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, sent, body), signature)


def _payload(record: Any, position: int) -> tuple[str, dict[str, Any]] | None:
    if isinstance(record, GameEvent):
        kind = record.event_class
        name = _BY_CLASS.get(kind) if kind is not None else None
        if name is None:
            return None
        body = {
            "game_id": record.originator_id,
            "version": record.originator_version,
            "type": record.type,
            "data": record.data,
            "actor": record.actor,
            "recorded_at": record.recorded_at,
        }
        return name, body
    if isinstance(record, MatchReported):
        body = {
            "event": record.event,
            "round": record.round,
            "table": record.table,
            "kind": record.kind,
            "player": record.player,
            "score": record.score,
            "actor": record.actor,
            "recorded_at": record.recorded_at,
        }
        return "match_result", body
    return None


class OutboxProjection(DocumentProjection):
    """Subscriptions and their pending deliveries."""

    name = "WebhookOutbox"

    @staticmethod
    def changes(record: Any, get: Get, position: int) -> dict[str, Doc]:
        if isinstance(record, WebhookSubscribed):
            index = get("subs") or {"ids": []}
            sid = record.originator_id.removeprefix("_webhook/")
            sub = {"id": sid, "url": record.url, "events": record.events, "secret": record.secret}
            return {"subs": {"ids": [*index["ids"], sid]}, f"sub/{sid}": sub}
        found = _payload(record, position)
        if found is None:
            return {}
        name, body = found
        out: dict[str, Doc] = {}
        for sid in (get("subs") or {"ids": []})["ids"]:
            subscription = get(f"sub/{sid}")
            if subscription is None or name not in subscription["events"]:
                continue
            delivery = f"{sid}-{position:012d}"
            out[f"delivery/{sid}/{position:012d}"] = {
                "id": delivery,
                "subscription": sid,
                "event": name,
                "body": json.dumps({"event": name, "delivery": delivery, "data": body}, sort_keys=True),
                "status": "pending",
                "attempts": 0,
                "next_at": 0.0,
                "claimed_until": 0.0,
                "last_error": None,
                "delivered_at": None,
            }
        return out


Post = Callable[[str, bytes, Mapping[str, str]], int]
"""Send one request; the answer's status (raise for no answer)."""


def http_post(url: str, body: bytes, headers: Mapping[str, str]) -> int:
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


class Webhooks:
    """Subscriptions (stored in the log), the outbox, and an optional delivering thread."""

    def __init__(
        self,
        app: LedgerApplication,
        store: StoreKind,
        env: Mapping[str, str],
        now: Now,
        *,
        group: ReadModelGroup,
        deliver: bool,
        lease: float = 30.0,
        backoff: float = 1.0,
        post: Post = http_post,
    ) -> None:
        self._app = app
        self._now = now
        self._follower = follower(app, store, env, OutboxProjection, VIEWS, group=group)
        self.lease = lease
        self.backoff = backoff
        self._post = post
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if deliver:
            self._thread = threading.Thread(target=self._loop, name="webhook-deliverer", daemon=True)
            self._thread.start()

    @property
    def election(self) -> ElectedRunner | None:
        """Whether this process keeps the outbox read model (``None``: it never asks to)."""
        return self._follower.election

    # -- subscriptions ---------------------------------------------------------------------
    def subscribe(self, url: str, events: list[str]) -> dict[str, Any]:
        """A new subscription; its secret is returned once (and kept, as signing needs it)."""
        if not url.startswith(("http://", "https://")):
            raise InvalidCommand(f"url must be http(s), got {url!r}", Code.INVALID_FIELD)
        unknown = [e for e in events if e not in WEBHOOK_EVENTS]
        if unknown or not events:
            raise InvalidCommand(f"events must be some of {list(WEBHOOK_EVENTS)}, got {events!r}", Code.INVALID_FIELD)
        sid = f"wh-{uuid4().hex[:12]}"
        secret = secrets.token_urlsafe(32)
        record = WebhookSubscribed(
            originator_id=webhook_stream_id(sid),
            originator_version=1,
            url=url,
            events=list(events),
            secret=secret,
            created_at=self._now(),
        )
        self._app.save(record)
        return {"id": sid, "url": url, "events": list(events), "secret": secret}

    def deliveries(self, subscription: str) -> list[dict[str, Any]]:
        """Delivery status of one subscription, oldest first (``NotFound`` for an unknown id)."""
        if not list(self._app.events.get(webhook_stream_id(subscription), limit=1)):
            raise NotFound(f"there is no webhook subscription {subscription!r}", Code.UNKNOWN_WEBHOOK)
        docs = self._follower.view.docs(f"delivery/{subscription}/")
        return [{k: v for k, v in d.items() if k != "body"} for d in docs.values()]

    # -- delivery ----------------------------------------------------------------------------
    def claim_due(self, now: float | None = None) -> list[tuple[str, Doc]]:
        """Claim the due deliveries for ``lease`` seconds; ``(key, delivery)`` each."""
        current = time.time() if now is None else now
        if self._follower.view.get_doc("subs") is None:
            return []  # no subscription: one point read, not a scan
        due = {
            key: doc
            for key, doc in self._follower.view.docs("delivery/").items()
            if doc["status"] == "pending" and doc["next_at"] <= current and doc["claimed_until"] <= current
        }
        claimed = {key: {**doc, "claimed_until": current + self.lease} for key, doc in due.items()}
        if claimed:
            self._follower.view.put_docs(claimed, None)
        return list(claimed.items())

    def deliver(self, key: str, delivery: Doc) -> bool:
        """POST one claimed delivery and record the outcome; whether it was acknowledged."""
        sub = self._follower.view.get_doc(f"sub/{delivery['subscription']}")
        if sub is None:  # pragma: no cover - a delivery is written only for a known subscription
            return False
        body = delivery["body"].encode()
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "mtg-ledger-webhooks",
            "X-Ledger-Event": delivery["event"],
            "X-Ledger-Delivery": delivery["id"],
            "X-Ledger-Timestamp": str(timestamp),
            "X-Ledger-Signature": sign(sub["secret"], timestamp, body),
        }
        attempts = delivery["attempts"] + 1
        try:
            status = self._post(sub["url"], body, headers)
            error = None if 200 <= status < 300 else f"HTTP {status}"
        except Exception as err:
            error = f"{type(err).__name__}: {err}"
        if error is None:
            done = {**delivery, "status": "delivered", "attempts": attempts, "delivered_at": self._now()}
        else:
            wait = min(self.backoff * 2 ** (attempts - 1), 3600.0)
            done = {**delivery, "attempts": attempts, "last_error": error, "next_at": time.time() + wait}
            done["claimed_until"] = 0.0
        self._follower.view.put_docs({key: done}, None)
        return error is None

    def deliver_due(self) -> int:
        """Claim and deliver what is due now; how many were acknowledged."""
        return sum(self.deliver(key, d) for key, d in self.claim_due())

    def _loop(self) -> None:
        while not self._stop.wait(0.25):
            try:
                self.deliver_due()
            except Exception:  # pragma: no cover - the next round tries again
                log.exception("webhook delivery round failed")

    def wait(self, timeout: float = 10.0) -> None:
        self._follower.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._follower.close()
