"""Games partitioned across two PostgreSQL databases by a stable hash of the game id.

Needs ``MTG_LEDGER_TEST_POSTGRES``: unset, the database tests are skipped with that reason; set
but unreachable, they FAIL. Two local databases are made once (``mtgl_partition_a`` and
``mtgl_partition_b`` on that server); each test works in a fresh schema of each, dropped after.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.errors import Conflict
from ledger.partitions import partition_of
from ledger.service import LedgerService, LedgerSettings
from tests.store.conftest import JUDGE, POSTGRES_ENV, SCOREKEEPER, TWO_PLAYER, add_rad

DATABASES = ("mtgl_partition_a", "mtgl_partition_b")
PINNED_2 = [0, 0, 0, 1, 1, 1, 0]
PINNED_3 = [1, 2, 0, 0, 1, 0, 1]


def test_the_partition_of_a_game_is_stable_and_spread() -> None:
    # Pinned: a change here would move every stored game to another database.
    ids = ("g1", "g2", "g3", "g4", "g5", "g6", "bench-00000")
    assert [partition_of(g, 2) for g in ids] == PINNED_2
    assert [partition_of(g, 3) for g in ids] == PINNED_3
    assert partition_of("g1", 1) == 0
    assert (
        partition_of("g-000000000000", 4)
        == int.from_bytes(__import__("hashlib").sha256(b"g-000000000000").digest()[:8], "big") % 4
    )
    counts = [0, 0, 0, 0]
    for i in range(4000):
        counts[partition_of(f"game-{i}", 4)] += 1
    assert all(900 < c < 1100 for c in counts), counts
    with pytest.raises(ValueError):
        partition_of("g1", 0)


def _database_url(base: str, name: str) -> str:
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def two_databases() -> Iterator[list[str]]:
    """Two PostgreSQL databases' URLs, a fresh schema in each."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: the partition tests need a PostgreSQL server URL")
    import psycopg

    schema = f"mtgl_part_{os.getpid()}_{uuid4().hex[:8]}"
    urls = []
    with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
        for name in DATABASES:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                try:
                    conn.execute(f'CREATE DATABASE "{name}"')
                except psycopg.errors.DuplicateDatabase:  # another test run made it meanwhile
                    pass
                except psycopg.errors.UniqueViolation:
                    pass
    for name in DATABASES:
        url = _database_url(base, name)
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        urls.append(f"{url}{'&' if '?' in url else '?'}schema={schema}")
    try:
        yield urls
    finally:
        for name in DATABASES:
            with psycopg.connect(_database_url(base, name), autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _stored_game_ids(url: str) -> set[str]:
    import psycopg

    plain, _, query = url.partition("?")
    schema = query.split("schema=", 1)[1]
    with psycopg.connect(plain, autocommit=True, connect_timeout=5) as conn:
        rows = conn.execute(
            f'SELECT DISTINCT originator_id FROM "{schema}".ledger_events WHERE originator_id NOT LIKE %s', ("\\_%",)
        ).fetchall()
    return {r[0] for r in rows}


def _ids_in_both(count: int = 2) -> list[str]:
    """Game ids that fall in partition 0 and in partition 1, ``count`` of each."""
    found: dict[int, list[str]] = {0: [], 1: []}
    i = 0
    while min(len(v) for v in found.values()) < count:
        assert i < 10_000, f"no game id falls in every partition: {found}"
        gid = f"g{i}"
        if len(found[partition_of(gid, 2)]) < count:
            found[partition_of(gid, 2)].append(gid)
        i += 1
    return found[0] + found[1]


@pytest.mark.postgres
def test_games_live_in_their_partition_and_everything_works_across(two_databases: list[str]) -> None:
    service = LedgerService(two_databases, LedgerSettings(snapshot_interval=5))
    try:
        games = _ids_in_both()
        for gid in games:
            service.create_game(dict(TWO_PLAYER), SCOREKEEPER, gid)
        chosen = service.create_game(dict(TWO_PLAYER), SCOREKEEPER).game_id
        for gid in games:
            for _ in range(6):  # past a snapshot
                service.act(gid, add_rad(), JUDGE)
        service.undo(games[-1], reason="misclick", actor=JUDGE)
        for n, url in enumerate(two_databases):
            assert _stored_game_ids(url) == {g for g in [*games, chosen] if partition_of(g, 2) == n}
        for gid in games:
            assert service.verify(gid).ok
            assert service.state_at(gid, 3)[0] == 3
            assert len(service.events(gid)) >= 7
        assert service.state_at(games[-1])[1].players["P2"].counters["rad"] == 5
        # The list merges both partitions, newest first.
        service.wait_for_read_model()
        listed = service.list_games()
        assert {g.game_id for g in listed} == {*games, chosen}
        assert [g.updated_at for g in listed] == sorted((g.updated_at for g in listed), reverse=True)
        assert service.game_list.election is not None
        # Export from one partition, import as a new id lands in that id's partition.
        lines = list(service.export(games[0]))
        with pytest.raises(Conflict):
            service.import_game(lines, SCOREKEEPER)
    finally:
        service.close()


@pytest.mark.postgres
def test_idempotency_keys_and_tokens_across_partitions(two_databases: list[str]) -> None:
    service = LedgerService(two_databases)
    try:
        games = _ids_in_both(1)
        for gid in games:
            service.create_game(dict(TWO_PLAYER), SCOREKEEPER, gid)
        for gid in games:
            first = service.act(gid, add_rad(), JUDGE, idempotency_key=f"k-{gid}", request_fingerprint="fp")
            assert first.key_claimed
            seen = service.read_idempotency_key(f"k-{gid}")
            assert seen.claim is not None and seen.claim.game_id == gid
            service.remember_response(seen, "fp", 201, '{"ok": true}')
            assert service.read_idempotency_key(f"k-{gid}").recalled == ("fp", 201, '{"ok": true}')
            with pytest.raises(Conflict):  # the same key again: its claim is in the game's partition
                service.act(gid, add_rad(), JUDGE, idempotency_key=f"k-{gid}", request_fingerprint="fp")
        # A create with a server-chosen id and a key: the id falls where the key's records are.
        made = service.create_game(dict(TWO_PLAYER), SCOREKEEPER, idempotency_key="create-1", request_fingerprint="c")
        with pytest.raises(Conflict):
            service.create_game(dict(TWO_PLAYER), SCOREKEEPER, idempotency_key="create-1", request_fingerprint="c")
        assert service.read_idempotency_key("create-1").claim is not None
        assert service.read_idempotency_key("create-1").claim.game_id == made.game_id  # type: ignore[union-attr]
        # Tokens live in the home partition.
        secret = service.create_token("ops", "admin", None, None)
        assert service.lookup_token(secret) is not None
    finally:
        service.close()


@pytest.mark.postgres
def test_the_api_serves_a_partitioned_ledger(two_databases: list[str], tmp_path: Path) -> None:
    settings = Settings(
        _env_file=None,
        database_url=two_databases[0],
        partition_urls=",".join(two_databases),
        admin_token="t",
        catalog_path=tmp_path / "cards.json",
    )
    headers = {"Authorization": "Bearer t"}
    with TestClient(create_app(settings)) as client:
        ids = _ids_in_both(1)
        for gid in ids:
            assert client.post("/v1/games", json={**TWO_PLAYER, "game_id": gid}, headers=headers).status_code == 201
            assert client.post(f"/v1/games/{gid}/actions", json=add_rad(), headers=headers).status_code == 201
        client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
        listed = client.get("/v1/games", headers=headers).json()["games"]
        assert {g["game_id"] for g in listed} == set(ids)
        assert client.get(f"/v1/games/{ids[1]}", headers=headers).json()["version"] == 2
