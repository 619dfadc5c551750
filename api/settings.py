"""Server settings, read from ``MTG_LEDGER_*`` environment variables and a ``.env`` file.

Database URLs are read by ``store.database_url`` alone (its kind, its SQLite file): the server
puts its files (the imported cards, the SQLite file's directory) exactly where the store opens
its database, percent-quoting and query options included.
"""

import logging
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from ledger.webhook_urls import parse_networks
from store.database_url import StoreKind, describe_store, sqlite_path, store_kind
from store.postgres_connections import split_database_urls

Store = StoreKind
"""The kinds of event store the server can run on."""

log = logging.getLogger("mtg_ledger.settings")

RETIRED: dict[str, str] = {
    "MTG_LEDGER_GROUP_COMMIT": "concurrent actions of different games are always saved in one transaction",
    "MTG_LEDGER_GROUP_COMMIT_MS": "the group commit waits 1 ms on SQLite, 3 ms on PostgreSQL",
    "MTG_LEDGER_HEAD_CHECK": "workers on one SQLite file read a game's newer events before each action",
    "MTG_LEDGER_HEAD_WATCH": "workers on one PostgreSQL database watch the log for games other workers moved on",
    "MTG_LEDGER_READ_MODEL_PROCESS": "the read models run in their own process on PostgreSQL, in a worker on SQLite",
}
"""The settings issue 29 retired, and what the server does instead of reading them. A deployment
that still sets one starts as before, with one warning per process: each only tuned how fast
the server is, never what it stores or answers, so ignoring it is safe."""

_warned: set[str] = set()


def public_base_url(value: str) -> str:
    """``value`` as a base URL the server's links can start with (no trailing ``/``), or a
    ``ValueError`` saying what is wrong with it: a link built on a path, a query or a
    password would point somewhere else than the page, or leak the password into every QR code."""
    text = value.strip()
    example = "e.g. http://192.168.1.20:8000"
    if any(ch.isspace() or not ch.isprintable() for ch in text):
        raise ValueError(f"must be an http(s) URL without spaces or control characters ({example}), got {value!r}")
    try:
        parts = urlsplit(text)
        port = parts.port  # a port that is not a number raises here
    except ValueError as err:
        raise ValueError(f"must be an http(s) URL ({example}), got {value!r}: {err}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"must be an http(s) URL with a host ({example}), got {value!r}")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"must not hold a user or password ({example}), got {parts.scheme}://...@{parts.hostname}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or text.endswith(("?", "#")):
        raise ValueError(f"must be a base URL with no path, query or fragment ({example}), got {value!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


class Settings(BaseSettings):
    """Everything the server reads from its environment, with its defaults."""

    model_config = SettingsConfigDict(
        env_prefix="MTG_LEDGER_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    host: str = "127.0.0.1"
    """Address the HTTP server binds to (``0.0.0.0``: every interface, as at a venue)."""
    public_url: str | None = None
    """The server's base URL as the players' phones and the scorekeeper's devices reach it
    (``http://192.168.1.20:8000``): the links and QR codes the page and ``mtg-ledger token create
    --link`` hand out start with it (``GET /v1/server``). Unset: the page uses the address it
    was opened at. An http(s) URL with a host and no path, query or fragment."""
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
    # Retired in issue 29 (docs/operations.md, Retired settings): read only to say so. Their
    # mechanisms are chosen from the store and the worker count (the properties below).
    retired_group_commit: str | None = Field(default=None, validation_alias="MTG_LEDGER_GROUP_COMMIT", repr=False)
    retired_group_commit_ms: str | None = Field(default=None, validation_alias="MTG_LEDGER_GROUP_COMMIT_MS", repr=False)
    retired_head_check: str | None = Field(default=None, validation_alias="MTG_LEDGER_HEAD_CHECK", repr=False)
    retired_head_watch: str | None = Field(default=None, validation_alias="MTG_LEDGER_HEAD_WATCH", repr=False)
    retired_read_model_process: str | None = Field(
        default=None, validation_alias="MTG_LEDGER_READ_MODEL_PROCESS", repr=False
    )

    @model_validator(mode="after")
    def _say_what_is_retired(self) -> "Settings":
        for name, _ in self.retired_in_use:
            if name not in _warned:  # once per process: each worker reads its settings once
                _warned.add(name)
                log.warning("%s", self.retired_warning(name))
        return self

    @property
    def retired_in_use(self) -> list[tuple[str, str]]:
        """The retired settings this environment (or ``.env``) still sets, with their values."""
        found = []
        for name in RETIRED:
            value = getattr(self, "retired_" + name.removeprefix("MTG_LEDGER_").lower())
            if value is not None:
                found.append((name, str(value)))
        return found

    @staticmethod
    def retired_warning(name: str) -> str:
        """The line that says ``name`` is ignored, and what the server does instead."""
        return f"{name} is retired and ignored: {RETIRED[name]} (docs/operations.md, Retired settings); remove it"

    @property
    def group_commit(self) -> bool:
        """Save concurrent actions of different games in one transaction: always (it took the
        closed-loop rate 1.4-3x that of one transaction per action, docs/performance.md)."""
        return True

    @property
    def runs_read_model_process(self) -> bool:
        """Whether ``serve`` keeps the read models (the game list, the matches, the webhook
        outbox) in a process of their own, ``mtg-ledger project``, started before the workers,
        rather than in one of the serving workers: on PostgreSQL (the read models then use a
        core the serving worker does not), not on SQLite (docs/operations.md, The read models)."""
        return self.store == "postgresql"

    @property
    def watches_heads(self) -> bool:
        """Whether a serving process keeps the cached heads of games other processes moved on up
        to date from one read of the log every 20 ms (``store.head_watch``): on PostgreSQL with
        several workers, where a read before each action would be a round trip."""
        return self.store == "postgresql" and self.workers > 1

    @property
    def checks_heads(self) -> bool:
        """Whether a worker reads what other processes stored after a cached head before it
        decides on it (``ledger.write_path``): on SQLite with several workers, where that read
        is a local one and cheaper than the failed group transaction a stale head costs."""
        return self.store == "sqlite" and self.workers > 1

    @field_validator("public_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return public_base_url(value)

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
        """Milliseconds a worker's group committer waits to gather other games' actions into one
        transaction, by store: a PostgreSQL transaction costs a round trip and the server's
        commit work, so waiting longer to share it pays more than on SQLite (docs/performance.md,
        issue 15, eighth pass: 3 ms cut PostgreSQL's CPU per action by 7-16% and the server's by
        up to 10%; SQLite's by 1-7%, at a higher median latency)."""
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
