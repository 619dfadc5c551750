"""Tampering, byte by byte: one byte of one stored event changed, for every event in turn.

On SQLite the byte is changed in the database FILE itself (the server closed, WAL checkpointed:
what an editor with a hex editor or a disk fault would do); on PostgreSQL in the event's row.
Each time ``verify`` must say exactly that version (never an exception, never another version),
and after the byte is put back the chain verifies again. The game has single-event and
multi-event actions, a revert carrying a whole state, and snapshots.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

import pytest

from bench.harness import ScratchStore
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor
from tests.reliability.support import ACTIONS, GAME

JUDGE = Actor("tamper judge", "judge")


def build_game(url: str, actions: int) -> int:
    with LedgerService(url, LedgerSettings(snapshot_interval=10, read_models=False)) as service:
        service.create_game(GAME, JUDGE, "tampered")
        rng = random.Random(actions)
        for n in range(actions):
            if n % 9 == 8:
                service.undo("tampered", actions=2, reason="backup", actor=JUDGE)
            else:
                service.act("tampered", rng.choice(ACTIONS), JUDGE)
        report = service.verify("tampered")
        assert report.ok
        return report.events


def verify(url: str) -> tuple[bool, int | None, int]:
    # A new service each time: nothing cached from before the edit.
    with LedgerService(url, LedgerSettings(create_tables=False, read_models=False)) as service:
        report = service.verify("tampered")
    return report.ok, report.first_bad_version, report.events


class SQLiteFile:
    """Edits bytes of the database file where an event's stored JSON lies."""

    def __init__(self, store: ScratchStore) -> None:
        self.path = store.sqlite_file()
        with sqlite3.connect(self.path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            rows = db.execute(
                "SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                "ORDER BY originator_version",
                ("tampered",),
            ).fetchall()
        db.close()
        self.states: dict[int, bytes] = {v: bytes(s) for v, s in rows}

    def span(self, version: int) -> tuple[int, int]:
        """``(start, end)`` in the file of (the last contiguous part of) the event's JSON."""
        state = self.states[version]
        data = self.path.read_bytes()
        digest = state[state.rindex(b'"hash":"') :]  # the record ends with its own hash: unique
        assert data.count(digest) == 1, f"v{version}: its hash is not unique in the file"
        end = data.index(digest) + len(digest)
        length = 0  # a long record spills into overflow pages: use the part before its hash
        while length < len(state) and data[end - length - 1] == state[len(state) - length - 1]:
            length += 1
        return end - length, end

    def flip(self, offset: int, mask: int) -> None:
        with open(self.path, "r+b") as f:
            f.seek(offset)
            byte = f.read(1)[0]
            f.seek(offset)
            f.write(bytes([byte ^ mask]))


def tamper_every_event(store: ScratchStore, actions: int, bytes_per_event: int) -> int:
    count = build_game(store.url, actions)
    rng = random.Random(count)
    checked = 0
    if store.kind == "sqlite":
        target = SQLiteFile(store)
        assert sorted(target.states) == list(range(1, count + 1))
        for version in range(1, count + 1):
            start, end = target.span(version)
            for _ in range(bytes_per_event):
                offset, mask = rng.randrange(start, end), rng.randrange(1, 256)
                target.flip(offset, mask)
                assert verify(store.url) == (False, version, count), f"v{version}, byte {offset - start}"
                target.flip(offset, mask)
                checked += 1
    else:
        import psycopg

        assert store.base_url is not None and store.schema is not None
        table = f'"{store.schema}".ledger_events'
        with psycopg.connect(store.base_url, autocommit=True) as db:
            rows: list[Any] = db.execute(
                f"SELECT originator_version, state FROM {table} WHERE originator_id = %s ORDER BY originator_version",
                ("tampered",),
            ).fetchall()
            assert [v for v, _ in rows] == list(range(1, count + 1))
            for version, state in rows:
                original = bytes(state)
                for _ in range(bytes_per_event):
                    edited = bytearray(original)
                    edited[rng.randrange(len(edited))] ^= rng.randrange(1, 256)
                    update = f"UPDATE {table} SET state = %s WHERE originator_id = %s AND originator_version = %s"
                    db.execute(update, (bytes(edited), "tampered", version))
                    assert verify(store.url) == (False, version, count), f"v{version}"
                    db.execute(update, (original, "tampered", version))
                    checked += 1
    assert verify(store.url) == (True, None, count)
    return checked


def test_one_changed_byte_in_any_event_is_named(store: ScratchStore) -> None:
    assert tamper_every_event(store, actions=24, bytes_per_event=2) >= 50


@pytest.mark.slow
def test_changed_bytes_soak(store: ScratchStore) -> None:
    assert tamper_every_event(store, actions=60, bytes_per_event=8) >= 80 * 8
