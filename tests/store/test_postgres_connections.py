"""Multi-host PostgreSQL URLs, libpq's options, pooled connections whose server went away, and
a save whose commit outcome was lost (``store.postgres_connections``; docs/operations.md, High
availability). The failover itself, under Patroni, is tests/reliability/test_failover.py."""

from __future__ import annotations

import json
import socket
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

import pytest
from eventsourcing.persistence import OperationalError
from eventsourcing.postgres import PostgresDatastore

from api.settings import Settings
from ledger.service import LedgerService, LedgerSettings
from store.database_url import library_environment
from store.postgres_connections import (
    LedgerPostgresFactory,
    connection_options,
    hosts_and_ports,
    split_database_urls,
)
from store.postgres_recorder import LargeBatchPostgresApplicationRecorder
from store.runner_election import PostgresAdvisoryLock, election_for
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def test_several_hosts_reach_libpq_as_lists() -> None:
    assert hosts_and_ports("u:p@db1:5432,db2:5433,db3") == ("db1,db2,db3", "5432,5433,5432")
    assert hosts_and_ports("u@[::1]:6000,[fe80::1]") == ("::1,fe80::1", "6000,5432")
    assert hosts_and_ports("u@", "/run/postgresql") == ("/run/postgresql", "5432")
    env = library_environment(
        "postgresql://ledger:s%40cret@db1:5432,db2:5433/games?target_session_attrs=read-write"
        "&keepalives_idle=10&schema=gp&connect_timeout=3",
        create_tables=False,
    )
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"]) == ("db1,db2", "5432,5433")
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"], env["POSTGRES_SCHEMA"]) == ("ledger", "s@cret", "gp")
    # The ledger's own options stay the ledger's; libpq's go to every connection.
    assert connection_options(env) == {
        "connect_timeout": "3",
        "target_session_attrs": "read-write",
        "keepalives_idle": "10",
    }
    with pytest.raises(ValueError, match="port 'x'"):
        library_environment("postgresql://u@db1:x,db2/d", create_tables=True)


def test_a_comma_inside_a_multi_host_url_does_not_separate_partitions() -> None:
    one = "postgresql://u@db1:5432,db2:5432/a?target_session_attrs=read-write"
    two = "postgresql://u@db3,db4/b"
    assert split_database_urls(f"{one},{two}") == [one, two]
    assert split_database_urls(f" {one} ,  {two}\n") == [one, two]
    assert split_database_urls("sqlite:///a.db,sqlite:///b.db") == ["sqlite:///a.db", "sqlite:///b.db"]
    settings = Settings(_env_file=None, partition_urls=f"{one}, {two}")
    assert settings.database_urls == [one, two]


# -- against the PostgreSQL test server ------------------------------------------------------
def _postgres(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("libpq's hosts and options are PostgreSQL's")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port  # nothing listens there once the socket is closed


def _multi_host(url: str, **options: str) -> str:
    """``url`` with a host nobody listens on put first, and libpq options added."""
    parts = urlsplit(url)
    user, _, hostport = parts.netloc.rpartition("@")
    netloc = f"{user}@127.0.0.1:{_closed_port()},{hostport}"
    query = "&".join([parts.query, *(f"{k}={v}" for k, v in options.items())]).strip("&")
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _datastore(service: LedgerService) -> PostgresDatastore:
    factory = service.app.factory
    assert isinstance(factory, LedgerPostgresFactory)
    return factory.datastore


def test_a_multi_host_url_finds_the_server_that_takes_writes(store: Store) -> None:
    _postgres(store)
    url = _multi_host(store.url, target_session_attrs="read-write", application_name="mtgl-multi-host")
    service = LedgerService(url, LedgerSettings(snapshot_interval=5))
    try:
        kwargs = _datastore(service).pool.kwargs
        assert isinstance(kwargs, dict) and kwargs["target_session_attrs"] == "read-write"
        service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
        service.act("g1", add_rad(), JUDGE)
        assert service.head_version("g1") == 2
        election = election_for(service.library_env, "test-multi-host")
        assert isinstance(election, PostgresAdvisoryLock)
        try:
            assert election.try_acquire()
            assert election._conn is not None and election._conn.info.port == urlsplit(store.base_url).port
        finally:
            election.release()
        names = store.execute(
            "SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database()"
        )
        assert ("mtgl-multi-host",) in names
    finally:
        service.close()


def _wait_until_gone(store: Store, application_name: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while store.execute("SELECT pid FROM pg_stat_activity WHERE application_name = ?", application_name):
        assert time.monotonic() < deadline, f"sessions of {application_name!r} still open after {timeout} s"
        time.sleep(0.02)


def test_pooled_connections_whose_server_ended_them_are_dropped_before_use(store: Store) -> None:
    _postgres(store)
    name = f"mtgl-stale-{uuid4().hex[:8]}"
    service = LedgerService(_multi_host(store.url, application_name=name), LedgerSettings(read_models=False))
    try:
        service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
        datastore = _datastore(service)
        with datastore.get_connection() as first, datastore.get_connection() as second:
            assert first is not second  # two connections in the pool now
        # What a primary's death (or a restart) does to every idle connection of the pool.
        ended = store.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?", name)
        assert len(ended) >= 2
        # pg_terminate_backend only signals: wait until the sessions have ended (their FATAL is
        # on the sockets), as they have once a primary is dead. Under load they take a while.
        _wait_until_gone(store, name)
        # Without a retry around it: a dead connection handed out would fail this statement.
        with datastore.get_connection() as conn:
            assert conn.execute("SELECT 1 AS one").fetchone() == {"one": 1}
        service.act("g1", add_rad(), JUDGE)
        assert service.head_version("g1") == 2
    finally:
        service.close()


@pytest.mark.parametrize("group_commit", [True, False], ids=["group-commit", "one-per-save"])
@pytest.mark.parametrize("with_key", [True, False], ids=["idempotency-key", "no-key"])
def test_a_save_whose_commit_answer_was_lost_is_stored_once_and_answered(
    store: Store, monkeypatch: pytest.MonkeyPatch, with_key: bool, group_commit: bool
) -> None:
    # The connection dies after the server committed, before its answer arrives (the primary is
    # killed right then, its standby already has the commit): the recorder tries the save again
    # on a new connection, which finds its own first try's versions taken.
    _postgres(store)
    service = store.service(read_models=False, **({} if group_commit else {"group_commit_window": None}))
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    real = LargeBatchPostgresApplicationRecorder._insert_by_function
    lost: list[int] = []

    def commit_then_lose_the_answer(self: Any, stored_events: Any) -> list[int]:
        ids = real(self, stored_events)
        if not lost:
            lost.append(len(stored_events))
            raise OperationalError("server closed the connection unexpectedly")
        return ids

    monkeypatch.setattr(LargeBatchPostgresApplicationRecorder, "_insert_by_function", commit_then_lose_the_answer)
    key = "lost-answer" if with_key else None
    result = service.act("g1", add_rad(), JUDGE, idempotency_key=key, request_fingerprint="f" if key else None)
    assert lost, "the save's answer was not lost: the test proved nothing"
    assert result.version == 2
    events = service.events("g1")
    assert [e.version for e in events] == [1, 2], "stored once, never decided again and stored twice"
    assert events[1].action_id == result.action_id
    if key is not None:
        seen = service.read_idempotency_key(key)
        assert seen.claim is not None and seen.claim.action_id == result.action_id


def test_a_remembered_response_whose_answer_was_lost_is_not_a_conflict(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    _postgres(store)
    service = store.service(read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    result = service.act("g1", add_rad(), JUDGE, idempotency_key="k", request_fingerprint="f")
    seen = service.read_idempotency_key("k")
    real = LargeBatchPostgresApplicationRecorder._insert_by_function
    lost: list[bool] = []

    def commit_then_lose_the_answer(self: Any, stored_events: Any) -> list[int]:
        ids = real(self, stored_events)
        if not lost:
            lost.append(True)
            raise OperationalError("server closed the connection unexpectedly")
        return ids

    monkeypatch.setattr(LargeBatchPostgresApplicationRecorder, "_insert_by_function", commit_then_lose_the_answer)
    answer = json.dumps({"action_id": result.action_id})
    service.remember_response(seen, "f", 201, answer, claimed_since=False)
    assert lost
    recalled = service.read_idempotency_key("k").recalled
    assert recalled == ("f", 201, answer)
