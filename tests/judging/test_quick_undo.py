"""A player's quick undo of its own last report (issue 30, contract item 6; docs/judges.md):
through the ledger, timed by its clock, appended (never deleting) with the player as the actor,
refused with a stable 403 code otherwise, and re-imported as written. Both stores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.commands import judging as j
from domain.errors import Forbidden, InvalidExport
from domain.permissions import Grant
from ledger.service import LedgerService, LedgerSettings
from store.results import Actor
from tests.store.conftest import SCOREKEEPER, TWO_PLAYER, Store
from tests.store.forging import rehash

ALICE = Grant("Alice's link", "player", "g1", "P1")
BOB = Grant("Bob's link", "player", "g1", "P2")
JUDGE = Actor("Jane Judge", "judge")
DAMAGE = {"type": "damage", "target": {"player": "P2"}, "amount": 3, "source": "Lightning Bolt"}


class Clock:
    """The ledger's time source, moved on by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ledger(store: Store, clock: Clock) -> Iterator[LedgerService]:
    service = LedgerService(store.url, LedgerSettings(snapshot_interval=5), clock=clock)
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    yield service
    service.close()


def _refused(ledger: LedgerService, grant: Grant, **undo: Any) -> str:
    head = ledger.head_version("g1")
    with pytest.raises(Forbidden) as refused:
        ledger.undo("g1", reason=undo.pop("reason", "oops"), actor=grant, **undo)
    assert ledger.head_version("g1") == head  # nothing stored
    return str(refused.value.code)


def test_ones_own_report_is_taken_back_within_30_seconds(ledger: LedgerService, clock: Clock, store: Store) -> None:
    done = ledger.act("g1", DAMAGE, ALICE)
    assert done.state.players["P2"].life == 17 and done.state.reports
    clock.wait(29)
    undone = ledger.undo("g1", actions=1, reason="tapped 3 for 2", actor=ALICE, expected_version=done.version)
    [revert] = undone.events
    assert revert.type == "ActionsReverted" and revert.version == done.version + 1  # appended
    assert (revert.actor.name, revert.actor.role) == ("Alice's link", "player")
    assert undone.state.players["P2"].life == 20 and undone.state.reports == ()
    events = ledger.events("g1")
    assert [e.version for e in events] == list(range(1, revert.version + 1))  # nothing deleted
    assert all(e.reverted for e in events if e.action_id == done.action_id)
    # The record re-imports: the import checks the quick undo as the live server decided it.
    lines = list(ledger.export("g1"))
    assert store.sibling().service().import_game(lines, JUDGE).version == revert.version


def test_after_30_seconds_it_is_a_judges_backup(ledger: LedgerService, clock: Clock) -> None:
    ledger.act("g1", DAMAGE, ALICE)
    clock.wait(31)
    assert _refused(ledger, ALICE, actions=1) == "quick_undo_expired"
    assert ledger.undo("g1", actions=1, reason="misreported", actor=JUDGE).events[0].type == "ActionsReverted"


def test_someone_elses_action_is_refused(ledger: LedgerService, clock: Clock) -> None:
    ledger.act("g1", DAMAGE, ALICE)
    ledger.act("g1", {"type": "gain_life", "player": "P2", "amount": 1}, BOB)
    assert _refused(ledger, ALICE, actions=1) == "not_your_action"


def test_an_action_answered_since_is_refused(ledger: LedgerService, clock: Clock) -> None:
    done = ledger.act("g1", DAMAGE, ALICE)
    ledger.act("g1", j.Acknowledge(done.state.reports[0]["report"], "P2", False), BOB)
    assert _refused(ledger, ALICE, actions=1) == "not_the_last_action"


def test_a_player_undoes_only_its_last_action(ledger: LedgerService, clock: Clock) -> None:
    ledger.act("g1", {"type": "gain_life", "player": "P1", "amount": 1}, ALICE)
    ledger.act("g1", DAMAGE, ALICE)
    assert _refused(ledger, ALICE, to_version=1) == "quick_undo_last_action_only"
    assert _refused(ledger, ALICE, actions=2) == "quick_undo_last_action_only"


def _quick_undo_export(store: Store, body: dict[str, Any] = TWO_PLAYER) -> list[str]:
    clock = Clock()
    service = LedgerService(store.url, LedgerSettings(snapshot_interval=5), clock=clock)
    try:
        service.create_game(body, SCOREKEEPER, "g1")
        service.act("g1", DAMAGE, ALICE)
        clock.wait(10)
        service.undo("g1", actions=1, reason="quick undo", actor=ALICE)
        return list(service.export("g1"))
    finally:
        service.close()


def _forged(lines: list[str], change: Any) -> list[str]:
    event = json.loads(lines[-1])
    change(event)
    return rehash([*lines[:-1], json.dumps(event)])


def test_an_import_refuses_a_players_revert_the_live_server_never_allows(store: Store) -> None:
    lines = _quick_undo_export(store)
    assert json.loads(lines[-1])["actor"] == {"name": "Alice's link", "role": "player"}

    def later(event: dict[str, Any]) -> None:  # 40 s after the action: past the window
        event["recorded_at"] = event["recorded_at"].replace("12:00:10", "12:00:40")

    def by_bob(event: dict[str, Any]) -> None:  # another token's undo of Alice's action
        event["actor"] = {"name": "Bob's link", "role": "player"}

    for change, words in ((later, "seconds ago"), (by_bob, "not by this player token")):
        with pytest.raises(InvalidExport) as refused:
            store.sibling().service().import_game(_forged(lines, change), JUDGE)
        assert "quick undo of its own last action" in refused.value.message and words in refused.value.message


def test_at_competitive_rel_a_players_quick_undo_is_on_the_record_and_reimports(store: Store) -> None:
    """Not a backup (the head judge's at Competitive REL) but a correction of the record."""
    body = {**TWO_PLAYER, "tournament": {**TWO_PLAYER["tournament"], "rel": "competitive"}}
    lines = _quick_undo_export(store, body)
    assert json.loads(lines[-1])["type"] == "ActionsReverted"
    assert store.sibling().service().import_game(lines, JUDGE).version == len(lines) - 1
