"""Group commit: concurrent actions of different games saved in one transaction, each caller
answered after its own records are durable, a clash retried for its game alone (both stores)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from domain.errors import Conflict
from ledger.service import LedgerService
from store.group_commit import GroupCommitter
from store.results import ActionResult
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad

OK = "ok"
WINDOW = 0.05
"""Long enough that threads started together land in one batch on a busy machine."""


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released at once; each outcome is a result (``OK`` for
    ``None``) or the exception."""
    barrier = threading.Barrier(len(calls), timeout=30)
    outcomes: list[Any] = [None] * len(calls)

    def attempt(i: int) -> None:
        barrier.wait()
        try:
            result = calls[i]()
            outcomes[i] = OK if result is None else result
        except Exception as err:  # the test inspects it
            outcomes[i] = err

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert all(o is not None for o in outcomes), outcomes
    return outcomes


def create(service: LedgerService, count: int, prefix: str = "g") -> list[str]:
    return [service.create_game(dict(TWO_PLAYER), SCOREKEEPER, f"{prefix}{i}").game_id for i in range(count)]


def rad(service: LedgerService, game_id: str) -> int:
    _, state = service.state_at(game_id)
    return int(state.players["P2"].counters.get("rad", 0))


# -- the committer alone, with a fake store ------------------------------------------------------
class FakeStore:
    """Stores (id, version) pairs; refuses a save holding a taken one, like a primary key."""

    def __init__(self, taken: set[tuple[str, int]] | None = None) -> None:
        self.rows: set[tuple[str, int]] = set(taken or ())
        self.transactions: list[int] = []
        self.lock = threading.Lock()

    def save(self, *objs: Any) -> None:
        keys = [(o.originator_id, o.originator_version) for o in objs]
        with self.lock:
            self.transactions.append(len(objs))
            if any(k in self.rows for k in keys) or len(set(keys)) != len(keys):
                raise IntegrityError("taken")
            self.rows.update(keys)


class Rec:
    def __init__(self, oid: str, version: int) -> None:
        self.originator_id = oid
        self.originator_version = version


def test_one_transaction_for_callers_arriving_together() -> None:
    store = FakeStore()
    committer = GroupCommitter(store, window=WINDOW)
    try:
        outcomes = together([lambda i=i: committer.save(Rec(f"s{i}", 1), Rec(f"s{i}", 2)) for i in range(8)])
    finally:
        committer.close()
    assert outcomes == [OK] * 8
    assert len(store.rows) == 16
    assert committer.stats.largest > 1, store.transactions
    assert len(store.transactions) < 8


def test_a_clash_fails_that_caller_alone_and_never_splits_a_save() -> None:
    store = FakeStore(taken={("s3", 2)})
    committer = GroupCommitter(store, window=WINDOW)
    try:
        outcomes = together([lambda i=i: committer.save(Rec(f"s{i}", 1), Rec(f"s{i}", 2)) for i in range(8)])
    finally:
        committer.close()
    assert isinstance(outcomes[3], IntegrityError)
    assert [o for i, o in enumerate(outcomes) if i != 3] == [OK] * 7
    assert ("s3", 1) not in store.rows  # the clashing save's other record was not stored either
    assert {(f"s{i}", v) for i in range(8) if i != 3 for v in (1, 2)} <= store.rows


def test_a_probe_finds_the_clash_without_halving() -> None:
    store = FakeStore(taken={("s3", 2), ("s5", 1)})
    committer = GroupCommitter(store, window=0.5, probe=lambda keys: {k for k in keys if k in store.rows})
    try:
        outcomes = together([lambda i=i: committer.save(Rec(f"s{i}", 1), Rec(f"s{i}", 2)) for i in range(8)])
    finally:
        committer.close()
    assert [i for i, o in enumerate(outcomes) if isinstance(o, IntegrityError)] == [3, 5]
    assert [o for i, o in enumerate(outcomes) if i not in (3, 5)] == [OK] * 6
    assert committer.stats.splits == 0 and committer.stats.probed >= 1


def test_two_saves_of_one_version_are_decided_one_after_the_other() -> None:
    store = FakeStore()
    committer = GroupCommitter(store, window=WINDOW)
    try:
        outcomes = together([lambda: committer.save(Rec("same", 1)) for _ in range(4)])
    finally:
        committer.close()
    assert outcomes.count(OK) == 1
    assert sum(isinstance(o, IntegrityError) for o in outcomes) == 3
    assert max(store.transactions) == 1  # never put in one transaction together


def test_a_store_failure_reaches_every_caller_of_the_batch() -> None:
    class Down:
        def save(self, *objs: Any) -> None:
            raise OSError("connection refused")

    committer = GroupCommitter(Down(), window=WINDOW)
    try:
        outcomes = together([lambda i=i: committer.save(Rec(f"s{i}", 1)) for i in range(3)])
    finally:
        committer.close()
    assert all(isinstance(o, OSError) for o in outcomes)


def test_a_lone_caller_writes_its_own_transaction_on_its_own_thread() -> None:
    """Leader and followers: no writer thread to hand the save to and wait on (its wake-ups
    cost CPU per action); a caller alone is the writer of its own transaction."""
    threads: list[int] = []

    class Recording(FakeStore):
        def save(self, *objs: Any) -> None:
            threads.append(threading.get_ident())
            super().save(*objs)

    store = Recording()
    committer = GroupCommitter(store, window=0)
    try:
        for v in (1, 2, 3):
            committer.save(Rec("alone", v))
    finally:
        committer.close()
    assert threads == [threading.get_ident()] * 3
    assert store.transactions == [1, 1, 1]


def test_close_answers_what_was_queued_and_refuses_more() -> None:
    store = FakeStore()
    committer = GroupCommitter(store, window=0.2)
    t = threading.Thread(target=committer.save, args=(Rec("late", 1),))
    t.start()
    while not committer._queue:  # handed in, not yet committed
        pass
    committer.close()
    t.join(timeout=10)
    assert ("late", 1) in store.rows
    with pytest.raises(RuntimeError):
        committer.save(Rec("after", 1))


# -- through the service, on both stores ---------------------------------------------------------
def test_actions_of_different_games_share_transactions(store: Store) -> None:
    service = store.service(group_commit_window=WINDOW)
    games = create(service, 12)
    before = service.committer.stats.transactions if service.committer else 0
    outcomes = together([lambda g=g: service.act(g, add_rad(), JUDGE) for g in games])
    assert all(isinstance(o, ActionResult) and o.version == 2 for o in outcomes), outcomes
    assert service.committer is not None
    assert service.committer.stats.transactions - before < len(games)
    assert service.committer.stats.largest > 1
    fresh = store.service(read_models=False, group_commit_window=None)
    for g in games:
        assert fresh.state_at(g)[0] == 2
        assert rad(fresh, g) == 1
        assert fresh.verify(g).ok


def test_many_threads_on_one_game_lose_nothing(store: Store) -> None:
    service = store.service(group_commit_window=WINDOW)
    (game,) = create(service, 1)
    outcomes = together([lambda: service.act(game, add_rad(), JUDGE) for _ in range(6)])
    stored = [o for o in outcomes if isinstance(o, ActionResult)]
    refused = [o for o in outcomes if not isinstance(o, ActionResult)]
    assert all(isinstance(o, Conflict) and o.code == "version_conflict" for o in refused), refused
    assert stored
    assert sorted(o.version for o in stored) == list(range(2, 2 + len(stored)))
    fresh = store.service(read_models=False, group_commit_window=None)
    assert fresh.state_at(game)[0] == 1 + len(stored)
    assert rad(fresh, game) == len(stored)
    assert fresh.verify(game).ok


def test_a_clash_in_a_batch_is_retried_for_that_game_alone(store: Store) -> None:
    """Another process moves game g0 on: this one's head of g0 is stale, so the batch holding
    g0's action with others fails; the others are stored and g0's action is decided again."""
    service = store.service(group_commit_window=0.5, read_models=False)  # all six surely in the first batch
    games = create(service, 6)
    other = store.service(read_models=False, group_commit_window=None)
    other.act(games[0], add_rad(amount=5), JUDGE)
    outcomes = together([lambda g=g: service.act(g, add_rad(), JUDGE) for g in games])
    assert all(isinstance(o, ActionResult) for o in outcomes), outcomes
    assert outcomes[0].version == 3
    assert [o.version for o in outcomes[1:]] == [2] * 5
    assert service.committer is not None and service.committer.stats.probed >= 1  # found by one query
    fresh = store.service(read_models=False, group_commit_window=None)
    assert rad(fresh, games[0]) == 6
    assert all(rad(fresh, g) == 1 for g in games[1:])
    assert all(fresh.verify(g).ok for g in games)


def test_one_idempotency_key_in_one_batch_stores_one_action(store: Store) -> None:
    service = store.service(group_commit_window=WINDOW)
    games = create(service, 2)
    outcomes = together(
        [lambda g=g: service.act(g, add_rad(), JUDGE, idempotency_key="k-1", request_fingerprint="fp") for g in games]
    )
    stored = [o for o in outcomes if isinstance(o, ActionResult)]
    assert len(stored) == 1, outcomes
    (refused,) = [o for o in outcomes if not isinstance(o, ActionResult)]
    assert isinstance(refused, Conflict) and refused.code == "idempotency_in_progress"
    assert sorted(service.state_at(g)[0] for g in games) == [1, 2]


def test_if_match_clash_is_still_a_409(store: Store) -> None:
    service = store.service(group_commit_window=WINDOW)
    (game,) = create(service, 1)
    other = store.service(read_models=False, group_commit_window=None)
    other.act(game, add_rad(), JUDGE)
    with pytest.raises(Conflict) as refused:
        service.act(game, add_rad(), JUDGE, expected_version=1)
    assert refused.value.code == "version_conflict"


@pytest.mark.parametrize("check_heads", [True, False])
def test_a_checked_head_moved_on_by_another_process_costs_no_failed_transaction(
    store: Store, check_heads: bool
) -> None:
    """``check_heads`` (chosen for several workers on one SQLite file): the cached head of g0 is brought up to date
    before the action is decided, so the batch is not failed by it (no probe); without it
    the same batch fails and the clash is found by a probe."""
    service = store.service(group_commit_window=0.5, check_heads=check_heads, read_models=False)
    games = create(service, 6)
    other = store.service(read_models=False, group_commit_window=None)
    other.act(games[0], add_rad(amount=5), JUDGE)
    assert service.committer is not None
    outcomes = together([lambda g=g: service.act(g, add_rad(), JUDGE) for g in games])
    assert all(isinstance(o, ActionResult) for o in outcomes), outcomes
    assert [o.version for o in outcomes] == [3, 2, 2, 2, 2, 2]
    if check_heads:
        assert service.committer.stats.probed == 0  # a failed batch is always followed by a probe
    else:
        assert service.committer.stats.probed >= 1
    assert rad(store.service(read_models=False, group_commit_window=None), games[0]) == 6
