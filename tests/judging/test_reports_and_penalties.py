"""Reports that affect an opponent need their acknowledgement; penalties end what they should
(issue 14; docs/judges.md)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ledger.export_checks import check_export
from tests.api.helpers import assert_problem, create_game, token, version_of


def _players(client: TestClient, admin: dict[str, str], game: str) -> tuple[dict[str, str], dict[str, str]]:
    return (
        token(client, admin, "player", game_id=game, player_id="P1"),
        token(client, admin, "player", game_id=game, player_id="P2"),
    )


def test_an_unacknowledged_report_is_shown_then_acknowledged(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    p1, p2 = _players(client, admin_headers, game)
    poison = {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 3}
    r = client.post(f"/v1/games/{game}/actions", json=poison, headers=p1)
    assert r.status_code == 201, r.text
    assert r.json()["events"][-1]["type"] == "ReportAwaitingAcknowledgement"
    state = r.json()["state"]
    assert state["players"]["P2"]["counters"] == {"poison": 3}  # stored at once
    [report] = state["unacknowledged"]
    assert report["players"] == ["P2"] and report["reporter"] == "P1" and "poison" in report["summary"]
    # Its own changes need nobody's acknowledgement; a scorekeeper's or judge's reports neither.
    own = {"type": "add_counters", "target": {"player": "P1"}, "kind": "poison", "amount": 1}
    assert client.post(f"/v1/games/{game}/actions", json=own, headers=p1).json()["state"]["unacknowledged"] == [report]
    # Only the affected player (or a judge) acknowledges it.
    head = version_of(client, game, admin_headers)
    assert_problem(
        client.post(f"/v1/games/{game}/acknowledge", json={"report": report["report"]}, headers=p1),
        422,
        "not_your_report",
    )
    assert_problem(
        client.post(f"/v1/games/{game}/acknowledge", json={"report": "report-99"}, headers=p2), 404, "unknown_report"
    )
    assert version_of(client, game, admin_headers) == head
    done = client.post(f"/v1/games/{game}/acknowledge", json={"report": report["report"]}, headers=p2)
    assert done.status_code == 201, done.text
    assert done.json()["state"]["unacknowledged"] == []
    assert done.json()["events"][0]["sentence"] == f"Report {report['report']} acknowledged by P2"


def test_a_disputed_report_opens_a_judge_call(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    p1, p2 = _players(client, admin_headers, game)
    damage = {"type": "damage", "target": {"player": "P2"}, "amount": 20, "source": "my imagination"}
    report = client.post(f"/v1/games/{game}/actions", json=damage, headers=p1).json()["state"]["unacknowledged"][0]
    disputed = client.post(
        f"/v1/games/{game}/dispute", json={"report": report["report"], "reason": "no such card"}, headers=p2
    )
    assert disputed.status_code == 201, disputed.text
    assert [e["type"] for e in disputed.json()["events"]] == ["ReportDisputed", "JudgeCallOpened"]
    state = disputed.json()["state"]
    assert state["judging"]["open_calls"] == ["call-1"]
    assert state["unacknowledged"][0]["disputed"] == "call-1"
    judge = token(client, admin_headers, "judge")
    ruled = client.post(f"/v1/games/{game}/judge-calls/call-1/ruling", json={"ruling": "back up"}, headers=judge)
    assert ruled.status_code == 201 and ruled.json()["state"]["judging"]["open_calls"] == []


def test_a_game_loss_ends_the_game_with_reason_penalty(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    judge = token(client, admin_headers, "judge")
    body = {"player": "P1", "section": "2.3", "penalty": "Game Loss", "reason": "drew an extra card"}
    r = client.post(f"/v1/games/{game}/penalties", json=body, headers=judge)
    assert r.status_code == 201, r.text
    events = r.json()["events"]
    assert [e["type"] for e in events] == ["PenaltyGiven", "PlayerLost", "GameEnded"]
    assert events[0]["data"]["infraction"] == "Hidden Card Error"
    assert events[1]["data"]["reason"] == "penalty"
    state = r.json()["state"]
    assert state["status"] == "finished" and state["result"]["winners"] == ["P2"]
    assert state["players"]["P1"]["loss_reason"] != "CR 104.3a"  # not a concede
    # A backup can't undo the game loss.
    assert_problem(
        client.post(f"/v1/games/{game}/undo", json={"to_version": 1, "reason": "x"}, headers=judge),
        422,
        "penalty_stands",
    )
    # A Warning ends nothing; an unknown section is refused.
    other = create_game(client, admin_headers)
    warn = {"player": "P2", "section": "2.1", "penalty": "Warning"}
    assert (
        client.post(f"/v1/games/{other}/penalties", json=warn, headers=judge).json()["state"]["status"] == "in_progress"
    )
    assert_problem(
        client.post(f"/v1/games/{other}/penalties", json={**warn, "section": "9.9"}, headers=judge),
        400,
        "unknown_infraction",
    )
    assert_problem(
        client.post(f"/v1/games/{other}/penalties", json=warn, headers=token(client, admin_headers, "scorekeeper")),
        403,
        "forbidden",
    )


def test_a_report_that_ends_the_game_still_awaits_the_opponent(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """8 poison more on P2 (who had none): P2 has 10, loses; the report stands, unacknowledged,
    and the record still passes the import audit."""
    game = create_game(client, admin_headers)
    p1, p2 = _players(client, admin_headers, game)
    poison = {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 10}
    r = client.post(f"/v1/games/{game}/actions", json=poison, headers=p1)
    assert r.status_code == 201, r.text
    state = r.json()["state"]
    assert state["status"] == "finished" and state["unacknowledged"][0]["players"] == ["P2"]
    # The summary is what the report changed; the loss is the state-based action it caused (CR 704.5c).
    assert state["unacknowledged"][0]["summary"] == "P2: poison counters 0 -> 10"
    export = client.get(f"/v1/games/{game}/export", headers=admin_headers).text.splitlines()
    assert check_export(export, snapshot_interval=0).final.state.status == "finished"
    dispute = {"report": state["unacknowledged"][0]["report"], "reason": "I had no poison"}
    assert client.post(f"/v1/games/{game}/dispute", json=dispute, headers=p2).status_code == 201
