"""How the store connects to PostgreSQL: multi-host URLs, libpq's own options, and pooled
connections whose server went away.

A partition may be a PostgreSQL cluster with a primary and standbys (docs/operations.md, High
availability): the URL then names every node, and libpq picks the one that takes writes::

    postgresql://ledger@db1:5432,db2:5432,db3:5432/mtg_ledger?target_session_attrs=read-write

- **Hosts**: ``host:port`` entries separated by commas in the URL's host part, as libpq reads
  them (``hosts_and_ports``). The library's datastore hands ``host`` and ``port`` to psycopg as
  they are, and libpq takes comma-separated lists in both, so ``POSTGRES_HOST=db1,db2`` and
  ``POSTGRES_PORT=5432,5432`` reach it unchanged.
- **libpq options** (``LIBPQ_PASSTHROUGH``: ``target_session_attrs``, the TCP keepalives,
  ``tcp_user_timeout``, TLS, ``application_name``) in the URL's query are given to every
  connection the store opens: the library's pools (``LedgerPostgresFactory``, named by
  ``PERSISTENCE_MODULE``) and the runner election's own connection (``connection_options``).
  The library passes no options of its own but these five (dbname, host, port, user,
  password), so they travel in one setting of the library's environment, ``LIBPQ_OPTIONS``, as
  a libpq conninfo string. ``connect_timeout`` is given to libpq too (seconds per host tried),
  not only to the pool's wait.
- **Reconnecting**: a pool replaces a lost connection once, at once, and otherwise opens
  connections as requests need them (``RECONNECT_TIMEOUT``), trying again every quarter of a
  second while requests wait for one, never backing off for seconds.
- **Dead pooled connections**: a connection left in a pool whose server has ended the session
  (the primary was killed, restarted or demoted; PostgreSQL sends a FATAL and closes the
  socket) looks healthy until it is used, and would fail the next statement given it. Each
  pool checks a connection as it hands it out (``check_idle_connection``): an idle connection
  whose socket is readable has heard from its server while nobody asked, so it is dropped, and
  the pool is drained (its siblings talk to the same server: they are replaced by new
  connections, which libpq sends to the new primary). The check is one ``poll`` of the socket,
  no round trip (the library's ``POSTGRES_PRE_PING`` sends an empty query per checkout).

What a request does while no primary exists, and how an action whose commit outcome was lost is
answered: docs/operations.md, High availability.
"""

from __future__ import annotations

import contextlib
import logging
import re
import select
import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

import psycopg
from eventsourcing.postgres import PostgresFactory
from eventsourcing.utils import Environment, EnvType
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.pq import ConnStatus
from psycopg_pool import ConnectionPool

log = logging.getLogger("mtg_ledger.store")

FACTORY_TOPIC = "store.postgres_connections:LedgerPostgresFactory"
"""``PERSISTENCE_MODULE`` of every PostgreSQL store (``store.database_url``)."""
LIBPQ_OPTIONS = "POSTGRES_LIBPQ_OPTIONS"
"""The library-environment setting holding the URL's libpq options (a conninfo string)."""
LIBPQ_PASSTHROUGH = frozenset(
    {
        "target_session_attrs",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
        "tcp_user_timeout",
        "sslmode",
        "sslrootcert",
        "sslcert",
        "sslkey",
        "application_name",
    }
)
"""URL query options handed to libpq as they are (the others are the ledger's: ``schema``,
``pool_size``, ``max_overflow``, ``connect_timeout``, ``host``)."""

RECONNECT_TIMEOUT = 0.0
"""Seconds a pool keeps trying, in the background, to replace a connection it lost (psycopg_pool's
``reconnect_timeout``, 300 by default). While it tries, it waits 1, 2, 4, 8 ... seconds between
attempts and opens no other connection, so a pool that lost its connections during a failover
reached the new primary up to twice the outage later (a write answered 14 s after a kill that
left no primary for 2.4 s, tests/reliability/test_failover.py). At 0 it tries twice at once and
gives the slot up: the next request that needs a connection opens one (and waits for it at most
``connect_timeout``), so the first request after the new primary is up reaches it. Requests
already waiting for a connection have the pool try again every ``REGROW_PAUSE`` seconds
(``regrow_while_waited_for``)."""
REGROW_PAUSE = 0.25
"""Seconds between a pool's tries to open a connection while requests wait for one."""

_URL_START = re.compile(r"\s+|,(?=\s*[A-Za-z][A-Za-z0-9+.\-]*://)")


def split_database_urls(text: str) -> list[str]:
    """Database URLs separated by spaces or commas, where a comma inside a URL (between the
    hosts of a multi-host URL) does not separate: only one followed by ``scheme://`` does."""
    return [url.strip(",") for url in _URL_START.split(text) if url.strip(",")]


def hosts_and_ports(netloc: str, default_host: str = "", default_port: int = 5432) -> tuple[str, str]:
    """``POSTGRES_HOST`` and ``POSTGRES_PORT`` for a URL's ``user@host:port,...`` part: each a
    comma-separated list with one entry per host, as libpq reads them. ``[::1]:5432`` is an IPv6
    host; a host without a port gets ``default_port``; a URL without hosts gets
    ``default_host`` (a socket directory, the ``host`` query option)."""
    hostlist = netloc.rpartition("@")[2]
    if not hostlist:
        return default_host, str(default_port)
    hosts: list[str] = []
    ports: list[str] = []
    for entry in hostlist.split(","):
        if entry.startswith("["):
            host, _, rest = entry[1:].partition("]")
            port = rest[1:] if rest.startswith(":") else ""
        else:
            host, _, port = entry.partition(":")
        if port and not port.isdigit():
            raise ValueError(f"port {port!r} of host {host!r} must be a number")
        hosts.append(unquote(host) or default_host)
        ports.append(port or str(default_port))
    return ",".join(hosts), ",".join(ports)


def libpq_options(query: Mapping[str, str], connect_timeout: str) -> str:
    """The conninfo string (``LIBPQ_OPTIONS``) of a URL's query options for libpq."""
    given = {k: v for k, v in query.items() if k in LIBPQ_PASSTHROUGH}
    return make_conninfo("", connect_timeout=connect_timeout, **given)


def connection_options(env: Mapping[str, str]) -> dict[str, str]:
    """The libpq options of a library environment (empty when it has none)."""
    return {k: str(v) for k, v in conninfo_to_dict(env.get(LIBPQ_OPTIONS) or "").items() if v is not None}


def check_idle_connection(pool: ConnectionPool[Any]) -> Any:
    """A pool's ``check``: raise for a connection its server has ended, after draining the
    pool (see the module docstring). A healthy idle connection has nothing to read."""

    def check(conn: psycopg.Connection[Any]) -> None:
        pgconn = conn.pgconn
        if pgconn.status == ConnStatus.OK:
            readable, _, _ = select.select([pgconn.socket], [], [], 0)
            if not readable:
                return
        log.warning("dropping the pooled connections of %r: the server ended a session", pool.name)
        conn.close()  # its status is now BAD: the pool discards it and opens another
        pool.drain()
        raise psycopg.OperationalError("the pooled connection's server ended the session")

    return check


def regrow_while_waited_for(pool: ConnectionPool[Any]) -> None:
    """A pool's ``reconnect_failed``: a connection could not be opened (no primary yet). While
    requests wait for one, try again in ``REGROW_PAUSE`` seconds (``check`` grows an empty
    pool); the pool alone would only try again for the next request that comes to wait."""
    if pool.closed or not pool.get_stats().get("requests_waiting"):
        return
    timer = threading.Timer(REGROW_PAUSE, _regrow, args=(pool,))
    timer.daemon = True
    timer.start()


def _regrow(pool: ConnectionPool[Any]) -> None:
    if not pool.closed:
        with contextlib.suppress(Exception):  # closed meanwhile: nothing to grow
            pool.check()


class LedgerPostgresFactory(PostgresFactory):
    """The library's PostgreSQL factory, with the URL's libpq options on every pooled
    connection and the idle-connection check on its pool."""

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        pool = self.datastore.pool
        options = connection_options({LIBPQ_OPTIONS: self.env.get(LIBPQ_OPTIONS) or ""})
        if options:
            assert isinstance(pool.kwargs, dict)  # the library always passes a dict
            pool.kwargs.update(options)
        if pool._check is None:  # psycopg_pool's own attribute (pinned, constraints.txt)
            pool._check = check_idle_connection(pool)
        pool.reconnect_timeout = RECONNECT_TIMEOUT
        if pool._reconnect_failed is None:  # psycopg_pool's own attribute, as ``_check``
            pool._reconnect_failed = regrow_while_waited_for
