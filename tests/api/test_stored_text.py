"""Issue 11, finding 1: a NUL (or any control character) in a stored string is refused at the
edge, naming the field, on both stores; a read-model record that fails marks its game in
``/v1/health`` (``degraded``), is logged at once, and the other games keep projecting."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import projections.game_summaries as summaries
from tests.api.helpers import TWO_PLAYER, assert_problem, create_game


def _with_event(event: str) -> dict[str, Any]:
    return {**TWO_PLAYER, "tournament": {"event": event, "round": 1}}


def test_a_nul_in_the_tournament_is_refused_naming_the_field(client: TestClient, admin_headers: dict[str, str]) -> None:
    response = client.post("/v1/games", json=_with_event("GP\u0000Vegas"), headers=admin_headers)

    body = assert_problem(response, 400, "invalid_character")
    assert "tournament.event" in body["detail"] and "U+0000" in body["detail"]
    # The list keeps working: a later game appears in it.
    game_id = create_game(client, admin_headers, _with_event("GP-Vegas"))
    client.app.state.service.game_list.wait()  # type: ignore[attr-defined]
    listed = client.get("/v1/games", headers=admin_headers).json()["games"]
    assert [g["game_id"] for g in listed] == [game_id]


@pytest.mark.parametrize("text", ["a\u0001b", "tab\u007fdel", "\u009bcsi", "\ud800"])
def test_other_control_characters_and_lone_surrogates_are_refused(
    client: TestClient, admin_headers: dict[str, str], text: str
) -> None:
    escaped = text.encode("unicode_escape").decode().replace("\\x", "\\u00")
    raw = '{"variant": "two_player", "players": [{"id": "P1", "name": "NAME"}, {"id": "P2"}]}'.replace("NAME", escaped)
    response = client.post("/v1/games", content=raw, headers={**admin_headers, "Content-Type": "application/json"})

    body = assert_problem(response, 400, "invalid_character")
    assert "players[0].name" in body["detail"]


def test_newlines_and_tabs_stay_allowed_in_free_text(client: TestClient, admin_headers: dict[str, str]) -> None:
    game_id = create_game(client, admin_headers)
    response = client.post(
        f"/v1/games/{game_id}/actions", json={"type": "note", "text": "line one\n\tline two"}, headers=admin_headers
    )
    assert response.status_code == 201, response.text


def test_a_nul_in_a_query_or_path_value_is_a_4xx_not_a_500(client: TestClient, admin_headers: dict[str, str]) -> None:
    assert_problem(client.get("/v1/games?event=a%00b", headers=admin_headers), 400, "invalid_character")
    assert_problem(client.get("/v1/games/a%00b", headers=admin_headers), 404, "unknown_game")
    assert_problem(client.get("/v1/games/a%00b/events?after=0", headers=admin_headers), 404, "unknown_game")


def test_a_failing_record_marks_its_game_and_the_others_keep_projecting(
    client: TestClient, admin_headers: dict[str, str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real = summaries.summary_change

    def failing(event: Any) -> summaries.SummaryChange:
        if event.originator_id == "bad-game":
            raise ValueError("injected failure")
        return real(event)

    monkeypatch.setattr(summaries, "summary_change", failing)
    service = client.app.state.service  # type: ignore[attr-defined]
    assert client.get("/v1/health").json()["status"] == "ok"

    with caplog.at_level(logging.ERROR, logger="mtg_ledger.store"):
        first = create_game(client, admin_headers, {**TWO_PLAYER, "game_id": "good-1"})
        create_game(client, admin_headers, {**TWO_PLAYER, "game_id": "bad-game"})
        second = create_game(client, admin_headers, {**TWO_PLAYER, "game_id": "good-2"})
        client.post(
            "/v1/games/good-1/actions", json={"type": "gain_life", "player": "P1", "amount": 1}, headers=admin_headers
        )
        service.game_list.wait()

    listed = {g["game_id"]: g for g in client.get("/v1/games", headers=admin_headers).json()["games"]}
    assert set(listed) == {first, second}
    assert listed["good-1"]["version"] == 2
    health = client.get("/v1/health").json()
    assert health["status"] == "degraded"
    assert health["read_model"]["runner"] == "running"
    assert health["read_model"]["failed_games"] == [
        {"game_id": "bad-game", "version": 1, "error": "ValueError: injected failure"}
    ]
    assert any("bad-game" in r.getMessage() and r.levelno == logging.ERROR for r in caplog.records)


def test_on_postgresql_a_stored_nul_marks_its_game_instead_of_stopping_the_list(
    client: TestClient, admin_headers: dict[str, str], settings: Any
) -> None:
    """The record of the issue, stored past the edge (as an older server did): PostgreSQL's text
    column refuses it; the view marks that game and goes on."""
    if settings.store != "postgresql":
        pytest.skip("SQLite stores a NUL; the injected failure above covers it there")
    from domain.commands import parse_create_body
    from ledger.service import Actor

    service = client.app.state.service  # type: ignore[attr-defined]
    body = parse_create_body({**_with_event("GP\u0000Vegas"), "game_id": "nul-game"})
    service.create_game(body, Actor("admin", "admin"), "nul-game")
    later = create_game(client, admin_headers, _with_event("GP-Vegas"))
    service.game_list.wait()

    assert [g["game_id"] for g in client.get("/v1/games", headers=admin_headers).json()["games"]] == [later]
    health = client.get("/v1/health").json()
    assert health["status"] == "degraded"
    [failed] = health["read_model"]["failed_games"]
    assert failed["game_id"] == "nul-game" and "NUL" in failed["error"]


def test_a_stopped_runner_makes_health_degraded(
    client: TestClient, admin_headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When even marking a game fails (the view's database refuses it too), the runner stops:
    health says so instead of ok."""

    def failing(event: Any) -> summaries.SummaryChange:
        raise ValueError("injected failure")

    def cannot_mark(self: Any, item: Any, error: Exception) -> None:
        raise RuntimeError("the view is unwritable")

    monkeypatch.setattr(summaries, "summary_change", failing)
    monkeypatch.setattr(summaries.GameSummaryProjection, "_fail", cannot_mark)
    create_game(client, admin_headers)
    deadline = time.monotonic() + 10
    while (health := client.get("/v1/health").json())["status"] == "ok" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert health["status"] == "degraded"
    assert health["read_model"]["runner"].startswith("stopped: RuntimeError: the view is unwritable")
