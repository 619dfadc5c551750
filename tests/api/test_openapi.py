"""The OpenAPI document (docs/api.md: every endpoint appears with request and response schemas)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from domain.commands import ACTION_TYPES

ENDPOINTS = {
    ("get", "/v1/health"),
    ("post", "/v1/tokens"),
    ("get", "/v1/cards/{name}"),
    ("post", "/v1/games"),
    ("get", "/v1/games"),
    ("get", "/v1/games/{game_id}"),
    ("post", "/v1/games/{game_id}/actions"),
    ("post", "/v1/games/{game_id}/undo"),
    ("get", "/v1/games/{game_id}/events"),
    ("get", "/v1/games/{game_id}/events/stream"),
    ("get", "/v1/games/{game_id}/timeline"),
    ("get", "/v1/games/{game_id}/verify"),
    ("get", "/v1/games/{game_id}/export"),
    ("post", "/v1/games/import"),
}


def test_every_endpoint_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    documented = {(method, path) for path, ops in spec["paths"].items() for method in ops}
    assert documented >= ENDPOINTS, ENDPOINTS - documented


def test_every_action_type_has_a_schema_and_an_example(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/v1/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/Action"}
    assert set(body["examples"]) == set(ACTION_TYPES)
    schemas = spec["components"]["schemas"]
    mapping = schemas["Action"]["discriminator"]["mapping"]
    assert set(mapping) == set(ACTION_TYPES)
    for ref in mapping.values():
        assert ref.split("/")[-1] in schemas


def test_docs_page_is_served(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    assert "swagger" in response.text.lower()


def test_state_and_stream_responses_are_described(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    game = spec["paths"]["/v1/games/{game_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert game == {"$ref": "#/components/schemas/GameOut"}
    state = spec["components"]["schemas"]["State"]
    assert {"variant", "status", "turn", "players", "teams", "battlefield", "stack", "pending_order"} <= set(
        state["properties"]
    )
    stream = spec["paths"]["/v1/games/{game_id}/events/stream"]["get"]["responses"]["200"]["content"]
    assert list(stream) == ["text/event-stream"]
    export = spec["paths"]["/v1/games/{game_id}/export"]["get"]["responses"]["200"]["content"]
    assert list(export) == ["application/x-ndjson"]
    for path in ("/v1/games", "/v1/games/{game_id}/timeline", "/v1/whoami"):
        content = spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
        assert "$ref" in content["schema"], path
