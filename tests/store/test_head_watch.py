"""Several processes on one PostgreSQL store: each drops the cached heads the others moved on
(``projections.head_watch``), so an action on a game another process acted on is decided on a
fresh load, not on a stale head that clashes at the save and fails its group transaction."""

from __future__ import annotations

import time

import pytest

from projections.head_watch import PAGE, HeadWatch
from projections.service import LedgerService
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def _transactions(service: LedgerService) -> int:
    assert service.committer is not None
    return service.committer.stats.transactions


def _other_process_moves_g1_on(store: Store, watch: bool) -> tuple[LedgerService, int]:
    mine = store.service(project_read_models=False, watch_heads=watch)
    theirs = store.service(project_read_models=False, watch_heads=watch)
    mine.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    mine.act("g1", add_rad(), JUDGE)  # mine has g1 cached at version 2
    theirs.act("g1", add_rad(), JUDGE)
    theirs.act("g1", add_rad(), JUDGE)  # the store has version 4 now
    return mine, _transactions(mine)


def test_a_head_another_process_moved_on_is_dropped_before_the_next_action(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("SQLite's workers read the newer events before each action (MTG_LEDGER_HEAD_CHECK)")
    mine, before = _other_process_moves_g1_on(store, watch=True)
    watch = mine.partitions[0].head_watch
    assert watch is not None
    deadline = time.monotonic() + 5
    while watch.dropped == 0:
        assert time.monotonic() < deadline, "the watch never dropped the stale head"
        time.sleep(0.01)
    result = mine.act("g1", add_rad(), JUDGE)
    assert result.version == 5
    assert _transactions(mine) == before + 1  # saved at once: no clash, no second try


def test_without_the_watch_the_stale_head_clashes_and_is_tried_again(store: Store) -> None:
    """The cost the watch saves (the same steps with it off)."""
    if store.kind != "postgresql":
        pytest.skip("SQLite's workers read the newer events before each action (MTG_LEDGER_HEAD_CHECK)")
    mine, before = _other_process_moves_g1_on(store, watch=False)
    time.sleep(0.1)
    assert mine.act("g1", add_rad(), JUDGE).version == 5
    assert _transactions(mine) == before + 2  # the failed one, then the retry on a fresh load


def test_own_actions_are_not_dropped(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("the head watch is PostgreSQL's")
    service = store.service(project_read_models=False, watch_heads=True)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    for _ in range(3):
        service.act("g1", add_rad(), JUDGE)
    watch = service.partitions[0].head_watch
    assert watch is not None
    watch.look()
    assert watch.dropped == 0 and watch.position == service.app.recorder.max_notification_id()


def test_a_look_reads_every_page_of_what_is_new() -> None:
    pages = [[(f"g{i}", 2, i) for i in range(1, PAGE + 1)], [("g1", 3, PAGE + 1)]]
    asked: list[int] = []

    def heads_after(after: int) -> list[tuple[str, int, int]]:
        asked.append(after)
        return pages[len(asked) - 1] if len(asked) <= len(pages) else []

    class Games:
        def forget_if_older(self, stream: str, version: int) -> bool:
            return True

    watch = HeadWatch(heads_after, 0, Games(), interval=3600)  # type: ignore[arg-type]
    try:
        watch.look()
    finally:
        watch.close()
    assert asked == [0, PAGE]  # a full page: it looked again from where the page ended
    assert watch.position == PAGE + 1 and watch.dropped == PAGE + 1
