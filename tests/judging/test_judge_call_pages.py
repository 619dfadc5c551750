"""Issue 33, finding 13, second half: closed judge calls are paged out of the game's state. The
state carries every open call (IPG 1: each waits for a judge's ruling) and only the latest
``CLOSED_CALLS_IN_STATE`` closed ones, with ``closed_call_count`` for all; ``GET
/v1/games/{id}/judge-calls`` pages every call exactly once. Both stores."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from domain.judge_call_pages import CLOSED_CALLS_IN_STATE, calls_in_state, calls_page
from tests.api.helpers import assert_problem, create_game, token

CALLS = 1_000
STATE_BOUND = 8_000
"""Bytes of the state's answer after 1,000 calls; after: 5,026; with every call in it: 130,477."""


def _pages(client: TestClient, game: str, headers: dict[str, str], status: str, limit: int) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    after: str | None = None
    while True:
        params: dict[str, Any] = {"status": status, "limit": limit}
        if after is not None:
            params["after"] = after
        answer = client.get(f"/v1/games/{game}/judge-calls", params=params, headers=headers)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        assert len(page["calls"]) <= limit
        seen.extend(page["calls"])
        after = page["next_after"]
        if after is None:
            return seen


def test_a_thousand_calls_keep_the_state_small_and_page_out_exactly_once(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    judge = token(client, admin_headers, "judge")
    url = f"/v1/games/{game}/judge-calls"
    left_open = []
    for n in range(1, CALLS + 1):
        # P2's every 200th call waits for a ruling (5 in all, the most one caller may have open).
        caller = p2 if n % 200 == 0 else p1
        made = client.post(url, json={"question": f"question {n}: may I respond?"}, headers=caller)
        assert made.status_code == 201, made.text
        if caller is p2:
            left_open.append(f"call-{n}")
            continue
        ruled = client.post(f"{url}/call-{n}/ruling", json={"ruling": f"ruling {n}: yes"}, headers=judge)
        assert ruled.status_code == 201, ruled.text

    answer = client.get(f"/v1/games/{game}", headers=p1)
    assert len(answer.content) < STATE_BOUND, len(answer.content)
    judging = answer.json()["state"]["judging"]
    assert judging["closed_call_count"] == CALLS - len(left_open)
    assert judging["open_calls"] == left_open
    closed_shown = [c["call"] for c in judging["calls"] if not c["open"]]
    assert closed_shown == [f"call-{n}" for n in range(CALLS - 24, CALLS) if n % 200][-CLOSED_CALLS_IN_STATE:]
    assert [c["call"] for c in judging["calls"] if c["open"]] == left_open

    every = _pages(client, game, p1, "all", 128)
    assert [c["call"] for c in every] == [f"call-{n}" for n in range(1, CALLS + 1)]
    closed = _pages(client, game, p1, "closed", 100)
    assert [c["call"] for c in closed] == [f"call-{n}" for n in range(1, CALLS + 1) if n % 200]
    assert all(c["ruling"].startswith("ruling ") for c in closed)
    assert [c["call"] for c in _pages(client, game, p1, "open", 2)] == left_open
    first = client.get(url, params={"status": "closed", "limit": 10}, headers=p1).json()
    assert first["total"] == CALLS - len(left_open) and first["next_after"] == "call-10"


def test_the_state_keeps_the_latest_closed_calls_and_every_open_one() -> None:
    calls = [{"call": f"call-{n}", "open": n % 3 == 0} for n in range(1, 61)]
    kept = calls_in_state(calls)
    closed = [c["call"] for c in calls if not c["open"]]
    assert [c["call"] for c in kept if not c["open"]] == closed[-CLOSED_CALLS_IN_STATE:]
    assert [c["call"] for c in kept if c["open"]] == [c["call"] for c in calls if c["open"]]
    assert [c["call"] for c in kept] == sorted((c["call"] for c in kept), key=lambda x: int(x.split("-")[1]))
    page = calls_page(calls, "open", "call-30", 3)
    assert [c["call"] for c in page["calls"]] == ["call-33", "call-36", "call-39"]
    assert page["next_after"] == "call-39" and page["total"] == 20
    assert calls_page(calls, "all", "call-59", 5)["next_after"] is None


def test_bad_paging_requests_are_refused_with_a_code(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    url = f"/v1/games/{game}/judge-calls"
    assert client.post(url, json={"called_by": "P1", "question": "?"}, headers=admin_headers).status_code == 201
    assert_problem(client.get(url, params={"after": "call-9"}, headers=admin_headers), 404, "unknown_call")
    assert_problem(client.get(url, params={"status": "pending"}, headers=admin_headers), 400, "invalid_request")
    assert_problem(client.get(url, params={"limit": 0}, headers=admin_headers), 400, "invalid_request")
    assert_problem(client.get(url, params={"limit": 501}, headers=admin_headers), 400, "invalid_request")
    assert_problem(client.get("/v1/games/nope/judge-calls", headers=admin_headers), 404, "unknown_game")
    assert client.get(url, headers=admin_headers).json()["calls"][0]["call"] == "call-1"
