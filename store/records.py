"""The records the ``eventsourcing`` library stores, each under a pinned topic.

Every class here is a frozen dataclass that satisfies the library's ``DomainEventProtocol``
(``originator_id: str``, ``originator_version: int``), so the library's mapper, event store and
repository handle them, while the classes stay free of the library's mutable ``Aggregate`` base.

Why pinned topics: the library stores each record with the topic of its class and resolves the
topic back to a class when it reads the record. By default the topic is ``module:QualName``, so
renaming a module or class would orphan every stored record. Each class below names its own
``TOPIC`` (checked and registered when the class is defined; a subclass never inherits its
parent's), and that string is what the database holds (docs/architecture.md, "The storage library").

Aggregate ids: a game's stream id is its game id. Other streams (tokens, idempotency keys,
import receipts) use ids starting with ``_``, which no game id can (a game id starts with a
letter or digit), so the two namespaces never meet.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any, ClassVar

from eventsourcing.persistence import Transcoder
from eventsourcing.utils import register_topic

from domain.events import DomainEvent, Event, find_event_class
from store import fast_json

GENESIS_HASH = "0" * 64
"""The ``prev_hash`` of every game's first event."""


@dataclass(frozen=True)
class StoredRecord:
    """Base of every stored record: one entry of one stream."""

    TOPIC: ClassVar[str] = ""
    originator_id: str
    """Stream id: the game id, or a ``_``-prefixed id for the other streams."""
    originator_version: int
    """Position in the stream, from 1."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        topic = cls.__dict__.get("TOPIC")
        if not isinstance(topic, str) or not topic:
            raise TypeError(f"{cls.__qualname__} must pin its own TOPIC (stored records outlive class names)")
        register_topic(topic, cls)


@dataclass(frozen=True)
class GameEvent(StoredRecord):
    """One domain event of a game, with the audit metadata of docs/audit.md.

    The record stores the event as ``type``, ``data`` and ``rule`` (what the hash covers); readers
    take the typed event from ``event`` (parsed on first use, then kept) or, to dispatch without
    parsing, its class from ``event_class``."""

    # The parsed event is kept in a slot, not in the instance ``__dict__``: the library's mapper
    # stores ``vars(record)``, so a parse cached there would be written into the stored state.
    __slots__ = ("_event",)

    TOPIC: ClassVar[str] = "mtg-ledger/GameEvent@1"
    type: str
    """Domain event type, e.g. ``CountersAdded``."""
    data: dict[str, Any]
    """JSON-native event data."""
    rule: str | None
    """The rule that made it happen, e.g. ``CR 728.1``."""
    action_id: str
    """Shared by every event one command caused."""
    actor: dict[str, str]
    """``{"name": ..., "role": ...}`` of whoever reported the action."""
    recorded_at: str
    """RFC 3339 UTC time the action was stored."""
    prev_hash: str
    """``hash`` of the previous event of the game (64 zeros for the first)."""
    hash: str
    """SHA-256 over ``prev_hash`` and the canonical record (``store.hash_chain``)."""

    def __getstate__(self) -> dict[str, Any]:
        """The fields only, for ``copy`` and ``pickle`` (the copy parses its event again)."""
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "__dict__", dict(state))

    @property
    def event(self) -> Event:
        """The domain event this record holds, parsed from ``type``, ``data`` and ``rule`` once;
        ``EventFormatError`` for a record that doesn't fit the vocabulary (a damaged one)."""
        parsed: Event | None = getattr(self, "_event", None)
        if parsed is None:
            parsed = Event.parse(self.type, self.data, self.rule)
            object.__setattr__(self, "_event", parsed)  # a frozen record: the cache is no field
        return parsed

    @property
    def payload(self) -> DomainEvent:
        """The typed payload of ``event`` (``LifeLost``, ...)."""
        return self.event.payload

    @property
    def event_class(self) -> builtins.type[DomainEvent] | None:  # ``type`` is a field here
        """The registered class of ``type``, found without parsing ``data``; ``None`` for a type
        the vocabulary doesn't have (a damaged record)."""
        return find_event_class(self.type)


@dataclass(frozen=True)
class GameSnapshot(StoredRecord):
    """A game's whole state at ``originator_version``, so loading replays at most one interval."""

    TOPIC: ClassVar[str] = "mtg-ledger/GameSnapshot@1"
    state: dict[str, Any]
    """``domain.serialize.state_to_json`` of the state."""
    last_hash: str
    """``hash`` of the event at this version (the next event's ``prev_hash``)."""
    reverts: list[dict[str, Any]]
    """Every ``ActionsReverted`` so far: ``{"version", "action_id", "reverted_versions"}``."""


@dataclass(frozen=True)
class TokenIssued(StoredRecord):
    """An API token; the stream id holds the SHA-256 of its secret, never the secret."""

    TOPIC: ClassVar[str] = "mtg-ledger/TokenIssued@1"
    name: str
    role: str
    game_id: str | None
    player_id: str | None
    issued_at: str

    expires_at: str | None = None
    """RFC 3339 UTC time after which the token is refused; ``None``: it never expires (every
    token issued before expiry existed)."""


@dataclass(frozen=True)
class TokenRevoked(StoredRecord):
    """A token revoked by an admin: version 2 of the token's stream (so it is revoked once)."""

    TOPIC: ClassVar[str] = "mtg-ledger/TokenRevoked@1"
    revoked_at: str
    actor: dict[str, str]


@dataclass(frozen=True)
class TokenUsed(StoredRecord):
    """When a token was last used (to within ``ledger.tokens.USE_RECORD_INTERVAL``): one
    stream per token, ``_tokenuse/<digest>``, one record per interval of use at most."""

    TOPIC: ClassVar[str] = "mtg-ledger/TokenUsed@1"
    used_at: str


@dataclass(frozen=True)
class AdminTokenIssued(TokenIssued):
    """An admin token: its own topic, so "is there an admin?" is one indexed-by-topic read."""

    TOPIC: ClassVar[str] = "mtg-ledger/AdminTokenIssued@1"


@dataclass(frozen=True)
class IdempotencyKeyClaimed(StoredRecord):
    """An ``Idempotency-Key`` taken by an action, stored in the same atomic save as the action's
    events: a second request with the key cannot store a second action."""

    TOPIC: ClassVar[str] = "mtg-ledger/IdempotencyKeyClaimed@1"
    fingerprint: str
    game_id: str
    action_id: str
    version: int
    """The game's version after the action."""
    recorded_at: str


@dataclass(frozen=True)
class IdempotentResponseRecorded(StoredRecord):
    """The response first given for an ``Idempotency-Key``, replayed on a retry."""

    TOPIC: ClassVar[str] = "mtg-ledger/IdempotentResponseRecorded@1"
    fingerprint: str
    status: int
    response_json: str
    recorded_at: str


@dataclass(frozen=True)
class GameImported(StoredRecord):
    """Receipt of an import: who brought the game in, when, and the head it was verified to."""

    TOPIC: ClassVar[str] = "mtg-ledger/GameImported@1"
    game_id: str
    action_id: str
    actor: dict[str, str]
    recorded_at: str
    events: int
    head: str


@dataclass(frozen=True)
class MatchReported(StoredRecord):
    """A match report (``projections.matches``): a player confirms the result, agrees to an
    intentional draw (MTR 2.4), or a scorekeeper enters the result. Stream ``_match/...``."""

    TOPIC: ClassVar[str] = "mtg-ledger/MatchReported@1"
    event: str
    round: str
    table: str
    kind: str
    """``confirm``, ``intentional_draw`` or ``result``."""
    actor: dict[str, str]
    player: str | None
    """The confirming or agreeing player (player tokens)."""
    score: dict[str, Any] | None
    """For ``confirm``: the score confirmed; for ``result``: ``{"wins": {...}, "draws": n}``."""
    recorded_at: str


@dataclass(frozen=True)
class WebhookSubscribed(StoredRecord):
    """A webhook subscription (``ledger.webhooks``): where to POST which events, and the
    secret the bodies are signed with (kept, as signing needs it). Stream ``_webhook/<id>``."""

    TOPIC: ClassVar[str] = "mtg-ledger/WebhookSubscribed@1"
    url: str
    events: list[str]
    secret: str
    created_at: str


@dataclass(frozen=True)
class WebhookSecretRotated(StoredRecord):
    """A subscription's new signing secret (``ledger.webhooks``). Stream ``_webhook/<id>``."""

    TOPIC: ClassVar[str] = "mtg-ledger/WebhookSecretRotated@1"
    secret: str
    rotated_at: str


@dataclass(frozen=True)
class WebhookDeleted(StoredRecord):
    """A subscription deleted (``ledger.webhooks``): nothing more is sent to it. Stream ``_webhook/<id>``."""

    TOPIC: ClassVar[str] = "mtg-ledger/WebhookDeleted@1"
    deleted_at: str


@dataclass(frozen=True)
class TournamentRecord(StoredRecord):
    """One event of a tournament (``domain.tournament.events``), stream ``_tournament/<id>``,
    with the audit metadata of a game's events: sealed into its own hash chain by
    ``store.hash_chain.seal`` (the stream id in the place of the game id, ``rule`` always null)."""

    TOPIC: ClassVar[str] = "mtg-ledger/TournamentEvent@1"
    type: str
    """Tournament event type, e.g. ``RoundPaired``."""
    data: dict[str, Any]
    action_id: str
    actor: dict[str, str]
    recorded_at: str
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class TournamentCreatedRecord(TournamentRecord):
    """A tournament's first record (``EventCreated``): its own topic, so the tournaments are
    listed by one read filtered by topic."""

    TOPIC: ClassVar[str] = "mtg-ledger/TournamentCreated@1"


class PlainJSONTranscoder(Transcoder):
    """Stores record state as plain JSON.

    Why not the library's ``JSONTranscoder``: it decodes any object with exactly the keys
    ``_type_`` and ``_data_`` as a registered custom type, so free-form data a client sent (a
    tournament object, a note) could come back changed and break its hash. Every field stored
    here is JSON-native already (times are RFC 3339 strings), so no custom types are needed.
    """

    def encode(self, obj: Any) -> bytes:
        return fast_json.dumps(obj)  # what json.dumps(ensure_ascii=False, separators=(",", ":")) wrote

    def decode(self, data: bytes) -> Any:
        # A hand-edited SQLite row may come back as TEXT rather than BLOB: read both.
        return fast_json.loads(data)


def token_stream_id(secret_sha256: str) -> str:
    return f"_token/{secret_sha256}"


def token_use_stream_id(secret_sha256: str) -> str:
    return f"_tokenuse/{secret_sha256}"


def idempotency_stream_id(key_sha256: str) -> str:
    return f"_idem/{key_sha256}"


def import_stream_id(game_id: str) -> str:
    return f"_import/{game_id}"


def match_stream_id(event: str, round: str, table: str) -> str:
    return f"_match/{event}/{round}/{table}"


def webhook_stream_id(subscription: str) -> str:
    return f"_webhook/{subscription}"


def tournament_stream_id(tournament_id: str) -> str:
    return f"_tournament/{tournament_id}"
