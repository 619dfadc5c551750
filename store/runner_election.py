"""One runner per deployment: which process runs a follower of the notification log.

A read model (the game list), an outbox or any other follower of the log must run ONCE per
deployment, not once per worker: two runners project every record twice (one transaction wins,
the other is refused and its work wasted). Every worker asks to run it; one is elected, the
others stand by and take over when it goes away.

- **PostgreSQL**: a session advisory lock (``pg_try_advisory_lock``) on a dedicated connection,
  keyed by a stable 64-bit hash of the database, schema and the follower's name. The server
  frees it when the holder's session ends (the process exits or dies, the connection drops),
  so a stand-by process gets it on its next try. The holder checks its connection on every
  tick; when the connection is gone the lock may be someone else's, so it stops its runner
  first and then stands by like the others.
- **SQLite**: an exclusive ``flock`` on a file next to the database (``<db>.<name>.lock``): the
  serving processes of one SQLite file share a host; the kernel frees it when the process dies.

How another follower uses it (an outbox, the matches read model)::

    from store.runner_election import ElectedRunner

    runner = ElectedRunner(
        service.library_env,          # the ledger's library environment (LedgerService.library_env)
        "webhook-outbox",             # one name per follower: each is elected on its own
        start=start_my_runner,        # called in the elected process (a thread of its own)
        stop=stop_my_runner,          # called when it loses the lock or closes
    )
    ...
    runner.close()                    # stops the runner if this process had it, frees the lock

``start`` may raise: the error is logged, the lock freed, and the process tries again on a later
tick (so a runner that cannot start never blocks the others). ``ElectedRunner.leading`` says
whether this process runs it now.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, Protocol

from store.postgres_connections import FACTORY_TOPIC, connection_options

log = logging.getLogger("mtg_ledger.store")

STANDBY_INTERVAL = 1.0
"""Seconds between a stand-by process's tries (and the holder's checks of its lock)."""


class Election(Protocol):
    """A lock that at most one process of a deployment holds."""

    def try_acquire(self) -> bool:
        """Take the lock if it is free (never waits)."""
        ...

    def still_held(self) -> bool:
        """Whether this process still holds the lock it took."""
        ...

    def release(self) -> None:
        """Free the lock (if held) and what holds it."""
        ...


def lock_key(*parts: str) -> int:
    """A stable signed 64-bit key for ``pg_try_advisory_lock`` from names."""
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class PostgresAdvisoryLock:
    """``pg_try_advisory_lock`` on a connection of its own (see the module docstring)."""

    def __init__(self, env: Mapping[str, str], name: str) -> None:
        self._conninfo: dict[str, Any] = {
            "dbname": env["POSTGRES_DBNAME"],
            "host": env.get("POSTGRES_HOST") or None,
            "port": env.get("POSTGRES_PORT") or None,
            "user": env.get("POSTGRES_USER") or None,
            "password": env.get("POSTGRES_PASSWORD") or None,
            "connect_timeout": int(env.get("POSTGRES_CONNECT_TIMEOUT") or 5),
            "application_name": f"mtg-ledger election {name}",
            # The URL's libpq options (target_session_attrs=read-write: the lock is taken on
            # the primary, never a standby); store.postgres_connections.
            **connection_options(env),
        }
        self.key = lock_key(env["POSTGRES_DBNAME"], env.get("POSTGRES_SCHEMA") or "public", name)
        """The advisory lock's key."""
        self._conn: Any = None

    def try_acquire(self) -> bool:
        import psycopg

        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(autocommit=True, **{k: v for k, v in self._conninfo.items() if v is not None})
        row = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
        return bool(row and row[0])

    def still_held(self) -> bool:
        if self._conn is None:
            return False
        try:  # a session lock lives as long as the session: a live connection still holds it
            row = self._conn.execute("SELECT 1").fetchone()
        except Exception:  # the connection is gone, and the lock with it
            self._drop()
            return False
        return row is not None

    def release(self) -> None:
        if self._conn is None:
            return
        with contextlib.suppress(Exception):  # closing the session frees it anyway
            self._conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
        self._drop()

    def _drop(self) -> None:
        try:
            if self._conn is not None:
                self._conn.close()
        finally:
            self._conn = None


class FileLock:
    """An exclusive ``flock`` on ``path`` (SQLite deployments: one host)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        """The lock file (created if missing; never deleted: deleting it would split the lock)."""
        self._file: IO[bytes] | None = None

    def try_acquire(self) -> bool:
        if self._file is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "ab")  # noqa: SIM115 - held open while the lock is held
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        handle.truncate(0)
        handle.write(f"{os.getpid()}\n".encode())
        handle.flush()
        self._file = handle
        return True

    def still_held(self) -> bool:
        return self._file is not None

    def release(self) -> None:
        if self._file is None:
            return
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
        finally:
            self._file.close()
            self._file = None


def election_for(env: Mapping[str, str], name: str) -> Election:
    """The election for follower ``name`` of the store the library environment ``env`` opens."""
    if env.get("PERSISTENCE_MODULE") in ("eventsourcing.postgres", FACTORY_TOPIC):
        return PostgresAdvisoryLock(env, name)
    db = Path(env["SQLITE_DBNAME"])
    return FileLock(db.with_name(f"{db.name}.{name}.lock"))


class ElectedRunner:
    """Runs ``start`` in the one process of a deployment holding the election for ``name``;
    the others stand by and retry every ``interval`` seconds (see the module docstring)."""

    def __init__(
        self,
        env: Mapping[str, str] | Election,
        name: str,
        *,
        start: Callable[[], None],
        stop: Callable[[], None],
        interval: float = STANDBY_INTERVAL,
    ) -> None:
        self.name = name
        """The follower's name (the election's key)."""
        self._election: Election = election_for(env, name) if isinstance(env, Mapping) else env
        self._start = start
        self._stop = stop
        self._interval = interval
        self._leading = False
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self.elected = threading.Event()
        """Set while this process runs the follower."""
        self._tick()  # the first try is synchronous: a lone process runs it from the start
        self._thread = threading.Thread(target=self._loop, name=f"election-{name}", daemon=True)
        self._thread.start()

    @property
    def leading(self) -> bool:
        """Whether this process runs the follower now."""
        return self._leading

    def _tick(self) -> None:
        with self._lock:
            if self._closing.is_set():
                return
            if self._leading:
                if self._election.still_held():
                    return
                log.warning("%s: lost the runner election; stopping the runner", self.name)
                self._resign()
                return
            try:
                if not self._election.try_acquire():
                    return
            except Exception as err:  # the store is unreachable: try again later
                log.warning("%s: runner election failed (%s); retrying", self.name, err)
                return
            try:
                self._start()
            except Exception:
                log.exception("%s: the runner did not start; freeing the election", self.name)
                self._election.release()
                return
            self._leading = True
            self.elected.set()
            log.info("%s: this process runs it (pid %d)", self.name, os.getpid())

    def _resign(self) -> None:
        self._leading = False
        self.elected.clear()
        try:
            self._stop()
        finally:
            self._election.release()

    def _loop(self) -> None:
        while not self._closing.wait(self._interval):
            try:
                self._tick()
            except Exception:  # pragma: no cover - keep standing by whatever happens
                log.exception("%s: runner election tick failed", self.name)

    def close(self) -> None:
        """Stop the follower if this process runs it, and free the election."""
        self._closing.set()
        self._thread.join()
        with self._lock:
            if self._leading:
                self._resign()
            else:
                self._election.release()
