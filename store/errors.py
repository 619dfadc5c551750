"""What the store raises, under the store's own names, so no layer above it imports the library
or a database driver to catch it.

- ``VersionClash``: a save lost the race for a stream's next version (another writer stored it
  first). The library raises its ``IntegrityError`` for it on every store; each ``save()`` is
  atomic, so nothing of the losing save was stored.
- ``StoreError``: the base of everything the library raises about persistence.
- ``STORE_UNREACHABLE``: the errors that mean the database can't be reached or was too busy to
  answer in time (the library's wrappers, and the drivers' own errors where our recorders call
  them directly); the HTTP layer answers them with ``503 store_unavailable``.
"""

from __future__ import annotations

import sqlite3

import psycopg
import psycopg_pool
from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError, PersistenceError

VersionClash = IntegrityError
StoreError = PersistenceError

STORE_UNREACHABLE: tuple[type[Exception], ...] = (
    OperationalError,
    InterfaceError,
    sqlite3.OperationalError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    psycopg_pool.PoolTimeout,
)

__all__ = ["STORE_UNREACHABLE", "StoreError", "VersionClash"]
