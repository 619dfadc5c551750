"""Tamper evidence: edits made behind the service's back, in the database and in export files."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.errors import IllegalAction
from ledger.game_files import InvalidExport
from ledger.service import LedgerService
from store.hash_chain import Fact, seal
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad
from tests.store.forging import rehash


def seven_events(store: Store) -> LedgerService:
    """Game g1 at version 7, on a service that stays open (returned, for a test to go on with)."""
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    service.act("g1", {"type": "advance", "to": "precombat_main"}, JUDGE)
    service.act("g1", {"type": "resolve"}, JUDGE)  # v6 is CountersRemoved {amount: 2}
    assert service.verify("g1").ok
    service.wait_for_read_model()  # so its runner never meets the edits below
    return service


def test_an_edited_stored_event_is_named_by_verify(store: Store) -> None:
    seven_events(store)
    raw = store.read_event("g1", 6)
    assert b'"amount":2' in raw
    store.write_event("g1", 6, raw.replace(b'"amount":2', b'"amount":1'))
    report = store.service().verify("g1")
    assert (report.ok, report.events, report.first_bad_version) == (False, 7, 6)


def test_a_rehashed_edit_breaks_the_next_link(store: Store) -> None:
    """An editor who also recomputes the edited event's own hash still breaks the chain: the
    next event's ``prev_hash`` names the old hash (docs/audit.md)."""
    seven_events(store)
    stored = json.loads(store.read_event("g1", 6))
    stored["data"]["amount"] = 1
    (resealed,) = seal(
        "g1",
        [Fact(stored["type"], stored["data"], stored["rule"])],
        after=5,
        prev_hash=stored["prev_hash"],
        action_id=stored["action_id"],
        actor=stored["actor"],
        recorded_at=stored["recorded_at"],
    )
    stored["hash"] = resealed.hash
    store.write_event("g1", 6, json.dumps(stored).encode())
    assert store.service().verify("g1").first_bad_version == 7


def test_an_unreadable_or_missing_record_is_named_not_raised(store: Store) -> None:
    seven_events(store)
    store.write_event("g1", 5, b"\x00not json at all")
    service = store.service()
    report = service.verify("g1")
    assert (report.ok, report.first_bad_version) == (False, 5)
    with pytest.raises(IllegalAction) as damaged:
        service.state_at("g1", 5)
    assert damaged.value.code == "damaged_record"

    store.execute("DELETE FROM {events} WHERE originator_id = ? AND originator_version = ?", "g1", 3)
    report = service.verify("g1")
    assert (report.ok, report.events, report.first_bad_version) == (False, 6, 3)


def test_an_edited_topic_is_a_bad_record(store: Store) -> None:
    seven_events(store)
    store.execute(
        "UPDATE {events} SET topic = ? WHERE originator_id = ? AND originator_version = ?", "no.such:Class", "g1", 4
    )
    assert store.service().verify("g1").first_bad_version == 4


def _edit(lines: list[str], version: int, change: Any) -> list[str]:
    event = json.loads(lines[version])
    change(event)
    return [*lines[:version], json.dumps(event), *lines[version + 1 :]]


def test_a_tampered_export_is_refused_naming_the_line(store: Store) -> None:
    service = seven_events(store)  # the same service: another would hold ~22 PostgreSQL connections more
    service.act("g1", add_rad(), JUDGE)
    service.undo("g1", to_version=3, reason="backup", actor=JUDGE)  # v9
    lines = list(service.export("g1"))
    target = store.sibling().service()

    def amount(e: dict[str, Any]) -> None:
        e["data"]["amount"] = 1

    edited = _edit(lines, 6, amount)  # event 6 is line 7
    with pytest.raises(InvalidExport) as refused:
        target.import_game(edited, JUDGE)
    assert refused.value.code == "invalid_import" and refused.value.line == 7
    assert refused.value.message.startswith("line 7: event 6: hash")
    report = target.verify_export(edited)
    assert (report.ok, report.first_bad_version) == (False, 6)

    # A forger who rehashes the whole file still can't get past the rules replay:
    def rich(e: dict[str, Any]) -> None:
        e["data"]["restored_state"]["players"][0]["life"] = 99

    forged = rehash(_edit(lines, 9, rich))
    with pytest.raises(InvalidExport) as replay:
        target.import_game(forged, JUDGE)
    assert replay.value.line == 10 and "restored_state" in replay.value.message

    def ghost(e: dict[str, Any]) -> None:
        e["type"] = "PermanentTapped"
        e["data"]["permanent"] = "ghost"

    forged = rehash(_edit(lines, 8, ghost))
    with pytest.raises(InvalidExport) as fold:
        target.import_game(forged, JUDGE)
    assert fold.value.line == 9

    def stronger_start(e: dict[str, Any]) -> None:
        e["data"]["players"][0]["life"] = "twenty"

    forged = rehash(_edit(lines, 1, stronger_start))
    with pytest.raises(InvalidExport) as setup:
        target.import_game(forged, JUDGE)
    assert setup.value.line == 2

    truncated = lines[:-1]
    with pytest.raises(InvalidExport) as short:
        target.import_game(truncated, JUDGE)
    assert short.value.line == 1 and "events" in short.value.message
    with pytest.raises(InvalidExport) as not_json:
        target.import_game([lines[0], "{oops", *lines[2:]], JUDGE)
    assert not_json.value.line == 2
    # Nothing of any refused file was stored; the untouched file imports.
    assert target.import_game(lines, JUDGE).version == 9
    assert target.verify("g1").ok
