"""``LedgerSettings``: the few knobs of one ledger, with the defaults a server runs with.

``api.settings.Settings`` (``MTG_LEDGER_*``) chooses them for the server (``api.app.build_service``);
tests, benchmarks and tools build one directly: ``LedgerSettings(snapshot_interval=0)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.errors import Code, InvalidCommand
from store.group_commit import DEFAULT_WINDOW
from store.runner_election import STANDBY_INTERVAL


@dataclass(frozen=True, slots=True)
class WebhookDelivery:
    """How this process delivers the webhook outbox (``ledger.webhooks``)."""

    deliver: bool = False
    """Run the delivering thread here (a server does; most tests deliver by hand)."""
    lease: float = 30.0
    """Seconds a claimed delivery is this process's before another may claim it again."""
    backoff: float = 1.0
    """Seconds before the first retry of a failed delivery (doubled each time, up to an hour)."""
    allow_private: tuple[str, ...] = ()
    """CIDR ranges of internal receivers webhooks may be sent to (``ledger.webhook_urls``)."""
    deadline: float = 10.0
    """Seconds one delivery request may take in all, connecting and answering."""
    max_attempts: int = 12
    """Attempts before a delivery is given up (``dead``)."""
    retention: float = 7 * 86400.0
    """Seconds a delivered (or cancelled) delivery is listed before it is pruned."""
    dead_retention: float = 30 * 86400.0
    """Seconds a dead delivery is listed before it is pruned."""


@dataclass(frozen=True, slots=True)
class LedgerSettings:
    """The knobs of one ``LedgerService`` (every partition gets the same)."""

    snapshot_interval: int = 25
    """Events between snapshots (0 turns snapshots off)."""
    cache_size: int = 1024
    """Games whose head each process keeps, to decide actions on without a read (0: none)."""
    create_tables: bool = True
    """Create the tables at start-up. Do it once, then start workers with it off: creating tables
    from several processes at once raced (docs/operations.md)."""
    read_models: bool = True
    """Ask to run the read models (game list, matches, webhook outbox) in this process; one
    process per database is elected to (``store.read_model_group``)."""
    group_commit_window: float | None = DEFAULT_WINDOW
    """Seconds the group committer waits to gather other games' saves into one transaction
    (``store.group_commit``; 0: only what queued up meanwhile; ``None``: one transaction per save)."""
    check_heads: bool = False
    """Before deciding on a cached head, read what other processes stored after it (several
    processes on one SQLite file; ``ledger.write_path``)."""
    watch_heads: bool = False
    """Keep the cached heads other processes moved on up to date from one read every 20 ms
    (``store.head_watch``; PostgreSQL, where a read per action is a round trip)."""
    webhooks: WebhookDelivery = field(default_factory=WebhookDelivery)
    """Whether and how this process delivers webhooks."""
    standby_interval: float = STANDBY_INTERVAL
    """Seconds between a stand-by process's tries to be elected to run the read models."""

    def __post_init__(self) -> None:
        for name in ("snapshot_interval", "cache_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidCommand(f"{name} must be an integer >= 0, got {value!r}", Code.INVALID_FIELD)
