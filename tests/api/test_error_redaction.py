"""Issue 11, finding 2: an error message never quotes a hidden zone to a caller who may not see
it (scorekeepers, players, spectators); judges and admins still get the details."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game, token

GAME: dict[str, Any] = {
    "game_id": "hidden",
    "variant": "two_player",
    "turn": {"number": 3, "active_player": "P2", "step": "precombat_main"},
    "players": [
        {"id": "P1", "library_size": 40},
        {
            "id": "P2",
            "hand": [{"name": "Dark Ritual", "type_line": "Instant"}],
            "library": ["Island", "Swamp"],
            "library_size": 30,
        },
    ],
}
HIDDEN = ("Dark Ritual", "Island", "Swamp")
REQUESTS: list[dict[str, Any]] = [
    {"type": "cast", "player": "P2", "card": {"name": "Shock", "type_line": "Instant"}, "targets": [{"player": "P1"}]},
    {"type": "cast", "player": "P2", "card": "Forest", "from": "library"},
    {"type": "cast", "player": "P2", "card": {"name": "Giant Growth", "type_line": "Instant"}, "from": "library"},
    {"type": "play_land", "player": "P2", "card": "Forest"},
    {"type": "mill", "player": "P2", "count": 1, "cards": ["Forest"]},
    {"type": "mill", "player": "P2", "count": 2, "cards": ["Island", "Forest"]},
    {"type": "mill", "player": "P2", "count": 5},
    {"type": "mill", "player": "P2", "count": 5, "nonland_count": 5},  # at most 3: the top two are lands
    # A draw from an unknown library is taken unnamed (issue 30); a wrong name is refused.
    {"type": "draw", "player": "P2", "count": 2, "cards": ["Forest", "Island"]},
]


@pytest.mark.parametrize("role", ["scorekeeper", "player"])
def test_lower_roles_never_read_hidden_cards_in_errors(
    client: TestClient, admin_headers: dict[str, str], role: str
) -> None:
    create_game(client, admin_headers, GAME)
    bound = {"game_id": "hidden", "player_id": "P2"} if role == "player" else {}
    headers = token(client, admin_headers, role, **bound)
    for body in REQUESTS:
        response = client.post("/v1/games/hidden/actions", json=body, headers=headers)
        assert response.status_code == 422, (body, response.text)
        detail = response.json()["detail"]
        assert not any(name in detail for name in HIDDEN if name not in str(body)), (body, detail)
        assert "unknown)" not in detail, detail  # how many cards are known is hidden too
    assert client.get("/v1/games/hidden", headers=admin_headers).json()["version"] == 1


def test_the_issue_messages_keep_their_code_and_public_part(client: TestClient, admin_headers: dict[str, str]) -> None:
    create_game(client, admin_headers, GAME)
    scorekeeper = token(client, admin_headers, "scorekeeper")
    shock = client.post("/v1/games/hidden/actions", json=REQUESTS[0], headers=scorekeeper)
    assert assert_problem(shock, 422, "card_not_in_hand")["detail"] == "'Shock' is not in 'P2''s hand"
    mill = client.post("/v1/games/hidden/actions", json=REQUESTS[4], headers=scorekeeper)
    detail = assert_problem(mill, 422, "illegal_choice")["detail"]
    assert detail == "mill 1: card 1 from the top of 'P2''s library is not 'Forest'"


@pytest.mark.parametrize("role", ["judge", "admin"])
def test_judges_and_admins_keep_the_details(client: TestClient, admin_headers: dict[str, str], role: str) -> None:
    create_game(client, admin_headers, GAME)
    headers = admin_headers if role == "admin" else token(client, admin_headers, "judge")
    shock = client.post("/v1/games/hidden/actions", json=REQUESTS[0], headers=headers).json()["detail"]
    assert "known hand: ['Dark Ritual']" in shock
    mill = client.post("/v1/games/hidden/actions", json=REQUESTS[4], headers=headers).json()["detail"]
    assert "it is 'Island'" in mill
