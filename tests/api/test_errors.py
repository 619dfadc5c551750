"""Bad input gets problem+json with a stable code, and changes nothing (docs/api.md, Conventions)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game, version_of


@pytest.fixture
def game(client: TestClient, admin_headers: dict[str, str]) -> str:
    return create_game(client, admin_headers)


def _post(client: TestClient, game: str, headers: dict[str, str], body: Any) -> Any:
    return client.post(f"/v1/games/{game}/actions", json=body, headers=headers)


def test_malformed_json_is_400(client: TestClient, admin_headers: dict[str, str], game: str) -> None:
    before = version_of(client, game, admin_headers)
    response = client.post(
        f"/v1/games/{game}/actions",
        content=b'{"type": "advance"',
        headers={**admin_headers, "Content-Type": "application/json"},
    )
    assert_problem(response, 400, "malformed_json")
    assert version_of(client, game, admin_headers) == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"type": "teleport"}, 400, "unknown_action"),
        ({"amount": 2}, 400, "unknown_action"),
        ([1, 2], 400, "invalid_body"),
        ({"type": "add_counters", "kind": "rad", "amount": 2}, 400, "invalid_target"),
        ({"type": "add_counters", "target": {"player": "P1"}, "amount": 2}, 400, "missing_field"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 0}, 400, "invalid_amount"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": -3}, 400, "invalid_amount"),
        ({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": "two"}, 400, "invalid_field"),
        ({"type": "lose_life", "player": "P1", "amount": 0}, 400, "invalid_amount"),
        ({"type": "mill", "player": "P1", "count": -1}, 400, "invalid_amount"),
        ({"type": "advance", "to": "second_main"}, 400, "invalid_step"),
        ({"type": "move", "permanent": "throne", "to": "sideboard"}, 400, "invalid_zone"),
        ({"type": "add_counters", "target": {"player": "P9"}, "kind": "rad", "amount": 1}, 404, "unknown_player"),
        ({"type": "tap", "permanent": "nope"}, 404, "unknown_permanent"),
        ({"type": "lose_life", "player": "Nobody", "amount": 1}, 404, "unknown_player"),
        (
            {"type": "remove_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 5},
            422,
            "not_enough_counters",
        ),
        ({"type": "resolve"}, 422, "stack_empty"),
        ({"type": "pay_life", "player": "P1", "amount": 21}, 422, "insufficient_life"),
        ({"type": "cast", "player": "P1", "card": "No Such Card Ever"}, 422, "unknown_card"),
        ({"type": "proliferate", "player": "P1", "choose": [{"player": "P2"}]}, 422, "no_counter_to_proliferate"),
        ({"type": "order_triggers", "resolve_first": ["s1"]}, 422, "nothing_to_order"),
        ({"type": "activate", "player": "P1", "permanent": "throne", "ability": 3}, 422, "unknown_ability"),
    ],
)
def test_bad_action_is_refused_and_stores_nothing(
    client: TestClient, admin_headers: dict[str, str], game: str, body: Any, status: int, code: str
) -> None:
    before = version_of(client, game, admin_headers)
    state_before = client.get(f"/v1/games/{game}", headers=admin_headers).json()["state"]
    assert_problem(_post(client, game, admin_headers, body), status, code)
    assert version_of(client, game, admin_headers) == before
    assert client.get(f"/v1/games/{game}", headers=admin_headers).json()["state"] == state_before


def test_illegal_by_the_rules_stack_not_empty(client: TestClient, admin_headers: dict[str, str], game: str) -> None:
    """CR 728.1 puts the rad trigger on the stack; ending the step then is stack_not_empty."""
    assert _post(client, game, admin_headers, {"type": "advance", "to": "precombat_main"}).status_code == 201
    before = version_of(client, game, admin_headers)
    assert_problem(_post(client, game, admin_headers, {"type": "advance"}), 422, "stack_not_empty")
    assert version_of(client, game, admin_headers) == before


def test_unknown_game_is_404(client: TestClient, admin_headers: dict[str, str]) -> None:
    assert_problem(client.get("/v1/games/nope", headers=admin_headers), 404, "unknown_game")
    assert_problem(_post(client, "nope", admin_headers, {"type": "advance"}), 404, "unknown_game")
    assert_problem(client.get("/v1/games/nope/events", headers=admin_headers), 404, "unknown_game")
    assert_problem(client.get("/v1/games/nope/verify", headers=admin_headers), 404, "unknown_game")


def test_unknown_version_is_404(client: TestClient, admin_headers: dict[str, str], game: str) -> None:
    assert_problem(
        client.get(f"/v1/games/{game}", params={"version": 99}, headers=admin_headers), 404, "unknown_version"
    )


def test_bad_query_is_400(client: TestClient, admin_headers: dict[str, str], game: str) -> None:
    assert_problem(
        client.get(f"/v1/games/{game}", params={"version": "x"}, headers=admin_headers), 400, "invalid_request"
    )
    assert_problem(
        client.get(f"/v1/games/{game}/events", params={"limit": 0}, headers=admin_headers), 400, "invalid_request"
    )


def test_unknown_route_and_wrong_method_are_problems(client: TestClient, admin_headers: dict[str, str]) -> None:
    assert_problem(client.get("/v1/nothing-here", headers=admin_headers), 404, "not_found")
    assert_problem(client.delete("/v1/games", headers=admin_headers), 405, "method_not_allowed")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "chess", "players": [{"id": "A"}]}, "invalid_variant"),
        ({"variant": "two_player"}, "invalid_field"),
        ({"variant": "two_player", "players": [{"id": "A"}, {"id": "A"}]}, "duplicate_id"),
        ({"variant": "two_player", "players": [{"id": "A"}, {"id": "B"}], "turn": {"step": "brunch"}}, "invalid_step"),
        ({"variant": "two_headed_giant", "players": [{"id": "A"}, {"id": "B"}]}, "invalid_field"),
        (
            {"variant": "two_player", "players": [{"id": "A"}, {"id": "B"}], "rules_edition": "yesterday"},
            "invalid_field",
        ),
        ({"variant": "two_player", "game_id": "bad id!", "players": [{"id": "A"}, {"id": "B"}]}, "invalid_game_id"),
    ],
)
def test_bad_game_creation(client: TestClient, admin_headers: dict[str, str], body: Any, code: str) -> None:
    assert_problem(client.post("/v1/games", json=body, headers=admin_headers), 400, code)


def test_game_id_taken_is_409(client: TestClient, admin_headers: dict[str, str]) -> None:
    body = {"variant": "two_player", "game_id": "same", "players": [{"id": "A"}, {"id": "B"}]}
    assert client.post("/v1/games", json=body, headers=admin_headers).status_code == 201
    assert_problem(client.post("/v1/games", json=body, headers=admin_headers), 409, "game_exists")


def test_undo_errors(client: TestClient, admin_headers: dict[str, str], game: str) -> None:
    assert_problem(
        client.post(f"/v1/games/{game}/undo", json={"actions": 1}, headers=admin_headers), 400, "reason_required"
    )
    assert_problem(
        client.post(f"/v1/games/{game}/undo", json={"actions": 1, "reason": "x"}, headers=admin_headers),
        422,
        "nothing_to_undo",
    )
    assert_problem(
        client.post(f"/v1/games/{game}/undo", json={"to_version": 0, "reason": "x"}, headers=admin_headers),
        400,
        "invalid_field",
    )


def test_unknown_card_lookup(client: TestClient, admin_headers: dict[str, str]) -> None:
    assert_problem(client.get("/v1/cards/Not a Card", headers=admin_headers), 422, "unknown_card")
    body = client.get("/v1/cards/Throne of Geth", headers=admin_headers).json()
    assert body["implemented"] is True and body["type_line"] == "Artifact"
    assert client.get("/v1/cards/Ornithopter", headers=admin_headers).json()["implemented"] is False


def test_deeply_nested_json_is_400_not_500(client: TestClient, admin_headers: dict[str, str], game: str) -> None:
    body = b"[" * 100_000 + b"]" * 100_000
    headers = {**admin_headers, "Content-Type": "application/json"}
    assert_problem(client.post(f"/v1/games/{game}/actions", content=body, headers=headers), 400, "malformed_json")
    assert_problem(client.post("/v1/games", content=body, headers=headers), 400, "malformed_json")
    nd = {**admin_headers, "Content-Type": "application/x-ndjson"}
    response = client.post("/v1/games/import", content=b'{"a":' * 50_000, headers=nd)
    assert response.status_code in (400, 422), response.text
    assert response.headers["content-type"].startswith("application/problem+json")


def test_counter_action_and_unknown_stack_object(client: TestClient, admin_headers: dict[str, str], game: str) -> None:
    """CR 701.6a: a countered object leaves the stack without resolving; an unknown one is 404."""
    assert_problem(
        _post(client, game, admin_headers, {"type": "counter", "object": "s99"}), 404, "unknown_stack_object"
    )
    _post(client, game, admin_headers, {"type": "advance", "to": "precombat_main"})
    response = _post(client, game, admin_headers, {"type": "counter", "object": "s1", "source": "Stifle"})
    assert response.status_code == 201
    assert [e["type"] for e in response.json()["events"]] == ["StackObjectCountered"]
    assert response.json()["state"]["stack"] == []
