"""Issue 40, finding 6: a round or table in a tournament's path is written in digits. ``1.0``
(and other spellings: exponents, signs, spaces, a full-width digit) was taken as 1 by pydantic's lax reading of ``int``;
now every such spelling is ``400 invalid_request`` and stores nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem
from tests.api.tournament_client import Scorekeeper

SPELLINGS = ["1.0", "1e0", "+1", "%201", "\uff11", "1.", "0x1"]
ROUTES = [
    ("result", "/rounds/{n}/tables/{t}/result", {"wins": {}, "draws": 0}),
    ("correction", "/rounds/{n}/tables/{t}/correction", {"wins": {}, "draws": 0, "reason": "r"}),
    ("intentional draw", "/rounds/{n}/tables/{t}/intentional_draw", {}),
    ("next game", "/rounds/{n}/tables/{t}/games", {}),
    ("featured", "/rounds/{n}/tables/{t}/featured", {"featured": True}),
    ("clock", "/rounds/{n}/clock", {"action": "start"}),
]


@pytest.fixture
def paired(client: TestClient, admin_headers: dict[str, str]) -> Scorekeeper:
    sk = Scorekeeper(client, admin_headers, "NUM")
    sk.create(rounds=2)
    sk.register("Ann", "Ben")
    sk.post("/rounds", {"seed": 1})
    return sk


@pytest.mark.parametrize(("path", "body"), [r[1:] for r in ROUTES], ids=[r[0] for r in ROUTES])
def test_a_round_or_table_not_in_digits_is_refused(paired: Scorekeeper, path: str, body: dict[str, object]) -> None:
    before = paired.version()
    for spelling in SPELLINGS:
        for url in (path.format(n=spelling, t=1), path.format(n=1, t=spelling)):
            if url == path.format(n=1, t=1):
                continue
            response = paired.client.post(f"/v1/tournaments/NUM{url}", json=body, headers=paired.headers)
            assert_problem(response, 400, "invalid_request")
    assert paired.version() == before
    # written in digits, the same request reaches the route
    response = paired.client.post(f"/v1/tournaments/NUM{path.format(n=1, t=1)}", json=body, headers=paired.headers)
    assert response.status_code < 500 and response.json().get("code") != "invalid_request", response.text
