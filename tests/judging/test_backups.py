"""Backups at action boundaries, judge records that survive them, and the head judge at
Competitive REL (issue 14; IPG 1.4; docs/judges.md)."""

from __future__ import annotations

import copy
from typing import Any

from fastapi.testclient import TestClient

from ledger.export_checks import check_export
from tests.api.helpers import TWO_PLAYER, assert_problem, create_game, token, version_of


def _bolt(client: TestClient, game: str, h: dict[str, str]) -> dict[str, Any]:
    r = client.post(
        f"/v1/games/{game}/actions",
        json={"type": "damage", "target": {"player": "P2"}, "amount": 3, "source": "Lightning Bolt"},
        headers=h,
    )
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_backup_into_the_middle_of_an_action_is_refused(client: TestClient, admin_headers: dict[str, str]) -> None:
    judge = token(client, admin_headers, "judge")
    game = create_game(client, admin_headers)
    bolt = _bolt(client, game, admin_headers)
    types = [e["type"] for e in bolt["events"]]
    assert types[:2] == ["DamageDealt", "LifeLost"], types
    first, last = bolt["events"][0]["version"], bolt["events"][-1]["version"]
    head = version_of(client, game, judge)
    problem = assert_problem(
        client.post(f"/v1/games/{game}/undo", json={"to_version": first, "reason": "slider"}, headers=judge),
        422,
        "not_an_action_boundary",
    )
    assert f"to_version {first - 1}" in problem["detail"] and f"or {last}" in problem["detail"]
    assert version_of(client, game, judge) == head  # nothing stored
    # The boundaries are served: every action's last version.
    listed = client.get(f"/v1/games/{game}/boundaries", headers=judge).json()
    assert first - 1 in listed["boundaries"] and last in listed["boundaries"] and first not in listed["boundaries"]
    # A backup to a boundary reverts the whole action.
    done = client.post(f"/v1/games/{game}/undo", json={"to_version": first - 1, "reason": "bolt"}, headers=judge)
    assert done.status_code == 201, done.text
    assert done.json()["state"]["players"]["P2"]["life"] == 20


def test_notes_survive_backups(client: TestClient, admin_headers: dict[str, str]) -> None:
    judge = token(client, admin_headers, "judge")
    game = create_game(client, admin_headers)
    before = version_of(client, game, judge)
    _bolt(client, game, admin_headers)
    note = client.post(f"/v1/games/{game}/actions", json={"type": "note", "text": "judge call: P2"}, headers=judge)
    assert note.status_code == 201, note.text
    note_version = note.json()["version"]
    call = client.post(f"/v1/games/{game}/judge-calls", json={"called_by": "P2", "question": "bolt?"}, headers=judge)
    assert call.status_code == 201, call.text
    _bolt(client, game, admin_headers)
    undone = client.post(f"/v1/games/{game}/undo", json={"to_version": before, "reason": "redo turn"}, headers=judge)
    assert undone.status_code == 201, undone.text
    revert = undone.json()["events"][0]["data"]
    assert note_version not in revert["reverted_versions"]
    state = undone.json()["state"]
    assert state["players"]["P2"]["life"] == 20
    assert [c["call"] for c in state["judging"]["calls"]] == ["call-1"]  # the call survives too
    events = client.get(f"/v1/games/{game}/events?after={note_version - 1}&limit=1", headers=judge).json()["events"]
    assert events[0]["type"] == "NoteAdded" and events[0]["reverted"] is False
    # "Undo the last action" skips judge records: it undoes the revert (a redo), not the call.
    # The record with the kept judge records still imports cleanly.
    export = client.get(f"/v1/games/{game}/export", headers=judge)
    assert export.status_code == 200
    checked = check_export(export.text.splitlines(), snapshot_interval=0)  # the import's audit
    assert checked.final.state.players["P2"].life == 20


def test_a_backup_at_competitive_rel_needs_the_head_judge(client: TestClient, admin_headers: dict[str, str]) -> None:
    body = copy.deepcopy(TWO_PLAYER)
    body["tournament"]["rel"] = "competitive"
    game = create_game(client, admin_headers, body)
    before = version_of(client, game, admin_headers)
    _bolt(client, game, admin_headers)
    judge = token(client, admin_headers, "judge")
    head_judge = token(client, admin_headers, "head_judge")
    assert client.get("/v1/whoami", headers=head_judge).json()["role"] == "head_judge"
    head = version_of(client, game, judge)
    assert_problem(
        client.post(f"/v1/games/{game}/undo", json={"to_version": before, "reason": "x"}, headers=judge),
        403,
        "head_judge_required",
    )
    assert version_of(client, game, judge) == head
    done = client.post(f"/v1/games/{game}/undo", json={"to_version": before, "reason": "x"}, headers=head_judge)
    assert done.status_code == 201, done.text
    # At Regular REL any judge may back up.
    regular = create_game(client, admin_headers)
    v = version_of(client, regular, judge)
    _bolt(client, regular, admin_headers)
    assert (
        client.post(f"/v1/games/{regular}/undo", json={"to_version": v, "reason": "x"}, headers=judge).status_code
        == 201
    )


def test_the_timeline_steps_by_action(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    bolt = _bolt(client, game, admin_headers)
    lines = [
        ln
        for g in client.get(f"/v1/games/{game}/timeline", headers=admin_headers).json()["timeline"]
        for ln in g["lines"]
    ]
    ends = {ln["version"]: ln["ends_action"] for ln in lines}
    first, last = bolt["events"][0]["version"], bolt["events"][-1]["version"]
    assert ends[first] is False and ends[last] is True and ends[first - 1] is True


def test_undo_the_last_action_passes_over_an_acknowledgement_to_the_action_it_answered(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """IPG 1.4: a backup reverses game actions. P2 acknowledging P1's Lightning Bolt is not a
    game action: "undo the last action" backs up the Bolt (and the acknowledgement with it)."""
    judge = token(client, admin_headers, "judge")
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    bolt = _bolt(client, game, p1)
    [report] = bolt["state"]["unacknowledged"]
    acknowledged = client.post(f"/v1/games/{game}/acknowledge", json={"report": report["report"]}, headers=p2)
    assert acknowledged.status_code == 201, acknowledged.text
    undone = client.post(f"/v1/games/{game}/undo", json={"actions": 1, "reason": "wrong target"}, headers=judge)
    assert undone.status_code == 201, undone.text
    reverted = undone.json()["events"][0]["data"]["reverted_versions"]
    assert bolt["events"][0]["version"] in reverted and acknowledged.json()["version"] in reverted
    state = undone.json()["state"]
    assert state["players"]["P2"]["life"] == 20 and state["unacknowledged"] == []
