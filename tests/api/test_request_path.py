"""One request path for an action (issue 10): the permission check and the action see one state,
the head the action leaves (its events folded once, by the decision) is what the stored log
replays to, and the idempotency records are read once."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import domain.permissions as permissions
from api.app import create_app
from api.settings import Settings
from ledger.service import LedgerService
from store.results import Actor
from tests.api.helpers import assert_problem, create_game, token

ADMIN = Actor("admin", "admin")
QUIET_GAME: dict[str, Any] = {
    "variant": "two_player",
    "turn": {"number": 3, "active_player": "P1", "step": "draw"},
    "players": [{"id": "P1"}, {"id": "P2"}],
}
GAIN = {"type": "gain_life", "player": "P1", "amount": 1}
REPORT_ON_P2 = {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 1}
"""A player's report that changes another player's side: it awaits their acknowledgement."""


def service_of(client: TestClient) -> LedgerService:
    service: LedgerService = client.app.state.service  # type: ignore[attr-defined]
    return service


def test_a_players_check_sees_the_state_the_action_is_decided_on(
    client: TestClient, admin_headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 11: P1's ``advance`` sent as an admin's ``advance to next_turn`` lands. The admin's
    action is stored between the first permission check and the save; the player's action must
    then be checked again, on the state it would follow (P2's turn), and refused."""
    game = create_game(client, admin_headers, QUIET_GAME)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    service = service_of(client)
    real_check = permissions.check_player_command
    checked: list[str] = []

    def check_while_the_admin_moves_on(*args: Any) -> None:
        state = args[2]  # (player_id, command, state)
        checked.append(state.turn.active_player)
        if len(checked) == 1:
            service.act(game, {"type": "advance", "to": "next_turn"}, ADMIN)
        real_check(*args)

    monkeypatch.setattr(permissions, "check_player_command", check_while_the_admin_moves_on)
    response = client.post(f"/v1/games/{game}/actions", json={"type": "advance"}, headers=p1)
    assert_problem(response, 422, "not_your_priority")
    assert checked == ["P1", "P2"], "checked again on the state the action was decided on"
    version, state = service.state_at(game)
    assert (state.turn.number, state.turn.active_player, state.turn.step) == (4, "P2", "untap")
    assert {e.actor.role for e in service.events(game, after=1)} == {"admin"}, "only the admin's action"
    assert version == service.events(game, after=1)[-1].version


def test_the_head_an_action_leaves_is_what_its_stored_events_replay_to(
    client: TestClient, settings: Settings, admin_headers: dict[str, str]
) -> None:
    """The service keeps the state its decision built as the new head, folding no event twice
    (how many folds an action costs is measured by ``bench/action_path.py``). That is only right
    if the head is the state the stored log gives: another server on the same store, with no
    cached head, replays every event and must reach the same state, also after a player's report
    that changes another player's side (its events end with one awaiting their acknowledgement)."""
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    for headers, body in ((admin_headers, GAIN), (p1, GAIN), (p1, REPORT_ON_P2)):
        response = client.post(f"/v1/games/{game}/actions", json=body, headers=headers)
        assert response.status_code == 201, response.text
    answered = response.json()
    assert answered["events"][-1]["type"] == "ReportAwaitingAcknowledgement"
    assert client.get(f"/v1/games/{game}", headers=p1).json()["state"] == answered["state"]
    head = service_of(client).state_at(game)
    assert head[0] == answered["version"]
    shown = client.get(f"/v1/games/{game}", headers=admin_headers).json()
    with TestClient(create_app(settings)) as other:
        assert service_of(other).state_at(game) == head
        assert other.get(f"/v1/games/{game}", headers=admin_headers).json() == shown


def test_the_idempotency_records_are_read_once_per_request(
    client: TestClient, admin_headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create_game(client, admin_headers)
    events = service_of(client).app.events
    real_get = events.get
    reads: list[str] = []

    def get(originator_id: Any, *args: Any, **kwargs: Any) -> Any:
        if str(originator_id).startswith("_idem/"):
            reads.append(str(originator_id))
        return real_get(originator_id, *args, **kwargs)

    monkeypatch.setattr(events, "get", get)
    headers = {**admin_headers, "Idempotency-Key": "once"}
    first = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    assert first.status_code == 201, first.text
    assert len(reads) == 1, "first request: read, then the claim and the response are written unread"
    again = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
    assert again.json() == first.json() and again.headers["Idempotent-Replayed"] == "true"
    assert len(reads) == 2, "the retry: one read, answered from it"
