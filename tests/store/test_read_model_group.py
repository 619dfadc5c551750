"""The read models of a log share one runner and one subscription (``store.read_model_group``):
each record is read and decoded once, each read model gets only what it has not projected yet,
and one that fails stops alone (both stores)."""

from __future__ import annotations

from typing import Any

import pytest
from eventsourcing.persistence import Tracking
from eventsourcing.projection import ApplicationSubscription

from projections import game_summaries, matches
from store.read_model_group import due
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad


def _batch(*ids: int) -> list[tuple[Any, Tracking]]:
    return [(f"record {i}", Tracking("LedgerApplication", i)) for i in ids]


def test_due_leaves_out_what_a_read_model_has_projected() -> None:
    batch = _batch(3, 4, 5, 6, 7)
    assert due(batch, None) == batch  # nothing projected yet: all of it
    assert due(batch, 2) == batch  # behind the whole batch
    assert [t.notification_id for _, t in due(batch, 5)] == [6, 7]
    assert due(batch, 7) == []  # ahead of it: nothing
    assert due([], 4) == []


def test_one_subscription_reads_each_record_once_for_every_read_model(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[int] = []
    real_next = ApplicationSubscription.__next__

    def counted(self: ApplicationSubscription[Any]) -> Any:
        item = real_next(self)
        handed.append(item[1].notification_id)
        return item

    monkeypatch.setattr(ApplicationSubscription, "__next__", counted)
    service = store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    for _ in range(3):
        service.act("g1", add_rad(), JUDGE)
    service.wait_for_read_model()
    stored = service.app.recorder.max_notification_id()
    assert stored is not None and stored >= 4
    # One subscription for the game list, the matches and the outbox: each record once (three
    # runners read and decoded each three times).
    assert sorted(handed) == list(range(1, stored + 1))
    assert [g.game_id for g in service.list_games()] == ["g1"]
    [table] = service.round("GP-Test", "3")["tables"]
    assert [g["game_id"] for g in table["games"]] == ["g1"]


def test_a_read_model_that_fails_stops_alone(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Any, batch: Any) -> None:
        raise RuntimeError("the matches view is broken")

    monkeypatch.setattr(matches.MatchProjection, "process_batch", broken)
    service = store.service()
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    with pytest.raises(RuntimeError, match="the matches view is broken"):
        service.matches.wait(timeout=10)
    assert service.matches._follower.runner_state() == "stopped: RuntimeError: the matches view is broken"
    # The game list and the outbox still follow the log.
    service.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g2")
    service.game_list.wait()
    service.webhooks.wait()
    assert sorted(g.game_id for g in service.list_games()) == ["g1", "g2"]
    assert service.game_list.runner_state() == "running"


def test_a_read_model_behind_the_others_catches_up_alone(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The matches view is set back to an early position, with its documents gone (as a read
    model rebuilt, or added later, starts behind): the shared subscription starts from the
    lowest position, and the game list is handed nothing it had projected."""
    first = store.service()
    untabled = {k: v for k, v in TWO_PLAYER.items() if k != "tournament"}
    first.create_game(untabled, SCOREKEEPER, "g0")  # no match: the matches view has nothing of it
    first.wait_for_read_model()
    early = first.app.recorder.max_notification_id()
    first.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g1")
    first.wait_for_read_model()
    listed_up_to = first.app.recorder.max_notification_id()
    first.close()
    tracking = "tracking" if store.kind == "sqlite" else store.table("matches_tracking")
    name = f"{first.app.name}#match_docs"  # the matches view's own tracking (store.documents)
    store.execute(f"DELETE FROM {tracking} WHERE application_name = ?", name)
    store.execute(f"INSERT INTO {tracking} (application_name, notification_id) VALUES (?, ?)", name, early)
    store.execute(f"DELETE FROM {store.table('match_docs')}")

    handed_to_list: list[int] = []
    real = game_summaries.GameSummaryProjection.process_batch

    def spied(self: Any, batch: Any) -> None:
        handed_to_list.extend(t.notification_id for _, t in batch)
        real(self, batch)

    monkeypatch.setattr(game_summaries.GameSummaryProjection, "process_batch", spied)
    second = store.service(create_tables=False)
    second.create_game(dict(TWO_PLAYER), SCOREKEEPER, "g2")
    second.wait_for_read_model()
    [table] = second.matches.round("GP-Test", "3")["tables"]
    assert [g["game_id"] for g in table["games"]] == ["g1", "g2"]  # g1 projected again
    assert listed_up_to is not None and handed_to_list and min(handed_to_list) > listed_up_to
    assert sorted(g.game_id for g in second.list_games()) == ["g0", "g1", "g2"]
