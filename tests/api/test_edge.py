"""The edge (docs/api.md, Conventions): unknown fields, unknown query parameters and unknown counter
kinds are refused with problem+json and a stable code, and store nothing."""

from __future__ import annotations

import re
from typing import Annotated, Any

import pytest
from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient

from api.errors import install_error_handlers
from api.query import CheckedRoute
from tests.api.helpers import assert_problem, create_game, token, version_of


@pytest.fixture
def game(client: TestClient, admin_headers: dict[str, str]) -> str:
    return create_game(client, admin_headers)


def _act(client: TestClient, game: str, headers: dict[str, str], body: Any) -> Any:
    return client.post(f"/v1/games/{game}/actions", json=body, headers=headers)


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"type": "gain_life", "player": "P1", "amount": 1, "amout": 2}, "amout"),
        ({"type": "add_counters", "target": {"player": "P1", "who": "x"}, "kind": "rad", "amount": 1}, "who"),
        ({"type": "resolve", "choices": {"card": []}}, "choices.card"),
    ],
)
def test_an_unknown_field_in_an_action_is_422_and_stores_nothing(
    client: TestClient, admin_headers: dict[str, str], game: str, body: dict[str, Any], named: str
) -> None:
    before = version_of(client, game, admin_headers)
    problem = assert_problem(_act(client, game, admin_headers, body), 422, "unknown_field")
    assert named in problem["detail"]
    assert version_of(client, game, admin_headers) == before


def test_unknown_fields_in_the_create_undo_and_token_bodies_are_422(
    client: TestClient, admin_headers: dict[str, str], game: str
) -> None:
    create = {"variant": "two_player", "players": [{"id": "A"}, {"id": "B", "lifee": 3}]}
    problem = assert_problem(client.post("/v1/games", json=create, headers=admin_headers), 422, "unknown_field")
    assert "players[1].lifee" in problem["detail"]
    undo = {"actions": 1, "reason": "x", "force": True}
    assert_problem(client.post(f"/v1/games/{game}/undo", json=undo, headers=admin_headers), 422, "unknown_field")
    made = {"name": "x", "role": "judge", "expires": "never"}
    assert_problem(client.post("/v1/tokens", json=made, headers=admin_headers), 422, "unknown_field")


@pytest.mark.parametrize(
    ("path", "params", "named"),
    [
        ("/v1/games/{game}", {"verison": 1}, "verison"),
        ("/v1/games", {"tourney": "GP"}, "tourney"),
        ("/v1/games/{game}/events", {"after": 0, "limt": 5}, "limt"),
        ("/v1/games/{game}/verify", {"deep": 1}, "deep"),
        ("/v1/health", {"x": 1}, "x"),
    ],
)
def test_an_unknown_query_parameter_is_400(
    client: TestClient, admin_headers: dict[str, str], game: str, path: str, params: dict[str, Any], named: str
) -> None:
    response = client.get(path.format(game=game), params=params, headers=admin_headers)
    problem = assert_problem(response, 400, "unknown_parameter")
    assert repr(named) in problem["detail"]


def test_an_unknown_query_parameter_on_an_action_stores_nothing(
    client: TestClient, admin_headers: dict[str, str], game: str
) -> None:
    before = version_of(client, game, admin_headers)
    response = client.post(
        f"/v1/games/{game}/actions",
        params={"dry_run": 1},
        json={"type": "gain_life", "player": "P1", "amount": 1},
        headers=admin_headers,
    )
    assert_problem(response, 400, "unknown_parameter")
    assert version_of(client, game, admin_headers) == before


def test_declared_query_parameters_still_work_and_the_page_reads_its_own(
    client: TestClient, admin_headers: dict[str, str], game: str
) -> None:
    for path, params in (
        (f"/v1/games/{game}", {"version": 1}),
        ("/v1/games", {"round": 2, "status": "in_progress"}),
        (f"/v1/games/{game}/events", {"after": 0, "limit": 5}),
    ):
        assert client.get(path, params=params, headers=admin_headers).status_code == 200, path
    assert client.get(f"/games/{game}", params={"version": 1}).status_code == 200


def test_cr_122_an_unknown_counter_kind_is_422_with_the_nearest_kinds(
    client: TestClient, admin_headers: dict[str, str], game: str
) -> None:
    before = version_of(client, game, admin_headers)
    body = {"type": "add_counters", "target": {"player": "P2"}, "kind": "posion", "amount": 1}
    problem = assert_problem(_act(client, game, admin_headers, body), 422, "unknown_counter_kind")
    assert "'poison'" in problem["detail"] and "custom_kind" in problem["detail"]
    assert version_of(client, game, admin_headers) == before


def test_cr_122_kinds_are_case_insensitive_and_custom_kind_records_any(
    client: TestClient, admin_headers: dict[str, str], game: str
) -> None:
    body = {"type": "add_counters", "target": {"player": "P2"}, "kind": "Poison", "amount": 1}
    response = _act(client, game, admin_headers, body)
    assert response.status_code == 201, response.text
    assert response.json()["events"][0]["data"]["kind"] == "poison"
    custom = {**body, "kind": "Posion Ivy", "custom_kind": True}
    response = _act(client, game, admin_headers, custom)
    assert response.status_code == 201, response.text
    assert response.json()["state"]["players"]["P2"]["counters"] == {"poison": 1, "Posion Ivy": 1}


def test_a_player_token_is_checked_on_the_parsed_command(
    client: TestClient, admin_headers: dict[str, str], game: str
) -> None:
    """docs/api.md, Authentication and roles: the same body from a player token is checked for its own player."""
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    mine = {"type": "gain_life", "player": "P1", "amount": 1}
    assert _act(client, game, p1, mine).status_code == 201
    assert_problem(_act(client, game, p1, {**mine, "player": "P2"}), 403, "not_your_player")
    assert_problem(_act(client, game, p1, {"type": "note", "text": "x"}), 403, "forbidden")
    scorekeeper = token(client, admin_headers, "scorekeeper")
    assert_problem(_act(client, game, scorekeeper, {"type": "note", "text": "x"}), 403, "forbidden")


async def _paging(cursor: int = 0) -> int:
    return cursor


async def _paged(cursor: Annotated[int, Depends(_paging)]) -> dict[str, int]:
    return {"cursor": cursor}


def test_the_parameters_of_a_route_s_dependencies_are_its_own() -> None:
    """A parameter read by a dependency (say, paging shared by routes) is declared too."""
    app = FastAPI()
    install_error_handlers(app)
    app.router.route_class = CheckedRoute
    app.get("/paged")(_paged)
    with TestClient(app) as local:
        assert local.get("/paged", params={"cursor": 2}).json() == {"cursor": 2}
        assert_problem(local.get("/paged", params={"cursr": 2}), 400, "unknown_parameter")


def test_every_documented_route_refuses_an_unknown_query_parameter(client: TestClient) -> None:
    """Every route of the OpenAPI document, whatever its router, refuses a parameter it doesn't
    take, before its token, its path or its body is looked at (``api.query.CheckedRoute``): a
    router made without that route class would take a misspelled parameter silently."""
    paths = client.get("/openapi.json").json()["paths"]
    called = 0
    for path, operations in paths.items():
        concrete = re.sub(r"\{[^}]+\}", "x", path)
        for method in operations:
            response = client.request(method.upper(), concrete, params={"zz_not_a_parameter": "1"})
            assert_problem(response, 400, "unknown_parameter")
            called += 1
    assert called > 60, "the OpenAPI document lists fewer operations than the API has"
