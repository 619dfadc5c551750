"""Webhooks: a durable outbox following the notification log, and its deliverer (docs/judges.md).

The outbox is a ``DocumentProjection`` with its own tracking position (docs/architecture.md,
read models): for each stored record that a subscription asks for (``game_ended``, ``match_result``,
``judge_call_opened``, ``penalty_given``) it writes a pending delivery, in the same transaction
as the tracking record (``store.outbox``: deliveries have a table of their own, due ones found
by an index). A restart resumes after the last record it tracked, and every delivery written
stays until it is delivered or given up, so none is lost. A game's events stored by an import
are past events: they are not delivered again (issue 33, finding 6).

With several partitions (``ledger.partitions``) the outbox follows every partition's log, as the
matches read model does (issue 39: ``game_ended`` of the games stored in another database than
the home one was never delivered). The subscriptions and the deliveries stay in the home
database (``store.outbox``): each other partition's log is folded there with a tracking position
of its own, in the transaction that stores the deliveries it enqueues, so each event is enqueued
once and one deliverer sends them all. An event of another partition is delivered to the
subscriptions made before it was recorded (its ``recorded_at`` is not earlier than the
subscription's ``created_at``): there is no order between two databases' logs, and a partition
whose outbox starts late (an upgrade) must not send its whole past.

The deliverer (``ledger.webhook_delivery``) claims due deliveries atomically for a lease,
POSTs them to the address checked (``ledger.webhook_urls``) and marks them ``delivered`` on a
2xx answer; otherwise it backs off exponentially, and after ``max_attempts`` gives up
(``dead``). A claim whose process stopped before the answer expires and is delivered again: at
least once, so receivers deduplicate by ``X-Ledger-Delivery``.

Signature: ``X-Ledger-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>." + body)>`` with
``X-Ledger-Timestamp`` (Unix seconds); ``verify_signature`` is the receiver's check (a stale
timestamp is refused, so a captured request can't be replayed later).
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast
from uuid import uuid4

from domain import events as ev
from domain.errors import Code, InvalidCommand, NotFound
from ledger.clock import Now
from ledger.match_service import Source
from ledger.settings import WebhookDelivery
from ledger.tournament_webhooks import TOURNAMENT_WEBHOOK_EVENTS, tournament_payload
from ledger.webhook_delivery import Deliverer, Send, sender, sign
from ledger.webhook_urls import AddressPolicy, check_url, parse_networks
from store.database_url import StoreKind
from store.documents import Doc, DocumentProjection, Get, follower
from store.errors import VersionClash
from store.ledger_store import ReadModelApp
from store.outbox import OutboxView, outbox_view_classes
from store.read_model_group import ReadModelGroup
from store.records import (
    GameEvent,
    GameImported,
    MatchReported,
    WebhookDeleted,
    WebhookSecretRotated,
    WebhookSubscribed,
    import_stream_id,
    webhook_stream_id,
)
from store.runner_election import ElectedRunner
from store.streams import Streams

__all__ = ["WEBHOOK_EVENTS", "OutboxProjection", "Webhooks", "sign", "verify_signature"]
log = logging.getLogger("mtg_ledger.webhooks")
VIEWS_TABLE = "webhook_outbox"
VIEWS = outbox_view_classes(VIEWS_TABLE)
ROUND = 0.25
"""Seconds between delivery rounds while they find deliveries to send."""
ROUND_MOST = 4.0
"""Seconds at most between rounds that find nothing (the wait doubles from ``ROUND``)."""
#: The events a subscription may ask for.
WEBHOOK_EVENTS: tuple[str, ...] = ("game_ended", "match_result", "judge_call_opened", "penalty_given")
WEBHOOK_EVENTS += TOURNAMENT_WEBHOOK_EVENTS
#: The webhook event of each game event that has one.
_BY_CLASS: dict[type[ev.DomainEvent], str] = {
    ev.GameEnded: "game_ended",
    ev.JudgeCallOpened: "judge_call_opened",
    ev.PenaltyGiven: "penalty_given",
}
SIGNATURE_TOLERANCE = 300
"""Seconds a receiver accepts a timestamp away from its clock."""


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
    return tournament_payload(record)  # round_paired, standings_updated (ledger.tournament_webhooks)


Imported = Callable[[str, int], bool]
"""Whether version ``v`` of game ``g`` was stored by an import (a past event)."""


class OutboxProjection(DocumentProjection):
    """Subscriptions and their pending deliveries."""

    name = "WebhookOutbox"
    imported: ClassVar[Imported] = staticmethod(lambda game, version: False)
    """Set per ledger by ``Webhooks`` (the projection is built by the library, without arguments)."""
    partition: ClassVar[int] = 0
    """The partition whose log this projection folds (0: the home one, which holds the
    subscriptions; set per partition by ``Webhooks``)."""

    @classmethod
    def changes(cls, record: Any, get: Get, position: int) -> dict[str, Doc]:
        if isinstance(record, WebhookSubscribed):
            index = get("subs") or {"ids": []}
            sid = record.originator_id.removeprefix("_webhook/")
            sub = {
                "id": sid,
                "url": record.url,
                "events": record.events,
                "secret": record.secret,
                "created_at": record.created_at,
            }
            return {"subs": {"ids": [*index["ids"], sid]}, f"sub/{sid}": sub}
        if isinstance(record, WebhookSecretRotated | WebhookDeleted):
            return _lifecycle(record, get)
        found = _payload(record, position)
        if found is None:
            return {}
        name, body = found
        subs = [get(f"sub/{sid}") for sid in (get("subs") or {"ids": []})["ids"]]
        wanted = [s for s in subs if s is not None and name in s["events"]]
        if cls.partition:  # another database's log: no order with the subscriptions' (module docstring)
            wanted = [s for s in wanted if str(body.get("recorded_at") or "") >= s["created_at"]]
        if not wanted:
            return {}
        if isinstance(record, GameEvent) and cls.imported(record.originator_id, record.originator_version):
            return {}  # an imported game's past: delivered when it happened, wherever that was
        # A position is a place in one partition's log: another partition's deliveries say which.
        place = f"p{cls.partition}/{position:012d}" if cls.partition else f"{position:012d}"
        out: dict[str, Doc] = {}
        for subscription in wanted:
            sid = subscription["id"]
            delivery = f"{sid}-{place.replace('/', '-')}"
            out[f"delivery/{sid}/{place}"] = {
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


def _lifecycle(record: WebhookSecretRotated | WebhookDeleted, get: Get) -> dict[str, Doc]:
    sid = record.originator_id.removeprefix("_webhook/")
    sub = get(f"sub/{sid}")
    if sub is None:  # pragma: no cover - a subscription's later records follow its first
        return {}
    if isinstance(record, WebhookSecretRotated):
        return {f"sub/{sid}": {**sub, "secret": record.secret}}
    index = get("subs") or {"ids": []}
    # The document stays (marked): deliveries written before the deletion find it and are cancelled.
    return {"subs": {"ids": [i for i in index["ids"] if i != sid]}, f"sub/{sid}": {**sub, "deleted": True}}


def _imported_in(streams: Streams) -> Imported:
    """Whether a version of a game of a partition was stored by an import (its receipt is in
    the game's partition)."""

    def imported(game_id: str, version: int) -> bool:
        receipts = streams.read(import_stream_id(game_id), limit=1)
        return bool(receipts) and isinstance(receipts[0], GameImported) and version <= receipts[0].events

    return imported


_SUBSCRIPTION_ID = re.compile(r"wh-[0-9a-f]{12}")


def _known_form(subscription: str) -> str:
    """``subscription`` if it has the form of an id ``subscribe`` gives, else ``NotFound``
    (a NUL or any other character never reaches the store)."""
    if not _SUBSCRIPTION_ID.fullmatch(subscription):
        raise NotFound(f"there is no webhook subscription {subscription!r}", Code.UNKNOWN_WEBHOOK)
    return subscription


class Webhooks:
    """Subscriptions (stored in the log), the outbox, and an optional delivering thread."""

    def __init__(
        self,
        app: ReadModelApp,
        store: StoreKind,
        env: Mapping[str, str],
        now: Now,
        *,
        group: ReadModelGroup,
        streams: Streams,
        settings: WebhookDelivery | None = None,
        send: Send | None = None,
        others: Sequence[Source] = (),
    ) -> None:
        """``app`` and the rest: the home partition's (the subscriptions and the outbox are
        there); ``others``: the other partitions, in their order, whose logs the outbox follows
        too (their games' events are delivered as the home partition's are)."""
        self._streams = streams
        self._now = now
        self.settings = settings if settings is not None else WebhookDelivery()
        if self.settings.deadline >= self.settings.lease:  # else a claim could expire mid-request
            raise InvalidCommand("webhook deadline must be shorter than the lease", Code.INVALID_FIELD)
        self.policy = AddressPolicy(parse_networks(self.settings.allow_private))
        projection = type(
            OutboxProjection.__name__, (OutboxProjection,), {"imported": staticmethod(_imported_in(streams))}
        )
        self._follower = follower(app, store, env, projection, VIEWS, group=group)
        self._followers = [self._follower]
        """The home partition's follower, then one per other partition (each its own log's
        runner, elected in that partition, writing to the home database's outbox)."""
        try:
            for number, other in enumerate(others, start=1):
                attributes = {"imported": staticmethod(_imported_in(other.streams)), "partition": number}
                folds = type(OutboxProjection.__name__, (OutboxProjection,), attributes)
                views = outbox_view_classes(VIEWS_TABLE, partition=number)
                self._followers.append(follower(other.app, store, env, folds, views, group=other.group))
        except BaseException:
            for made in self._followers:
                made.close()
            raise
        self.view = cast(OutboxView, self._follower.view)
        """The outbox (deliveries are claimed and written here by every delivering process)."""
        self.deliverer = Deliverer(
            self.view, send if send is not None else sender(self.policy, self.settings.deadline), self.settings
        )
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if self.settings.deliver:
            self._thread = threading.Thread(target=self._loop, name="webhook-deliverer", daemon=True)
            self._thread.start()

    @property
    def election(self) -> ElectedRunner | None:
        """Whether this process keeps the outbox read model (``None``: it never asks to)."""
        return self._follower.election

    # -- subscriptions ---------------------------------------------------------------------
    def subscribe(self, url: str, events: list[str]) -> dict[str, Any]:
        """A new subscription; its secret is returned once (and kept, as signing needs it)."""
        target = check_url(url)
        unknown = [e for e in events if e not in WEBHOOK_EVENTS]
        if unknown or not events:
            raise InvalidCommand(f"events must be some of {list(WEBHOOK_EVENTS)}, got {events!r}", Code.INVALID_FIELD)
        self.policy.resolve(target.host, target.port)
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
        self._streams.append_alone(record)
        return {"id": sid, "url": url, "events": list(events), "secret": secret}

    def subscriptions(self) -> list[dict[str, Any]]:
        """The subscriptions not deleted, as the outbox has them (the read model's lag behind)."""
        index = self.view.get_doc("subs") or {"ids": []}
        found = [self.view.get_doc(f"sub/{sid}") for sid in index["ids"]]
        return [{k: v for k, v in s.items() if k != "secret"} for s in found if s is not None]

    def _append(self, subscription: str, make: Callable[[int], WebhookDeleted | WebhookSecretRotated]) -> None:
        """Store ``make(version)`` as the subscription's next record (``NotFound`` for an
        unknown or deleted one); a concurrent change is retried on the new version."""
        stream = webhook_stream_id(_known_form(subscription))
        for _ in range(5):
            last = self._streams.read(stream, desc=True, limit=1)
            if not last or isinstance(last[0], WebhookDeleted):
                raise NotFound(f"there is no webhook subscription {subscription!r}", Code.UNKNOWN_WEBHOOK)
            try:
                self._streams.append_alone(make(last[0].originator_version + 1))
                return
            except VersionClash:
                continue
        raise VersionClash(f"webhook subscription {subscription!r} kept changing")  # pragma: no cover

    def delete(self, subscription: str) -> None:
        """Delete a subscription: its pending deliveries are cancelled, nothing more is sent."""
        stream = webhook_stream_id(subscription)
        self._append(subscription, lambda v: WebhookDeleted(stream, v, deleted_at=self._now()))
        self.view.cancel(subscription, time.time())

    def rotate_secret(self, subscription: str) -> dict[str, Any]:
        """A new signing secret, returned once; deliveries sent once the outbox has it are
        signed with it (``GET /v1/webhooks`` shows ``rotated_at``)."""
        stream = webhook_stream_id(subscription)
        secret = secrets.token_urlsafe(32)
        at = self._now()
        self._append(subscription, lambda v: WebhookSecretRotated(stream, v, secret=secret, rotated_at=at))
        return {"id": subscription, "secret": secret, "rotated_at": at}

    def deliveries(self, subscription: str) -> list[dict[str, Any]]:
        """Delivery status of one subscription, oldest first (``NotFound`` for an unknown id)."""
        if not self._streams.exists(webhook_stream_id(_known_form(subscription))):
            raise NotFound(f"there is no webhook subscription {subscription!r}", Code.UNKNOWN_WEBHOOK)
        return [
            {k: v for k, v in d.items() if k not in ("body", "claimed_until")}
            for d in self.view.deliveries(subscription)
        ]

    # -- delivery ----------------------------------------------------------------------------
    def claim_due(self, now: float | None = None) -> list[tuple[str, Doc]]:
        """Claim the due deliveries for the lease without sending them (a process stopping
        mid-delivery, in tests); ``(key, delivery)`` each."""
        return self.deliverer.claim(time.time() if now is None else now)[1]

    def deliver_due(self) -> int:
        """Claim and deliver what is due now, and wait for it; how many were acknowledged."""
        return self.deliverer.start_round(wait=True)

    def _loop(self) -> None:
        # A round when this process's outbox stores new deliveries, and otherwise after ROUND
        # seconds, doubling while rounds find nothing up to ROUND_MOST: a retry that falls due,
        # a lease that ran out or a delivery another process stored waits at most that long.
        # A claim on a fixed 0.25 s timer cost an idle SQLite server about 1.9 million
        # instructions a second, most of its idle cost (docs/performance.md).
        pruned_at = 0.0
        added = self.view.deliveries_added()
        wait = ROUND
        while True:
            added.wait(wait)
            if self._stop.is_set():
                return
            added.clear()
            claimed, pruned_at = self.delivery_round(pruned_at)
            wait = ROUND if claimed else min(wait * 2, ROUND_MOST)

    def delivery_round(self, pruned_at: float) -> tuple[int, float]:
        """One round of the delivering thread: claim and send what is due (and prune once a
        minute); how many were claimed, and when it last pruned. A failure is logged by the
        deliverer's ``OutageLog`` (one line for a database out of reach) and the next round
        tries again."""
        try:
            claimed = self.deliverer.start_round()
            if time.monotonic() - pruned_at > 60:
                pruned_at = time.monotonic()
                self.deliverer.prune()
        except Exception as err:
            self.deliverer.outage.failed("webhook delivery round", err)
            return 0, pruned_at
        self.deliverer.outage.reached()
        return claimed, pruned_at

    def wait(self, timeout: float = 10.0) -> None:
        """Until the outbox has folded what every partition's log holds now."""
        for one in self._followers:
            one.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        self.view.deliveries_added().set()  # the loop wakes to see it stop
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.deliverer.close()
        for one in self._followers:
            one.close()
