"""From one database URL to the ``eventsourcing`` library's environment settings.

The URL is the only place a deployment names its database, and no code outside the store names
one (docs/architecture.md, The layers). This module is the only one that reads the URL: into the
library's settings here, and for the server's settings (``api.settings``: which store, which
SQLite file), so both read a query or a percent-quoted path alike:

- ``sqlite:///relative/path.sqlite3`` or ``sqlite:////absolute/path.sqlite3``: SQLite in WAL mode
  (the library switches a file database to WAL) with a busy timeout, so several processes can
  share the file. Query option: ``timeout`` (seconds, default 10).
- ``postgresql://user:password@host:port/dbname`` (also ``postgres://``,
  ``postgresql+psycopg://``): PostgreSQL. Query options: ``schema`` (default ``public``),
  ``pool_size`` (default 2), ``max_overflow`` (default 8), ``connect_timeout`` (seconds, 5),
  ``host`` (a socket directory, when the URL has no host). Several hosts
  (``postgresql://u@db1:5432,db2:5432/db?target_session_attrs=read-write``, a primary and its
  standbys) and libpq's own options go to every connection (``store.postgres_connections``).

Settings always made: string aggregate ids (``ORIGINATOR_ID_TYPE=text``), snapshotting on, and
``POSTGRES_ENABLE_DB_FUNCTIONS`` off: with it on, a tailing subscription missed events under
concurrent writers (docs/architecture.md, The storage library). ``CREATE_TABLE`` follows
``create_tables``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from store.postgres_connections import FACTORY_TOPIC, hosts_and_ports, libpq_options

StoreKind = Literal["sqlite", "postgresql"]

SQLITE_PREFIX = "sqlite:///"
SQLITE_POLLING_RECORDER = "store.sqlite_polling:PollingSQLiteApplicationRecorder"
POSTGRES_RECORDER = "store.postgres_recorder:LargeBatchPostgresApplicationRecorder"
DEFAULT_SQLITE_TIMEOUT = 10


def store_kind(database_url: str) -> StoreKind:
    """``sqlite`` or ``postgresql``, from the URL's scheme; ``ValueError`` for anything else."""
    scheme = urlsplit(database_url).scheme.lower().split("+", 1)[0]
    if scheme == "sqlite":
        return "sqlite"
    if scheme in ("postgresql", "postgres"):
        return "postgresql"
    raise ValueError(f"unsupported database URL {database_url!r}: expected sqlite:///PATH or postgresql://...")


def sqlite_path(database_url: str) -> Path:
    """The database file a ``sqlite:///`` URL names."""
    if not database_url.startswith(SQLITE_PREFIX):
        raise ValueError(f"a SQLite URL must look like sqlite:///PATH, got {database_url!r}")
    path = unquote(database_url[len(SQLITE_PREFIX) :].split("?", 1)[0])
    if path in ("", ":memory:"):
        raise ValueError(
            f"{database_url!r}: the ledger needs a database file (several connections and processes share it)"
        )
    return Path(path)


def without_password(database_url: str) -> str:
    """``database_url`` with the password left out of its user part, for messages and logs."""
    parts = urlsplit(database_url)
    if parts.password is None:
        return database_url
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{hostport}"))


def describe_store(database_url: str) -> str:
    """Which store a URL opens, for people: ``sqlite /absolute/path.sqlite3`` or ``postgresql
    postgresql://user@host:5432/db`` (no password). A relative SQLite path depends on the working
    directory, so it is shown resolved: two commands run from different directories show two files."""
    if store_kind(database_url) == "postgresql":
        return f"postgresql {without_password(database_url)}"
    try:
        return f"sqlite {sqlite_path(database_url).resolve()}"
    except ValueError:  # not a file URL: library_environment refuses it when the store opens
        return f"sqlite {database_url}"


def _query(database_url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(database_url).query).items()}


def _int_option(options: dict[str, str], key: str, default: int, database_url: str) -> str:
    value = options.get(key, str(default))
    if not value.isdigit():
        raise ValueError(f"database URL option {key}={value!r} must be a whole number in {database_url!r}")
    return value


def library_environment(database_url: str, *, create_tables: bool) -> dict[str, str]:
    """The ``eventsourcing`` environment for ``database_url``."""
    env = {
        "ORIGINATOR_ID_TYPE": "text",
        "IS_SNAPSHOTTING_ENABLED": "y",
        "CREATE_TABLE": "y" if create_tables else "n",
    }
    options = _query(database_url)
    if store_kind(database_url) == "sqlite":
        env.update(
            PERSISTENCE_MODULE="eventsourcing.sqlite",
            SQLITE_DBNAME=str(sqlite_path(database_url)),
            SQLITE_LOCK_TIMEOUT=_int_option(options, "timeout", DEFAULT_SQLITE_TIMEOUT, database_url),
            # The stock SQLite recorder has no subscribe(); this one polls (docs/architecture.md).
            APPLICATION_RECORDER_TOPIC=SQLITE_POLLING_RECORDER,
        )
        return env
    parts = urlsplit(database_url)
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise ValueError(f"a PostgreSQL URL must name its database (postgresql://user@host/DB): {database_url!r}")
    try:  # one host or several (a primary and its standbys): libpq takes both as lists
        hosts, ports = hosts_and_ports(parts.netloc, options.get("host", ""))
    except ValueError as err:
        raise ValueError(f"{err} in {without_password(database_url)!r}") from None
    connect_timeout = _int_option(options, "connect_timeout", 5, database_url)
    env.update(
        PERSISTENCE_MODULE=FACTORY_TOPIC,
        POSTGRES_DBNAME=dbname,
        POSTGRES_HOST=hosts,
        POSTGRES_PORT=ports,
        POSTGRES_USER=unquote(parts.username or ""),
        POSTGRES_PASSWORD=unquote(parts.password or ""),
        POSTGRES_SCHEMA=options.get("schema", ""),
        POSTGRES_POOL_SIZE=_int_option(options, "pool_size", 2, database_url),
        POSTGRES_MAX_OVERFLOW=_int_option(options, "max_overflow", 8, database_url),
        POSTGRES_CONNECT_TIMEOUT=connect_timeout,
        POSTGRES_LIBPQ_OPTIONS=libpq_options(options, connect_timeout),
        POSTGRES_ENABLE_DB_FUNCTIONS="n",
        # Large saves (imports) outside psycopg's pipeline mode, where they hung (see the module).
        APPLICATION_RECORDER_TOPIC=POSTGRES_RECORDER,
    )
    return env
