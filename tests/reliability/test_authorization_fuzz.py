"""The authorization matrix under fuzzed ids (Hypothesis, in-process app on SQLite).

Two games share a permanent id (``bear``) and each has ids of its own. A player token bound to
game A (player P1) sends random actions with random game ids (the other game's, near misses,
random text) and random permanent and player ids, and reads random records:

- an action addressed anywhere but game A is refused (403 ``wrong_game``, or 404 for a game that
  does not exist) and stores nothing anywhere; game B never changes;
- an action in game A naming B's objects finds nothing of B (404/422), never acts on B;
- never a 5xx; every error is problem+json;
- reads are the spectator's (docs/api.md: reads need ``spectator``, which a player token outranks):
  known libraries and hands, of either game, never appear in anything the token gets back.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.helpers import token

SECRET_A = "Hidden Library Card Alpha"
SECRET_B = "Hidden Library Card Bravo"
HAND_B = "Hidden Hand Card Bravo"


def game_body(game_id: str, own: str, library_card: str) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "variant": "two_player",
        "tournament": {"event": f"Event {game_id}", "round": 1, "table": 1},
        "players": [
            {"id": "P1", "library": [{"name": library_card, "type_line": "Instant"}] * 3, "counters": {"rad": 1}},
            {"id": "P2", "hand": [{"name": f"{library_card} (hand)", "type_line": "Instant"}]},
        ],
        "battlefield": [
            {"id": own, "card": "Feral Hydra", "controller": "P1", "counters": {"+1/+1": 3}},
            {"id": "bear", "card": "Grizzly Bears", "controller": "P2"},
        ],
    }


@pytest.fixture
def world(client: TestClient, admin_headers: dict[str, str]) -> dict[str, Any]:
    for gid, own, secret in (("game-a", "hydra-a", SECRET_A), ("game-b", "hydra-b", SECRET_B)):
        response = client.post("/v1/games", json=game_body(gid, own, secret), headers=admin_headers)
        assert response.status_code == 201, response.text
    player = token(client, admin_headers, "player", game_id="game-a", player_id="P1")
    b_events = client.get("/v1/games/game-b/events", headers=admin_headers).json()["events"]
    return {"player": player, "admin": admin_headers, "b_events": b_events}


GAME_IDS = st.one_of(
    st.sampled_from(["game-a", "game-b", "GAME-A", "game-a ", "game-b.", "game-", "g", "_token", "_idem"]),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=24),
).filter(lambda g: "/" not in g and g.strip(".") != "")
"""Ids that URL handling turns into another path (``.``, ``..``, an encoded ``/``: the client
or the router resolves them to ``/v1/games/...``, e.g. the game list) are not game ids."""
PERMANENTS = st.one_of(st.sampled_from(["hydra-a", "hydra-b", "bear", "", "hydra"]), st.text(max_size=12))
PLAYERS = st.one_of(st.sampled_from(["P1", "P2", "P3", ""]), st.text(max_size=6))
ACTIONS = st.one_of(
    st.builds(lambda t, p: {"type": t, "permanent": p}, st.sampled_from(["tap", "untap", "sacrifice"]), PERMANENTS),
    st.builds(
        lambda p, to: {"type": "move", "permanent": p, "to": to}, PERMANENTS, st.sampled_from(["graveyard", "exile"])
    ),
    st.builds(lambda p: {"type": "activate", "player": "P1", "permanent": p, "ability": 0}, PERMANENTS),
    st.builds(
        lambda t, k: {"type": "add_counters", "target": t, "kind": k, "amount": 1},
        st.one_of(PERMANENTS.map(lambda p: {"permanent": p}), PLAYERS.map(lambda p: {"player": p})),
        st.sampled_from(["+1/+1", "rad", "poison"]),
    ),
    st.builds(lambda p: {"type": "gain_life", "player": p, "amount": 1}, PLAYERS),
    st.builds(lambda p: {"type": "damage", "target": {"permanent": p}, "amount": 1}, PERMANENTS),
)
"""No ``mill`` or ``draw``: milled cards go to the graveyard, which is public (that is the rules,
not a leak), and would make the hidden-card check below meaningless."""
READS = st.sampled_from(["", "/events", "/events?after=0&limit=5", "/timeline", "/verify", "/export", "?version=1"])


def assert_no_hidden(text: str) -> None:
    for secret in (SECRET_A, SECRET_B, HAND_B):
        assert secret not in text, f"hidden card {secret!r} reached a player token"


def assert_problem(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json"), response.headers
        body = response.json()
        assert body["status"] == response.status_code and body["code"], body


def fuzz(client: TestClient, world: dict[str, Any], examples: int) -> None:
    player = world["player"]

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=examples < 1000,  # make test: the same examples every run; soak: new ones
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(game_id=GAME_IDS, action=ACTIONS, read=READS, version=st.integers(-3, 40))
    def check(game_id: str, action: dict[str, Any], read: str, version: int) -> None:
        path = f"/v1/games/{quote(game_id, safe='')}"
        response = client.post(f"{path}/actions", json=action, headers=player)
        assert_problem(response)
        if game_id != "game-a":
            assert response.status_code in (403, 404), (game_id, response.status_code, response.text)
        elif response.status_code == 201:
            # Acted in its own game, as P1, on objects of game A only.
            for event in response.json()["events"]:
                assert "hydra-b" not in json.dumps(event["data"]), event
        assert_no_hidden(response.text)
        for target in (path + read, f"{path}?version={version}"):
            got = client.get(target, headers=player)
            assert_problem(got)
            assert got.status_code in (200, 400, 403, 404), (target, got.status_code, got.text)
            assert_no_hidden(got.text)
            if got.status_code == 200 and game_id not in ("game-a", "game-b"):
                raise AssertionError(f"{target}: data for a game that does not exist: {got.text[:200]}")

    check()
    # Game B never moved.
    after = client.get("/v1/games/game-b/events", headers=world["admin"]).json()["events"]
    assert after == world["b_events"]
    assert client.get("/v1/games/game-b/verify", headers=world["admin"]).json()["ok"] is True


def test_player_token_under_fuzzed_ids(client: TestClient, world: dict[str, Any]) -> None:
    fuzz(client, world, examples=120)


@pytest.mark.slow
def test_player_token_under_fuzzed_ids_soak(client: TestClient, world: dict[str, Any]) -> None:
    fuzz(client, world, examples=3000)
