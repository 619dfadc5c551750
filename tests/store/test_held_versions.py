"""The game list holds a row's new version and time for up to ``HOLD_MOST`` seconds
(``projections.game_summaries``): one write a second instead of one per pull, while a game's
creation and its end are written at once, and whoever waits for the list sees every version."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ledger.service import LedgerService
from projections import game_summaries
from projections.game_summary_tables import PostgresGameSummaryView, SQLiteGameSummaryView
from store import read_model_group
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def _stored_version(store: Store, game_id: str) -> int | None:
    """The version the list's table holds, read past the service (what another process reads)."""
    rows = store.execute("SELECT version FROM {summaries} WHERE game_id = ?", game_id)
    return int(rows[0][0]) if rows else None


def _count_writes(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """Each ``record_changes`` call of the list's views, as the versions it writes."""
    writes: list[list[int]] = []
    for view in (SQLiteGameSummaryView, PostgresGameSummaryView):
        real = view.record_changes

        def counted(self: Any, changes: Any, tracking: Any, _real: Any = real) -> None:
            writes.append([c.version for c in changes])
            _real(self, changes, tracking)

        monkeypatch.setattr(view, "record_changes", counted)
    return writes


def _projected(service: LedgerService) -> bool:
    """Whether the list's runner has projected (not necessarily written) the whole log."""
    head = service.app.recorder.max_notification_id()
    return service.partitions.home.read_models.position(game_summaries.GameSummaryProjection.name) == head


def _until(condition: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_versions_are_held_and_a_wait_writes_them(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_summaries, "HOLD_MOST", 60.0)  # nothing written by the clock here
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 60.0)
    writes = _count_writes(monkeypatch)
    service = store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    service.wait_for_read_model()
    assert writes == [[1]], "a game's creation is written at once"
    for _ in range(4):
        service.act("g1", add_rad(), JUDGE)
        time.sleep(0.15)  # a pull each, as at a quiet server's pace
    _until(lambda: _projected(service), "the list's runner did not project the actions")
    assert writes == [[1]], "a change of only a version and time was written at once"
    assert _stored_version(store, "g1") == 1
    service.wait_for_read_model()  # who waits sees every version: the held ones are written
    assert writes == [[1], [5]], "the held versions are written once, the game's latest"
    assert _stored_version(store, "g1") == 5
    assert [g.version for g in service.list_games()] == [5]


def test_a_games_end_is_written_at_once_after_what_was_held(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_summaries, "HOLD_MOST", 60.0)
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 60.0)
    writes = _count_writes(monkeypatch)
    service = store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g2")
    service.wait_for_read_model()
    writes.clear()
    service.act("g2", add_rad(), JUDGE)  # held
    _until(lambda: _projected(service), "the list's runner did not project the action")
    assert _stored_version(store, "g2") == 1
    service.act("g1", {"type": "concede", "player": "P2"}, SCOREKEEPER)  # ends g1: written at once
    _until(lambda: _stored_version(store, "g2") == 2, "the held version of g2 was not written with g1's end")
    finished = store.execute("SELECT status, winners FROM {summaries} WHERE game_id = ?", "g1")
    assert finished == [("finished", '["P1"]')]
    assert sum(len(w) for w in writes) >= 2 and writes[-1][-1] >= 2
    assert [g.game_id for g in service.list_games(status="finished")] == ["g1"]


def test_under_steady_actions_a_held_version_is_written_within_hold_most(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game_summaries, "HOLD_MOST", 0.4)
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 60.0)  # the pause's flush never comes
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH_MOST", 60.0)
    service = sqlite_store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    service.wait_for_read_model()
    began = time.monotonic()
    while time.monotonic() - began < 3.0:  # an action every 0.1 s: the batches never pause
        service.act("g1", add_rad(), JUDGE)
        time.sleep(0.1)
        stored = _stored_version(sqlite_store, "g1")
        if stored is not None and stored > 1:
            assert time.monotonic() - began < 2.0, "held for more than HOLD_MOST and a poll"
            return
    pytest.fail("no held version written in 3 s of steady actions")


def test_held_versions_are_written_once_the_actions_pause(sqlite_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_summaries, "HOLD_MOST", 60.0)
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 0.2)
    service = sqlite_store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    service.wait_for_read_model()
    service.act("g1", add_rad(), JUDGE)
    # Nobody waits: the runner's flush after the pause writes the version and its position.
    _until(lambda: _stored_version(sqlite_store, "g1") == 2, "the held version was never written")
    head = service.app.recorder.max_notification_id()
    rows = sqlite_store.execute("SELECT max(notification_id) FROM tracking WHERE application_name = 'Ledger'")
    assert rows[0][0] == head


def test_a_runner_that_stops_writes_what_it_held(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_summaries, "HOLD_MOST", 60.0)
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 60.0)
    service = store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    for _ in range(3):
        service.act("g1", add_rad(), JUDGE)
    _until(lambda: _projected(service), "the list's runner did not project the actions")
    service.close()
    assert _stored_version(store, "g1") == 4
    again = store.service()
    again.wait_for_read_model()
    assert [(g.game_id, g.version) for g in again.list_games()] == [("g1", 4)]


def test_a_lone_action_is_written_by_the_runner_when_its_hold_is_due(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No batch follows and no pause is long enough for the positions' flush: the runner itself
    writes the held version once ``HOLD_MOST`` has passed (``held_until``)."""
    monkeypatch.setattr(game_summaries, "HOLD_MOST", 0.3)
    monkeypatch.setattr(read_model_group, "QUIET_FLUSH", 60.0)
    service = sqlite_store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    _until(lambda: _stored_version(sqlite_store, "g1") == 1, "the creation was not written")
    acted = time.monotonic()
    service.act("g1", add_rad(), JUDGE)
    _until(lambda: _stored_version(sqlite_store, "g1") == 2, "the held version was never written", timeout=5.0)
    assert time.monotonic() - acted < 2.0, "written long after HOLD_MOST"
