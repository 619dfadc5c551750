"""``POST /v1/games/{id}/undo`` from a player token: a quick undo of its own last report, with
``{"actions": 1}`` and If-Match like a judge's undo; otherwise a 403 with a stable code (issue 30,
contract item 6; docs/judges.md). The 30-second limit is timed by the ledger's clock
(tests/judging/test_quick_undo.py moves it on)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game, token, version_of

DAMAGE = {"type": "damage", "target": {"player": "P2"}, "amount": 3, "source": "Lightning Bolt"}


def _game(client: TestClient, admin: dict[str, str]) -> tuple[str, dict[str, str], dict[str, str]]:
    game = create_game(client, admin)
    p1 = token(client, admin, "player", game_id=game, player_id="P1")
    p2 = token(client, admin, "player", game_id=game, player_id="P2")
    return game, p1, p2


def _undo(client: TestClient, game: str, headers: dict[str, str], body: dict[str, Any] | None = None) -> Any:
    version = version_of(client, game, headers)
    return client.post(
        f"/v1/games/{game}/undo", json=body or {"actions": 1}, headers={**headers, "If-Match": f'"{version}"'}
    )


def test_a_player_takes_back_its_own_last_report(client: TestClient, admin_headers: dict[str, str]) -> None:
    game, p1, _ = _game(client, admin_headers)
    reported = client.post(f"/v1/games/{game}/actions", json=DAMAGE, headers=p1)
    assert reported.status_code == 201 and reported.json()["state"]["unacknowledged"]
    undone = _undo(client, game, p1)
    assert undone.status_code == 201, undone.text
    [revert] = undone.json()["events"]
    assert revert["type"] == "ActionsReverted" and revert["actor"]["role"] == "player"
    assert revert["version"] == reported.json()["version"] + 1  # appended, nothing deleted
    assert revert["data"]["reason"]  # a reason on the record, though the player gave none
    state = undone.json()["state"]
    assert state["players"]["P2"]["life"] == 20 and state["unacknowledged"] == []


def test_a_player_token_is_refused_what_is_not_its_own_last_action(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game, p1, p2 = _game(client, admin_headers)
    first = client.post(f"/v1/games/{game}/actions", json=DAMAGE, headers=p1).json()
    head = version_of(client, game, admin_headers)
    assert_problem(_undo(client, game, p2), 403, "not_your_action")  # Alice's action, Bob's token
    assert_problem(_undo(client, game, p1, {"to_version": 1, "reason": "mine"}), 403, "quick_undo_last_action_only")
    report = first["state"]["unacknowledged"][0]["report"]
    assert client.post(f"/v1/games/{game}/acknowledge", json={"report": report}, headers=p2).status_code == 201
    assert_problem(_undo(client, game, p1), 403, "not_the_last_action")  # Bob answered it
    assert version_of(client, game, admin_headers) == head + 1  # only the acknowledgement was stored


def test_who_may_undo_is_unchanged_for_the_other_roles(client: TestClient, admin_headers: dict[str, str]) -> None:
    game, p1, _ = _game(client, admin_headers)
    keeper = token(client, admin_headers, "scorekeeper")
    assert_problem(
        client.post(f"/v1/games/{game}/undo", json={"actions": 1, "reason": "x"}, headers=keeper), 403, "forbidden"
    )
    other = create_game(client, admin_headers)
    assert_problem(
        client.post(f"/v1/games/{other}/undo", json={"actions": 1}, headers=p1), 403, "wrong_game"
    )  # refused before its body is read
