"""The OpenAPI document (docs/api.md: every endpoint appears with request and response schemas)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from pydantic import BaseModel

from api.bodies import TokenCreateBody, UndoBody
from domain.cards.catalog import bundled_catalog
from domain.commands import ACTION_BODIES, ACTION_TYPES, parse_action_body
from domain.commands.bodies.create import GameCreateBody
from domain.setup import game_started

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


def _own_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    schema.pop("$defs", None)
    return schema


def test_each_action_s_schema_is_the_model_that_parses_it(client: TestClient) -> None:
    """One model per action: the parser's types and the document's are the same set, and each
    documented schema is the JSON schema of the model ``parse_command`` validates with."""
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    action = schemas["Action"]
    mapping = action["discriminator"]["mapping"]
    assert action["discriminator"]["propertyName"] == "type"
    assert {entry["$ref"] for entry in action["oneOf"]} == set(mapping.values())
    assert set(mapping) == set(ACTION_BODIES), "a type the parser accepts is undocumented, or the reverse"
    for kind, ref in mapping.items():
        model = ACTION_BODIES[kind]
        assert ref == f"#/components/schemas/{model.__name__}"
        assert schemas[model.__name__] == _own_schema(model), kind
        assert schemas[model.__name__]["additionalProperties"] is False, f"{kind} must refuse unknown fields"


def test_the_create_undo_and_token_schemas_are_their_parsers_models(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for name, model in (("GameCreate", GameCreateBody), ("Undo", UndoBody), ("TokenCreate", TokenCreateBody)):
        assert schemas[name] == _own_schema(model), name


def test_every_documented_example_parses(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/v1/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    for kind, example in body["examples"].items():
        assert type(parse_action_body(example["value"])) is ACTION_BODIES[kind]
    create = spec["paths"]["/v1/games"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    for example in create.values():
        game_started(example["value"], "g-example", bundled_catalog().resolve)


def test_every_match_and_webhook_answer_is_described(client: TestClient) -> None:
    """Issue 39: each route of the match and webhook routers names its answer, so the document
    describes it (a model for JSON, the media type for CSV, no body for 204), and the body it
    reads (the model that parses it)."""
    paths = client.get("/openapi.json").json()["paths"]
    operations = [
        (path, method, op)
        for path, ops in paths.items()
        if path.startswith(("/v1/events/", "/v1/webhooks"))
        for method, op in ops.items()
    ]
    assert len(operations) == 12, [(p, m) for p, m, _ in operations]
    for path, method, op in operations:
        if method == "post" and not path.endswith("/secret"):  # a body: its model's schema
            body = op["requestBody"]["content"]["application/json"]["schema"]
            assert body["type"] == "object" and body["additionalProperties"] is False, (path, body)
        status, answer = next((s, r) for s, r in op["responses"].items() if s.startswith("2"))
        if status == "204":
            assert "content" not in answer, (path, method)
            continue
        [(media, content)] = answer["content"].items()
        if path.endswith(".csv"):
            assert media == "text/csv" and content["schema"] == {"type": "string"}, (path, method)
        else:
            assert media == "application/json" and "$ref" in content["schema"], (path, method, content)


def test_the_webhook_body_offers_the_events_a_subscription_may_ask_for() -> None:
    from typing import get_args

    from api.routes.webhooks import WebhookEvent
    from ledger.webhooks import WEBHOOK_EVENTS

    assert get_args(WebhookEvent) == WEBHOOK_EVENTS
