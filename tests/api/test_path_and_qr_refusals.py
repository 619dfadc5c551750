"""Issue 33, finding 14: a control character in a match route's path (an event's name, a round,
a table) and a QR text too long for a code were 500s (a NUL reaches PostgreSQL's text columns;
segno's ``DataOverflowError``): each is a 400 with a stable code, and stores nothing. Both
stores."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game, token

PATHS = [
    ("get", "/v1/events/{x}/rounds/1"),
    ("get", "/v1/events/GP/rounds/{x}"),
    ("get", "/v1/events/{x}/rounds/1/tables/1"),
    ("get", "/v1/events/GP/rounds/{x}/tables/1"),
    ("get", "/v1/events/GP/rounds/1/tables/{x}"),
    ("get", "/v1/events/{x}/rounds/1/results.json"),
    ("get", "/v1/events/{x}/rounds/1/results.csv"),
    ("post", "/v1/events/{x}/rounds/1/tables/1/confirm"),
    ("post", "/v1/events/GP/rounds/1/tables/{x}/intentional-draw"),
    ("post", "/v1/events/GP/rounds/{x}/tables/1/result"),
]


@pytest.mark.parametrize(("method", "path"), PATHS)
@pytest.mark.parametrize("bad", ["a%00b", "a%0Ab", "%7F"])
def test_a_control_character_in_a_match_path_is_400(
    client: TestClient, admin_headers: dict[str, str], method: str, path: str, bad: str
) -> None:
    response = client.request(method, path.format(x=bad), json={}, headers=admin_headers)
    assert_problem(response, 400, "invalid_character")


def test_a_qr_text_that_fits_no_code_is_400(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers)
    player = token(client, admin_headers, "player", game_id=game, player_id="P1")
    wide = "\U0001f0a1" * 1000  # 1,000 characters, 4,000 bytes in UTF-8: more than version 40 holds
    assert_problem(client.post("/v1/qr", json={"text": wide}, headers=player), 400, "qr_text_too_long")
    ascii_text = "x" * 1000  # 1,000 bytes fit
    assert client.post("/v1/qr", json={"text": ascii_text}, headers=player).status_code == 200
