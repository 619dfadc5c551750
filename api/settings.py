"""Server settings, read from ``MTG_LEDGER_*`` environment variables and a ``.env`` file.

Database URLs are read by ``store.database_url`` alone (its kind, its SQLite file): the server
puts its files (the imported cards, the SQLite file's directory) exactly where the store opens
its database, percent-quoting and query options included.
"""

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from ledger.webhook_urls import parse_networks
from store.database_url import StoreKind, describe_store, sqlite_path, store_kind
from store.postgres_connections import split_database_urls

Store = StoreKind
"""The kinds of event store the server can run on."""


class Settings(BaseSettings):
    """Everything the server reads from its environment, with its defaults."""

    model_config = SettingsConfigDict(
        env_prefix="MTG_LEDGER_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    host: str = "127.0.0.1"
    """Address the HTTP server binds to."""
    port: int = Field(default=8000, ge=1, le=65535)
    """TCP port the HTTP server listens on."""
    database_url: str = "sqlite:///./var/ledger.sqlite3"
    """Event store: ``sqlite:///PATH`` (embedded) or ``postgresql://...`` (scale-out)."""
    admin_token: SecretStr | None = None
    """Bootstrap admin token; when unset the server generates one on first start."""
    public_reads: bool = False
    """Whether reads are allowed without a token."""
    deliver_webhooks: bool = True
    """Deliver webhooks from this process (docs/judges.md, Webhooks); off for workers that only serve."""
    webhook_allow_private: str = ""
    """CIDR ranges (separated by commas or spaces) of internal webhook receivers: without one,
    webhooks go to public addresses only (docs/operations.md, Webhooks)."""
    workers: int = Field(default=1, ge=1)
    """Number of uvicorn worker processes."""
    catalog_path: Path | None = None
    """Imported cards (``mtg-ledger cards import``); default: ``cards.json`` beside the SQLite
    file, or ``./var/cards.json``."""
    snapshot_interval: int = Field(default=25, ge=1)
    """Events between snapshots of a game."""
    create_tables: bool = True
    """Create the store's tables at start-up; ``serve`` does it once, then workers skip it."""
    max_streams_per_token: int = Field(default=8, ge=1)
    """Open event streams (SSE) one token may hold in one worker process; more is 429."""
    max_streams: int = Field(default=256, ge=1)
    """Open event streams in one worker process, all tokens together; more is 429."""
    partition_urls: str = ""
    """Games partitioned across several databases (``ledger.partitions``): their URLs,
    separated by commas or spaces (a comma inside a multi-host URL does not separate); the
    first is the home partition (tokens). Empty: the one store of ``database_url``. Adding or
    removing one moves games (docs/operations.md)."""
    group_commit_ms: float | None = Field(default=None, ge=0, le=100)
    """Milliseconds a worker's group committer waits to gather other games' actions into one
    transaction (0: only what queued up while the previous one committed). Unset: 3 on
    PostgreSQL, 1 on SQLite (``group_commit_window_ms``)."""
    group_commit: bool = True
    """Save concurrent actions of different games in one transaction (off: one per action)."""
    head_check: Literal["auto", "on", "off"] = "auto"
    """Before deciding an action on a game's cached head, read what other processes stored
    after it (``on``), or decide on it as it is and re-decide once if the save finds the version
    taken (``off``). ``auto``: on for SQLite served by several workers (a local read, cheaper
    than the failed group transaction a stale head costs), off otherwise (on PostgreSQL it
    would be a round trip before every action)."""

    head_watch: Literal["auto", "on", "off"] = "auto"
    """Keep the cached heads of games other processes moved on up to date, from one read of the
    new events every 20 ms (``on``; PostgreSQL only), so their next action is decided on the
    up-to-date head rather than clash at the save. ``auto``: on for PostgreSQL served by
    several workers; set ``on`` when several hosts share one database."""

    read_model_process: Literal["auto", "on", "off"] = "auto"
    """Where ``serve`` keeps the read models (the game list, the matches, the webhook outbox):
    in a process of its own, ``mtg-ledger project``, started before the workers (``on``), or in
    one of the serving workers (``off``). Either way the workers stand by to take them over.
    ``auto``: on for PostgreSQL (the read models then use a core the serving worker does not),
    off for SQLite (docs/operations.md, The read models)."""

    @property
    def runs_read_model_process(self) -> bool:
        """Whether ``read_model_process`` is in effect for this store."""
        if self.read_model_process == "auto":
            return self.store == "postgresql"
        return self.read_model_process == "on"

    @property
    def watches_heads(self) -> bool:
        """Whether ``head_watch`` is in effect for this store and worker count."""
        if self.head_watch == "auto":
            return self.store == "postgresql" and self.workers > 1
        return self.head_watch == "on"

    @property
    def checks_heads(self) -> bool:
        """Whether ``head_check`` is in effect for this store and worker count."""
        if self.head_check == "auto":
            return self.store == "sqlite" and self.workers > 1
        return self.head_check == "on"

    @field_validator("database_url")
    @classmethod
    def _known_store(cls, value: str) -> str:
        store_kind(value)
        return value

    @field_validator("webhook_allow_private")
    @classmethod
    def _cidr_ranges(cls, value: str) -> str:
        parse_networks(value.replace(",", " ").split())
        return value

    @property
    def webhook_allowlist(self) -> tuple[str, ...]:
        """``webhook_allow_private`` as a tuple of ranges."""
        return tuple(value for value in self.webhook_allow_private.replace(",", " ").split())

    @field_validator("partition_urls")
    @classmethod
    def _known_partitions(cls, value: str) -> str:
        for url in split_database_urls(value):
            store_kind(url)
        return value

    @property
    def database_urls(self) -> list[str]:
        """Every database of the ledger: the partitions, or just ``database_url``."""
        return split_database_urls(self.partition_urls) or [self.database_url]

    @property
    def store(self) -> Store:
        """The kind of event store ``database_url`` (or the home partition) selects."""
        return store_kind(self.database_urls[0])

    @property
    def group_commit_window_ms(self) -> float:
        """``group_commit_ms``, or the store's default: a PostgreSQL transaction costs a round
        trip and the server's commit work, so waiting longer to share it pays more than on
        SQLite (docs/performance.md, issue 15, eighth pass: 3 ms cut PostgreSQL's CPU per action
        by 7-16% and the server's by up to 10%; SQLite's by 1-7%, at a higher median latency)."""
        if self.group_commit_ms is not None:
            return self.group_commit_ms
        return 3.0 if self.store == "postgresql" else 1.0

    @property
    def store_description(self) -> str:
        """The store for people: ``sqlite /absolute/path`` or the PostgreSQL URL without its password."""
        urls = self.database_urls
        more = f" and {len(urls) - 1} more partition(s)" if len(urls) > 1 else ""
        return describe_store(urls[0]) + more

    @property
    def imported_cards_path(self) -> Path:
        if self.catalog_path is not None:
            return self.catalog_path
        sqlite = self.sqlite_path
        return (sqlite.parent if sqlite is not None else Path("var")) / "cards.json"

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite database file ``database_url`` names (the file the store opens), or None
        for a PostgreSQL store and for a SQLite URL that names no file (the store refuses those)."""
        if self.store != "sqlite" or store_kind(self.database_url) != "sqlite":
            return None
        try:
            return sqlite_path(self.database_url)
        except ValueError:
            return None
