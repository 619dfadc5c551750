"""Issue 39: every tournament route names its answer's model, and a whole event's real answers
validate against those models (so the OpenAPI schema and the answers cannot drift apart); every
tournament write takes an Idempotency-Key: a retry with the same key and body answers the first
response and stores nothing, the same key with another body is ``409 idempotency_key_reused``."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, TypeAdapter

from api import schemas_tournaments as out
from ledger.tournament_use_cases import RegisterPlayer
from tests.api.tournament_client import Scorekeeper


def _valid(model: Any, answer: Any) -> None:
    TypeAdapter(model).validate_python(answer, strict=False)


def test_every_tournament_route_names_its_answer_in_the_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    json_routes = [
        (path, method, op)
        for path, item in schema["paths"].items()
        if path.startswith("/v1/tournaments")
        for method, op in item.items()
        if not path.endswith(".csv")
    ]
    assert len(json_routes) == 36  # every JSON route of docs/api.md, Tournaments (6 reports, 10 decklists, 1 me)
    for path, method, op in json_routes:
        ok = next(code for code in op["responses"] if code.startswith("2"))
        content = op["responses"][ok].get("content", {}).get("application/json", {})
        assert content.get("schema"), f"{method.upper()} {path} documents no answer"
        assert content["schema"] != {}, f"{method.upper()} {path} documents an empty answer"


def test_a_whole_event_answers_as_its_schema_says(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk = Scorekeeper(client, admin_headers, "SCHEMA")
    _valid(out.TournamentOut, sk.create(rounds=2, top_cut=2))
    answers: list[tuple[type[BaseModel] | Any, Any]] = []
    for name in ("Ann", "Bob", "Cid", "Dee", "Eve"):
        answers.append((out.PlayerWritten, sk.post("/players", {"name": name})))
    answers.append((out.PlayerWritten, sk.post("/players/p5/drop", {"reason": "feeling ill"})))
    rnd = sk.post("/rounds", {"seed": 3})
    answers.append((out.RoundWritten, rnd))
    answers.append((out.ClockWritten, sk.post("/rounds/1/clock", {"action": "start"})))
    answers.append((out.ClockWritten, sk.post("/rounds/1/clock", {"action": "pause"})))
    answers.append((out.TableWritten, sk.post("/rounds/1/tables/1/featured", {"featured": True})))
    first, _second = rnd["tables"]
    a, b = first["players"]
    answers.append((out.TableWritten, sk.result(1, 1, {a: 2, b: 1})))
    answers.append(
        (out.TableWritten, sk.post("/rounds/1/tables/1/correction", {"wins": {a: 2, b: 0}, "reason": "typo"}))
    )
    answers.append((out.TableWritten, sk.post("/rounds/1/tables/2/intentional_draw")))
    answers.append((out.RoundWritten, sk.post("/rounds", {"seed": 4})))
    answers.append((out.TournamentOut, sk.get()))
    answers.append((out.StandingsOut, sk.get("/standings")))
    answers.append((out.PublicOut, sk.get("/public")))
    answers.append((list[out.RecordOut], sk.get("/record")))
    answers.append((out.VerifyOut, sk.get("/verify")))
    answers.append((out.TournamentList, client.get("/v1/tournaments", headers=admin_headers).json()))
    answers.append((out.LinkOut, sk.post("/players/p1/link")))
    for model, answer in answers:
        _valid(model, answer)
    # The check bites: an answer with a field the model doesn't know is refused.
    with pytest.raises(ValueError):
        _valid(out.PublicOut, {**sk.get("/public"), "surprise": 1})


def _post(client: TestClient, headers: dict[str, str], path: str, body: Any, key: str) -> Any:
    return client.post(f"/v1/tournaments/KEYS{path}", json=body, headers={**headers, "Idempotency-Key": key})


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/players", {"name": "Late Larry"}),
        ("/players/p1/drop", {"reason": "left"}),
        ("/rounds", {"seed": 9}),
        ("/rounds/1/clock", {"action": "start"}),
        ("/rounds/1/tables/1/result", {"wins": {"p1": 2}}),
        ("/rounds/1/tables/1/featured", {"featured": True}),
    ],
)
def test_a_tournament_write_retried_with_its_key_is_stored_once(
    client: TestClient, admin_headers: dict[str, str], path: str, body: Any
) -> None:
    sk = Scorekeeper(client, admin_headers, "KEYS")
    sk.create(rounds=3)
    sk.register("Ann", "Bob", "Cid", "Dee")
    if path != "/rounds":
        sk.post("/rounds", {"seed": 1})
    if "/tables/1/result" in path:  # report for the table's real players
        a, b = sk.get()["rounds"][0]["tables"][0]["players"]
        body = {"wins": {a: 2, b: 0}}
    before = sk.version()
    first = _post(client, admin_headers, path, body, "retry-1")
    assert first.status_code == 201, first.text
    after = sk.version()
    assert after > before
    again = _post(client, admin_headers, path, body, "retry-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again.headers.get("idempotent-replayed") == "true"
    assert sk.version() == after, "the retry stored nothing"
    other = {**body, "extra": 1} if path == "/players/p1/drop" else {"seed": 5} if path == "/rounds" else None
    if other is not None:
        reused = _post(client, admin_headers, path, {"reason": "other"} if "drop" in path else other, "retry-1")
        assert reused.status_code == 409
        assert reused.json()["code"] == "idempotency_key_reused"
        assert sk.version() == after


def test_the_key_is_claimed_in_the_writes_own_save(client: TestClient, admin_headers: dict[str, str]) -> None:
    """The claim lives with the tournament's records: a second write under the key, decided
    while the response was never remembered (a process that died between the save and the
    answer), finds the claim and stores nothing."""
    sk = Scorekeeper(client, admin_headers, "KEYS")
    sk.create(rounds=3)
    service = client.app.state.service  # type: ignore[attr-defined]
    from store.results import Actor

    actor = Actor("admin", "admin")
    register = RegisterPlayer("KEYS", "Ann")
    service.handle(register, actor, idempotency_key="k|/p|x", request_fingerprint="f1")
    version = sk.version()
    with pytest.raises(Exception) as refused:
        service.handle(register, actor, idempotency_key="k|/p|x", request_fingerprint="f1")
    assert getattr(refused.value, "code", None) in ("idempotency_in_progress",)
    assert sk.version() == version


def test_the_public_page_and_standings_are_rendered_once_per_version(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """Issue 39: a spectator's read of a large event copies what was rendered for its version;
    a write makes a new version, rendered anew; the clock is read at each request."""
    sk = Scorekeeper(client, admin_headers, "ONCE")
    sk.create(rounds=2)
    sk.register("Ann", "Bob", "Cid", "Dee")
    service = client.app.state.service  # type: ignore[attr-defined]
    first = service.tournament_service.standings_bytes("ONCE")
    assert service.tournament_service.standings_bytes("ONCE") is first, "the same version is not rendered again"
    assert sk.get("/public") == service.public_tournament("ONCE")
    assert sk.get("/standings") == service.tournament_standings("ONCE")
    sk.post("/rounds", {"seed": 2})
    sk.post("/rounds/1/clock", {"action": "start"})
    public = sk.get("/public")
    assert [p["table"] for p in public["pairings"]] == [1, 2], "a write is seen at once"
    assert public["clock"]["state"] == "running"
    sk.post("/players", {"name": "Eve"})
    assert "Eve" in [s["name"] for s in sk.get("/public")["standings"]]
    assert service.tournament_service.standings_bytes("ONCE") is not first
