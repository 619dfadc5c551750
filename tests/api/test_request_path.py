"""One request path for an action (issue 10): the permission check and the action see one state,
the action's events are folded once, and the idempotency records are read once."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import api.routes.games as games_route
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
    real_check = games_route.check_player_command
    checked: list[str] = []

    def check_while_the_admin_moves_on(*args: Any) -> None:
        state = args[2]  # (player_id, command, state)
        checked.append(state.turn.active_player)
        if len(checked) == 1:
            service.act(game, {"type": "advance", "to": "next_turn"}, ADMIN)
        real_check(*args)

    monkeypatch.setattr(games_route, "check_player_command", check_while_the_admin_moves_on)
    response = client.post(f"/v1/games/{game}/actions", json={"type": "advance"}, headers=p1)
    assert_problem(response, 422, "not_your_priority")
    assert checked == ["P1", "P2"], "checked again on the state the action was decided on"
    version, state = service.games.state_at(game)
    assert (state.turn.number, state.turn.active_player, state.turn.step) == (4, "P2", "untap")
    assert {e.actor.role for e in service.games.events(game, after=1)} == {"admin"}, "only the admin's action"
    assert version == service.games.events(game, after=1)[-1].version


@pytest.fixture
def evolve_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every event the rules fold (``domain.evolve``), by type, from the fixture on."""
    folds = importlib.import_module("domain.fold").FOLDS
    calls: list[str] = []

    def counted(kind: str, handler: Callable[..., Any]) -> Callable[..., Any]:
        def fold(*args: Any) -> Any:
            calls.append(kind)
            return handler(*args)

        return fold

    monkeypatch.setattr(folds, "_by_class", {cls: counted(cls.TYPE, folds[cls]) for cls in folds})
    yield calls


def test_an_action_is_folded_once(client: TestClient, admin_headers: dict[str, str], evolve_calls: list[str]) -> None:
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    for headers in (admin_headers, p1):
        evolve_calls.clear()
        response = client.post(f"/v1/games/{game}/actions", json=GAIN, headers=headers)
        assert response.status_code == 201, response.text
        assert evolve_calls == [e["type"] for e in response.json()["events"]] == ["LifeGained"]


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
