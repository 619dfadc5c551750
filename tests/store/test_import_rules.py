"""Import replays the rules, not just the hash chain (docs/audit.md, "Import rules").

Each forgery below edits or appends events of a real game's export and then recomputes every
hash, as a careful forger would: the chain verifies, so only the rules checks
(``domain.audit``) can refuse the file. Every refusal names the first bad line, and
``verify_export`` reports that line's version. The other way round, real games (every rules
scenario, played through the store) must import without a false alarm.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import uuid4

import pytest

from domain.errors import NotFound
from ledger.game_files import InvalidExport
from ledger.service import LedgerService
from tests.scenarios.support import load_scenarios, run_scenario
from tests.store.conftest import JUDGE, SCOREKEEPER, TWO_PLAYER, Store, add_rad
from tests.store.forging import rehash
from tests.store.test_scenarios_store import StoreDriver

SCENARIOS = load_scenarios()


# -- forging ----------------------------------------------------------------------------------
def edit(lines: list[str], version: int, change: Callable[[dict[str, Any]], None]) -> list[str]:
    """Change event ``version`` (line ``version + 1``) and rehash the file."""
    event = json.loads(lines[version])
    change(event)
    return rehash([*lines[:version], json.dumps(event), *lines[version + 1 :]])


def append(
    lines: list[str], *events: tuple[str, dict[str, Any], str | None], action_id: str | None = None
) -> list[str]:
    """Add events as one new action (or as part of ``action_id``'s) and rehash the file."""
    last = json.loads(lines[-1])
    action = action_id or str(uuid4())
    out = list(lines)
    for offset, (type_, data, rule) in enumerate(events, start=1):
        forged = {
            "version": last["version"] + offset,
            "type": type_,
            "data": data,
            "rule": rule,
            "action_id": action,
            "actor": {"name": "Forger", "role": "judge"},
            "recorded_at": last["recorded_at"],
            "prev_hash": "",
            "hash": "",
            "reverted": False,
        }
        out.append(json.dumps(forged))
    return rehash(out)


def refused(store: Store, lines: list[str]) -> InvalidExport:
    """Import must refuse the file and store nothing; verify_export agrees on the version."""
    target = store.sibling().service()
    with pytest.raises(InvalidExport) as caught:
        target.import_game(lines, JUDGE)
    err = caught.value
    assert err.code == "invalid_import" and err.version is not None
    assert err.message.startswith(f"line {err.line}: event {err.version}: ")
    assert err.line == err.version + 1  # the header is line 1
    report = target.verify_export(lines)
    assert (report.ok, report.first_bad_version) == (False, err.version)
    with pytest.raises(NotFound):  # a refused file stores nothing
        target.head_version("g1")
    return err


def real_game(store: Store) -> tuple[LedgerService, list[str]]:
    """v1 GameStarted, v2-3 precombat main and P1's rad trigger, v4-7 it resolves (P1 mills Bolt,
    Forest, Bears: loses 2 life, 2 rad counters), v8 P2 gets a rad counter, v9 the hydra taps."""
    service = store.service()
    service.create_game(TWO_PLAYER, SCOREKEEPER, "g1")
    service.act("g1", {"type": "advance", "to": "precombat_main"}, JUDGE)
    service.act("g1", {"type": "resolve"}, JUDGE)
    service.act("g1", add_rad(), JUDGE)
    service.act("g1", {"type": "tap", "permanent": "hydra"}, JUDGE)
    lines = list(service.export("g1"))
    assert [json.loads(line)["type"] for line in lines[4:]] == [
        "CardsMilled",
        "LifeLost",
        "CountersRemoved",
        "StackObjectResolved",
        "CountersAdded",
        "PermanentTapped",
    ]
    # The untouched file, and the same file with its hashes recomputed, import cleanly.
    assert [json.loads(line) for line in rehash(lines)] == [json.loads(line) for line in lines]
    assert store.sibling().service().import_game(lines, JUDGE).version == 9
    return service, lines


# -- the forgeries of the review --------------------------------------------------------------
def test_a_poison_counters_without_the_loss_they_cause(sqlite_store: Store) -> None:
    """(a) 12 poison counters for P2 and no PlayerLost: the action ends with a state-based action
    undone (CR 704.5c), and the game goes on as if nothing happened."""
    _, lines = real_game(sqlite_store)
    forged = append(
        lines, ("CountersAdded", {"target": {"player": "P2"}, "kind": "poison", "amount": 12, "cause": "manual"}, None)
    )
    err = refused(sqlite_store, forged)
    assert err.line == 11 and "state-based actions" in err.message and "CR 704.5c" in err.message


def test_a_loss_hidden_behind_a_note_in_the_same_action(sqlite_store: Store) -> None:
    """A note only exempts an action made of notes: one slipped into the forged action doesn't."""
    _, lines = real_game(sqlite_store)
    forged = append(
        lines,
        ("CountersAdded", {"target": {"player": "P2"}, "kind": "poison", "amount": 12, "cause": "manual"}, None),
        ("NoteAdded", {"text": "nothing to see"}, None),
    )
    assert refused(sqlite_store, forged).line == 12


def test_b_a_life_total_the_fold_does_not_give(sqlite_store: Store) -> None:
    """(b) LifeLost says life_after 100 while the fold says 19 (CR 119.3)."""
    _, lines = real_game(sqlite_store)
    forged = append(lines, ("LifeLost", {"player": "P2", "amount": 1, "cause": "manual", "life_after": 100}, None))
    err = refused(sqlite_store, forged)
    assert err.line == 11 and "life_after is 100" in err.message and "to 19" in err.message

    def richer(event: dict[str, Any]) -> None:
        event["data"]["life_after"] = 20  # the radiation loss of v5 rewritten as harmless

    assert refused(sqlite_store, edit(lines, 5, richer)).line == 6


def test_c_milling_a_card_that_is_not_the_known_top_of_the_library(sqlite_store: Store) -> None:
    """(c) After the rad trigger, P1's known top card is Island: a Black Lotus can't be milled
    from there (CR 701.17a). Nor can the rad mill itself be rewritten."""
    _, lines = real_game(sqlite_store)
    lotus = {"name": "Black Lotus", "type_line": "Artifact", "mana_cost": "{0}"}
    forged = append(
        lines,
        (
            "CardsMilled",
            {"player": "P1", "cards": [lotus], "requested": 1, "nonland_count": 1, "cause": "manual"},
            None,
        ),
    )
    err = refused(sqlite_store, forged)
    assert err.line == 11 and "'Island', not 'Black Lotus'" in err.message

    def fewer(event: dict[str, Any]) -> None:  # a nonland card dropped from the rad mill
        event["data"]["cards"] = event["data"]["cards"][1:]
        event["data"]["nonland_count"] = 1

    err = refused(sqlite_store, edit(lines, 4, fewer))
    assert err.line == 5 and "CR 701.17" in err.message


def test_d_a_game_ended_with_nobody_lost(sqlite_store: Store) -> None:
    """(d) GameEnded with P2 the winner while both players are in the game (CR 104.2a)."""
    _, lines = real_game(sqlite_store)
    forged = append(lines, ("GameEnded", {"winners": ["P2"], "draw": False}, "CR 104.2a"))
    err = refused(sqlite_store, forged)
    assert err.line == 11 and "CR 104.2a" in err.message


# -- more forgeries ---------------------------------------------------------------------------
def test_removing_more_counters_than_are_there(sqlite_store: Store) -> None:
    """P1 has 3 rad counters before v6: v6 can't remove 5 (CR 118.3, 609.3)."""
    _, lines = real_game(sqlite_store)

    def five(event: dict[str, Any]) -> None:
        event["data"]["amount"] = 5

    err = refused(sqlite_store, edit(lines, 6, five))
    assert err.line == 7 and "which has 3" in err.message


def test_tapping_a_tapped_permanent(sqlite_store: Store) -> None:
    _, lines = real_game(sqlite_store)
    forged = append(lines, ("PermanentTapped", {"permanent": "hydra", "cause": "manual"}, "CR 701.26a"))
    err = refused(sqlite_store, forged)
    assert err.line == 11 and "already tapped" in err.message


def test_resolving_from_an_empty_stack_and_a_loss_by_no_rule(sqlite_store: Store) -> None:
    _, lines = real_game(sqlite_store)
    forged = append(lines, ("StackObjectResolved", {"id": "s1", "description": "again"}, "CR 608.2"))
    assert "CR 608.1" in refused(sqlite_store, forged).message
    loss = {"player": "P2", "rule": "CR 704.5a", "reason": "CR 704.5a: life total 0 or less"}
    forged = append(lines, ("PlayerLost", loss, "CR 704.5a"), ("GameEnded", {"winners": ["P1"], "draw": False}, None))
    err = refused(sqlite_store, forged)
    assert err.line == 11 and "doesn't apply" in err.message


def test_events_after_the_end_and_a_reused_action_id(sqlite_store: Store) -> None:
    service, _ = real_game(sqlite_store)
    service.act("g1", {"type": "concede", "player": "P2"}, JUDGE)  # v10 PlayerLost, v11 GameEnded
    service.act("g1", {"type": "note", "text": "P2 conceded"}, JUDGE)  # v12: notes may follow
    lines = list(service.export("g1"))
    assert sqlite_store.sibling().service().import_game(lines, JUDGE).state.status == "finished"
    forged = append(lines, ("LifeLost", {"player": "P1", "amount": 1, "cause": "manual", "life_after": 17}, None))
    err = refused(sqlite_store, forged)
    assert err.line == 14 and "after the game ended" in err.message
    # An action's events are consecutive: an event can't join an earlier action.
    earlier = json.loads(lines[8])["action_id"]  # v8's action
    forged = append(lines, ("NoteAdded", {"text": "late"}, None), action_id=earlier)
    assert "earlier action" in refused(sqlite_store, forged).message


def test_an_undo_is_an_action_of_its_own_and_may_restore_any_state(sqlite_store: Store) -> None:
    """An undo restores the state at the end of an action (the server refuses a version inside
    one: not_an_action_boundary), and the next action is checked from there. The audit checks
    the restored state against the history wherever it is, so files written before that rule
    (restoring a state inside an action) still import. Its action id is its own."""
    service, _ = real_game(sqlite_store)
    service.undo("g1", to_version=3, reason="back to the trigger", actor=JUDGE)  # v10
    service.act("g1", {"type": "note", "text": "judge call"}, JUDGE)  # v11
    service.act("g1", add_rad(), JUDGE)  # v12
    lines = list(service.export("g1"))
    imported = sqlite_store.sibling().service().import_game(lines, JUDGE)
    assert imported.version == 12

    def shared(event: dict[str, Any]) -> None:
        event["action_id"] = json.loads(lines[11])["action_id"]  # the undo joins the note's action

    err = refused(sqlite_store, edit(lines, 10, shared))
    assert err.line == 12 and "ActionsReverted is an action of its own" in err.message


# -- no false alarms --------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["id"] for s in SCENARIOS])
def test_every_scenario_played_through_the_store_imports_cleanly(scenario: dict[str, Any], sqlite_store: Store) -> None:
    """A real game (each rules scenario: triggers, SBAs, undos, team variants, the end of the
    game) exported and imported elsewhere passes every rules check and reproduces every state."""
    if scenario.get("skip"):
        pytest.skip(scenario["skip"])
    service = sqlite_store.service(snapshot_interval=4)
    run_scenario(StoreDriver(service), scenario)
    lines = list(service.export("g1"))
    other = sqlite_store.sibling().service(snapshot_interval=3)
    report = other.verify_export(lines)
    assert (report.ok, report.first_bad_version) == (True, None)
    imported = other.import_game(lines, JUDGE)
    head = service.head_version("g1")
    assert imported.version == head
    for version in range(1, head + 1):
        assert other.state_at("g1", version) == service.state_at("g1", version)
    assert other.verify("g1").ok


def test_a_game_created_with_custom_counter_kinds_imports_cleanly(sqlite_store: Store) -> None:
    """CR 122.1: a kind recorded with ``custom_kind`` at creation is the record's; the import's
    rules replay of ``GameStarted`` reads it as recorded instead of refusing it."""
    service = sqlite_store.service()
    body = {**TWO_PLAYER, "custom_kind": True}
    body["players"] = [{**body["players"][0], "counters": {"rad": 1, "Doom Clock": 2}}, *body["players"][1:]]
    service.create_game(body, SCOREKEEPER, "g1")
    lines = list(service.export("g1"))
    assert sqlite_store.sibling().service().import_game(lines, JUDGE).version == 1
