"""Several processes on one PostgreSQL store: each keeps its cached heads up to date from one
read of what is new for all games (``store.head_watch``), so an action on a game another
process acted on is not decided on a stale head that clashes at the save and fails its group
transaction, nor loaded afresh. A head is marked behind, and its next action reads only what it
lacks; once a game's actions have come here that way (they are spread over processes), its head
is brought forward as the events come, and its actions are decided with no read at all."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from ledger.service import LedgerService
from store import repository as game_repository
from store.head_watch import PAGE, HeadWatch
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def _transactions(service: LedgerService) -> int:
    assert service.committer is not None
    return service.committer.stats.transactions


def _other_process_moves_g1_on(store: Store, watch: bool) -> tuple[LedgerService, int]:
    mine = store.service(read_models=False, watch_heads=watch)
    theirs = store.service(read_models=False, watch_heads=watch)
    mine.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    mine.act("g1", add_rad(), JUDGE)  # mine has g1 cached at version 2
    theirs.act("g1", add_rad(), JUDGE)
    theirs.act("g1", add_rad(), JUDGE)  # the store has version 4 now
    return mine, _transactions(mine)


def _count_reads(service: LedgerService, monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The ``gt`` of every read of a game's events from now on."""
    recorder = service.app.recorder
    real = recorder.select_events
    reads: list[int | None] = []

    def counted(originator_id: Any, **kwargs: Any) -> Any:
        reads.append(kwargs.get("gt"))
        return real(originator_id, **kwargs)

    monkeypatch.setattr(recorder, "select_events", counted)
    return reads


def _postgresql_only(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("SQLite's workers read the newer events before each action (the head check)")


def _wait(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 5
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_head_another_process_moved_on_is_marked_then_brought_forward(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    _postgresql_only(store)
    mine, before = _other_process_moves_g1_on(store, watch=True)
    watch = mine.partitions[0].head_watch
    games = mine.partitions[0].repository
    assert watch is not None
    _wait(lambda: games.behind("g1"), "the watch never marked the stale head")
    _wait(lambda: watch.position == mine.app.recorder.max_notification_id(), "the watch never saw version 4")
    marked = watch.marked
    assert marked in (1, 2) and watch.advanced == 0  # not yet known to be shared: only marked
    reads = _count_reads(mine, monkeypatch)
    assert mine.act("g1", add_rad(), JUDGE).version == 5
    assert reads == [2]  # only the events after the cached head (version 2): no fresh load
    assert _transactions(mine) == before + 1  # saved at once: no clash, no second try
    assert not games.behind("g1")

    # g1's actions are now known to come to both processes: the watch folds theirs onto mine.
    theirs = store.service(read_models=False)
    theirs.act("g1", add_rad(), JUDGE)
    theirs.act("g1", add_rad(), JUDGE)  # versions 6 and 7
    _wait(lambda: getattr(games.cached("g1"), "version", 0) == 7, "the watch never brought g1 forward")
    head = games.cached("g1")
    assert head is not None and not games.behind("g1")
    assert watch.advanced in (1, 2)  # versions 6 and 7 in one look or in two
    fresh = store.service(read_models=False).partitions[0].repository.load("g1")
    assert (head.state, head.last_hash, head.reverts) == (fresh.state, fresh.last_hash, fresh.reverts)
    reads.clear()
    assert mine.act("g1", add_rad(), JUDGE).version == 8
    assert reads == []  # decided on the head the watch brought forward: nothing read first
    assert _transactions(mine) == before + 2
    assert watch.marked == marked  # brought forward, not marked


def test_events_that_do_not_follow_the_cached_head_mark_it(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watch began after version 4 was stored: it cannot fold version 5 onto version 3, so
    even a shared game is only marked, and its next action reads the events after its cached
    head (one read) and is saved at once."""
    _postgresql_only(store)
    mine = store.service(read_models=False)
    theirs = store.service(read_models=False)
    mine.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    mine.act("g1", add_rad(), JUDGE)
    theirs.act("g1", add_rad(), JUDGE)
    games = mine.partitions[0].repository
    games.mark_behind("g1", 3)
    games.load("g1")  # loaded here while marked behind: shared, cached at version 3
    theirs.act("g1", add_rad(), JUDGE)
    after_v4 = mine.app.recorder.max_notification_id() or 0
    theirs.act("g1", add_rad(), JUDGE)
    watch = HeadWatch(mine.app.recorder.stored_after, after_v4, games, interval=3600)  # type: ignore[attr-defined]
    try:
        watch.look()
    finally:
        watch.close()
    assert (watch.advanced, watch.marked) == (0, 1)
    head = games.cached("g1")
    assert head is not None and head.version == 3 and games.behind("g1")
    before = _transactions(mine)
    reads = _count_reads(mine, monkeypatch)
    assert mine.act("g1", add_rad(), JUDGE).version == 6
    assert reads == [3]  # only the events after the cached head (version 3): no fresh load
    assert _transactions(mine) == before + 1
    assert not games.behind("g1")


def test_an_event_that_cannot_be_read_back_marks_the_head_and_the_watch_goes_on(store: Store) -> None:
    """A record the watch cannot decode is left to the request that loads it (which answers
    ``damaged_record``); the other games are still brought forward."""
    _postgresql_only(store)
    mine = store.service(read_models=False)
    theirs = store.service(read_models=False)
    games = mine.partitions[0].repository
    for gid in ("g1", "g2"):
        mine.create_game(TWO_PLAYER, SCOREKEEPER, gid)
        theirs.act(gid, add_rad(), JUDGE)
        games.mark_behind(gid, 2)
        games.load(gid)  # loaded here while marked behind: known to be shared, cached at version 2
    start = mine.app.recorder.max_notification_id() or 0
    theirs.act("g1", add_rad(), JUDGE)
    theirs.act("g2", add_rad(), JUDGE)
    real = mine.app.recorder.stored_after  # type: ignore[attr-defined]

    def garbled(after: int) -> list[Any]:
        rows = real(after)
        return [(replace(s, state=b"{not json") if s.originator_id == "g1" else s, n) for s, n in rows]

    watch = HeadWatch(garbled, start, games, interval=3600)
    try:
        watch.look()
    finally:
        watch.close()
    assert (watch.advanced, watch.marked) == (1, 1)
    g1, g2 = games.cached("g1"), games.cached("g2")
    assert g1 is not None and g1.version == 2 and games.behind("g1")
    assert g2 is not None and g2.version == 3 and not games.behind("g2")


def test_an_older_head_never_replaces_a_newer_one(store: Store) -> None:
    """The watch may bring a head past an action this process is still answering: that
    action's own (older) head must not replace it."""
    service = store.service(read_models=False)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    games = service.partitions[0].repository
    old = games.cached("g1")
    service.act("g1", add_rad(), JUDGE)
    new = games.cached("g1")
    assert old is not None and new is not None and new.version == 2
    games.remember(old)
    assert games.cached("g1") is new


def test_without_the_watch_the_stale_head_clashes_and_is_tried_again(store: Store) -> None:
    """The cost the watch saves (the same steps with it off)."""
    if store.kind != "postgresql":
        pytest.skip("SQLite's workers read the newer events before each action (the head check)")
    mine, before = _other_process_moves_g1_on(store, watch=False)
    time.sleep(0.1)
    assert mine.act("g1", add_rad(), JUDGE).version == 5
    assert _transactions(mine) == before + 2  # the failed one, then the retry on a fresh load


def test_own_actions_are_not_marked(store: Store) -> None:
    if store.kind != "postgresql":
        pytest.skip("the head watch is PostgreSQL's")
    service = store.service(read_models=False, watch_heads=True)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    for _ in range(3):
        service.act("g1", add_rad(), JUDGE)
    watch = service.partitions[0].head_watch
    assert watch is not None
    watch.look()
    assert (watch.advanced, watch.marked) == (0, 0)
    assert watch.position == service.app.recorder.max_notification_id()


def test_a_look_reads_every_page_of_what_is_new() -> None:
    def event(stream: str, version: int) -> StoredEvent:
        return StoredEvent(stream, version, "topic", b"{}")

    pages = [[(event(f"g{i}", 2), i) for i in range(1, PAGE + 1)], [(event("g1", 3), PAGE + 1)]]
    asked: list[int] = []

    def stored_after(after: int) -> list[tuple[StoredEvent, int]]:
        asked.append(after)
        return pages[len(asked) - 1] if len(asked) <= len(pages) else []

    class Games:
        def catch_up(self, stream: str, events: list[StoredEvent]) -> str | None:
            return "advanced"

    watch = HeadWatch(stored_after, 0, Games(), interval=3600)  # type: ignore[arg-type]
    try:
        watch.look()
    finally:
        watch.close()
    assert asked == [0, PAGE]  # a full page: it looked again from where the page ended
    assert watch.position == PAGE + 1 and watch.advanced == PAGE + 1


def test_a_mark_lasts_until_a_head_that_new_is_remembered(store: Store) -> None:
    service = store.service(read_models=False)
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


def test_marks_and_shared_notes_of_games_the_cache_let_go_of_are_cleared(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_repository, "BEHIND_MAX", 2)
    service = store.service(read_models=False)
    for gid in ("g1", "g2", "g3"):
        service.create_game(TWO_PLAYER, SCOREKEEPER, gid)
    games = service.partitions[0].repository
    assert games.mark_behind("g1", 5) and games.mark_behind("g2", 5)
    games.load("g1")  # loaded while marked: shared
    assert games.shared("g1") and not games.shared("g2")
    cache = service.app.repository.cache
    assert cache is not None
    cache.get("g1", evict=True)  # let go of by the cache (least recently used)
    assert games.mark_behind("g3", 5)
    assert not games.behind("g1") and games.behind("g2") and games.behind("g3")
    assert not games.shared("g1")


def test_a_game_whose_first_action_here_needs_a_load_is_brought_forward_from_then_on(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first action a process gets of a game it has not cached (created, imported or played
    elsewhere) notes the game as shared: the watch brings its head forward from then on, with
    no second read once the game is marked behind (two round trips per worker and game while the
    games spread over the workers after a start)."""
    _postgresql_only(store)
    theirs = store.service(read_models=False, watch_heads=True)
    mine = store.service(read_models=False, watch_heads=True)
    theirs.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    theirs.act("g1", add_rad(), JUDGE)  # version 2, never cached by mine
    games = mine.partitions[0].repository
    watch = mine.partitions[0].head_watch
    assert watch is not None and games.cached("g1") is None
    assert mine.act("g1", add_rad(), JUDGE).version == 3  # loaded: the first action here
    assert games.shared("g1")
    theirs.act("g1", add_rad(), JUDGE)
    theirs.act("g1", add_rad(), JUDGE)  # versions 4 and 5
    _wait(lambda: getattr(games.cached("g1"), "version", 0) == 5, "the watch never brought g1 forward")
    assert not games.behind("g1") and watch.marked == 0
    reads = _count_reads(mine, monkeypatch)
    before = _transactions(mine)
    assert mine.act("g1", add_rad(), JUDGE).version == 6
    assert reads == []  # decided on the head the watch brought forward: nothing read first
    assert _transactions(mine) == before + 1


def test_reading_a_game_this_process_has_not_cached_does_not_note_it_as_shared(store: Store) -> None:
    """A read (a viewer's state, an export) is no sign that the game's actions come here: its
    head is only marked when others move it on, never folded (``catch_up``)."""
    service = store.service(read_models=False)
    other = store.service(read_models=False)
    other.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    games = service.partitions[0].repository
    assert service.head_version("g1") == 1
    assert games.cached("g1") is not None and not games.shared("g1")
