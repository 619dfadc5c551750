"""Issue 33, finding 13: a player's judge calls are capped at ``MAX_OPEN_CALLS`` open ones
(``422 too_many_open_calls``, nothing stored): each call is in every answer of the game's
state, and 1,000 calls made an answer 2.2 KB -> 270 KB. A judge's ruling makes room again; the
other player's calls are theirs. Both stores (IPG 1: a player may call a judge at any time, one
call waits for its ruling)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from domain.judging import MAX_OPEN_CALLS
from tests.api.helpers import assert_problem, create_game, token, version_of


def test_a_player_has_at_most_max_open_calls(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    url = f"/v1/games/{game}/judge-calls"
    for _ in range(MAX_OPEN_CALLS):
        assert client.post(url, json={"question": "may I?"}, headers=p1).status_code == 201
    head = version_of(client, game, admin_headers)
    for _ in range(3):
        assert_problem(client.post(url, json={"question": "and now?"}, headers=p1), 422, "too_many_open_calls")
    assert version_of(client, game, admin_headers) == head
    state = client.get(f"/v1/games/{game}", headers=admin_headers).json()["state"]
    assert len(state["judging"]["calls"]) == MAX_OPEN_CALLS
    assert client.post(url, json={"question": "me too"}, headers=p2).status_code == 201  # P2's own
    judge = token(client, admin_headers, "judge")
    ruled = client.post(f"{url}/call-1/ruling", json={"ruling": "yes"}, headers=judge)
    assert ruled.status_code == 201, ruled.text
    assert client.post(url, json={"question": "once more"}, headers=p1).status_code == 201
