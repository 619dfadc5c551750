"""Several processes on one PostgreSQL store: each marks the cached heads the others moved on
(``projections.head_watch``), so an action on a game another process acted on first reads the
events stored after its cached head and is decided on the up-to-date head, not on a stale head
that clashes at the save and fails its group transaction, and without loading the game afresh."""

from __future__ import annotations

import time
from typing import Any

import pytest

from projections import game_repository
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


def test_a_head_another_process_moved_on_is_brought_up_to_date_before_the_next_action(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store.kind != "postgresql":
        pytest.skip("SQLite's workers read the newer events before each action (MTG_LEDGER_HEAD_CHECK)")
    mine, before = _other_process_moves_g1_on(store, watch=True)
    watch = mine.partitions[0].head_watch
    assert watch is not None
    deadline = time.monotonic() + 5
    while watch.marked == 0:
        assert time.monotonic() < deadline, "the watch never marked the stale head"
        time.sleep(0.01)
    recorder = mine.app.recorder
    real = recorder.select_events
    reads: list[int | None] = []

    def counted(originator_id: Any, **kwargs: Any) -> Any:
        reads.append(kwargs.get("gt"))
        return real(originator_id, **kwargs)

    monkeypatch.setattr(recorder, "select_events", counted)
    result = mine.act("g1", add_rad(), JUDGE)
    assert result.version == 5
    assert _transactions(mine) == before + 1  # saved at once: no clash, no second try
    assert reads == [2]  # only the events after the cached head (version 2): no fresh load
    assert not mine.partitions[0].repository.behind("g1")


def test_without_the_watch_the_stale_head_clashes_and_is_tried_again(store: Store) -> None:
    """The cost the watch saves (the same steps with it off)."""
    if store.kind != "postgresql":
        pytest.skip("SQLite's workers read the newer events before each action (MTG_LEDGER_HEAD_CHECK)")
    mine, before = _other_process_moves_g1_on(store, watch=False)
    time.sleep(0.1)
    assert mine.act("g1", add_rad(), JUDGE).version == 5
    assert _transactions(mine) == before + 2  # the failed one, then the retry on a fresh load


def test_own_actions_are_not_marked(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("the head watch is PostgreSQL's")
    service = store.service(project_read_models=False, watch_heads=True)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    for _ in range(3):
        service.act("g1", add_rad(), JUDGE)
    watch = service.partitions[0].head_watch
    assert watch is not None
    watch.look()
    assert watch.marked == 0 and watch.position == service.app.recorder.max_notification_id()


def test_a_look_reads_every_page_of_what_is_new() -> None:
    pages = [[(f"g{i}", 2, i) for i in range(1, PAGE + 1)], [("g1", 3, PAGE + 1)]]
    asked: list[int] = []

    def heads_after(after: int) -> list[tuple[str, int, int]]:
        asked.append(after)
        return pages[len(asked) - 1] if len(asked) <= len(pages) else []

    class Games:
        def mark_behind(self, stream: str, version: int) -> bool:
            return True

    watch = HeadWatch(heads_after, 0, Games(), interval=3600)  # type: ignore[arg-type]
    try:
        watch.look()
    finally:
        watch.close()
    assert asked == [0, PAGE]  # a full page: it looked again from where the page ended
    assert watch.position == PAGE + 1 and watch.marked == PAGE + 1


def test_a_mark_lasts_until_a_head_that_new_is_remembered(store: Store) -> None:
    service = store.service(project_read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    games = service.partitions[0].repository
    head = games.cached("g1")
    assert head is not None and head.version == 1
    assert not games.mark_behind("g1", 1)  # not past the cached head
    assert not games.mark_behind("nowhere", 5)  # not cached: it is loaded afresh anyway
    assert games.mark_behind("g1", 3) and games.mark_behind("g1", 2)
    games.remember(head)
    assert games.behind("g1")  # still older than version 3
    service.act("g1", add_rad(), JUDGE)  # the action's head is remembered at version 2
    assert games.behind("g1")
    service.act("g1", add_rad(), JUDGE)
    assert not games.behind("g1")


def test_marks_of_games_the_cache_let_go_of_are_cleared(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_repository, "BEHIND_MAX", 2)
    service = store.service(project_read_models=False)
    for gid in ("g1", "g2", "g3"):
        service.create_game(TWO_PLAYER, SCOREKEEPER, gid)
    games = service.partitions[0].repository
    assert games.mark_behind("g1", 5) and games.mark_behind("g2", 5)
    cache = service.app.repository.cache
    assert cache is not None
    cache.get("g1", evict=True)  # let go of by the cache (least recently used)
    assert games.mark_behind("g3", 5)
    assert not games.behind("g1") and games.behind("g2") and games.behind("g3")
