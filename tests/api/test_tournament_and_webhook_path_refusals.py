"""Issue 33, finding 14, for the tournament and webhook routers: a control character in any of
their path parameters (a tournament's id, a player's, a round, a table, a subscription's id) is
``400 invalid_character`` before the route runs, as on the matches router; a NUL reaching
PostgreSQL's text columns was a 500. Every route of both routers, each parameter, both stores."""

from __future__ import annotations

import re

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from api.routes import tournaments, webhooks
from tests.api.helpers import assert_problem

PARAMETER = re.compile(r"\{(\w+)\}")


def _cases() -> list[tuple[str, str, str]]:
    """(method, path template, the parameter to spoil) for every parameter of every route."""
    found = []
    for router in (tournaments.router, webhooks.router):
        for route in router.routes:
            assert isinstance(route, APIRoute)
            for name in PARAMETER.findall(route.path):
                for method in sorted(route.methods):
                    found.append((method.lower(), route.path, name))
    return found


CASES = _cases()


def test_every_parameter_of_both_routers_is_covered() -> None:
    spoiled = {name for _, _, name in CASES}
    assert {"tid", "pid", "n", "t", "subscription"} <= spoiled


@pytest.mark.parametrize(("method", "path", "name"), CASES, ids=[f"{m} {p} {n}" for m, p, n in CASES])
@pytest.mark.parametrize("bad", ["a%00b", "a%09b"])
def test_a_control_character_in_a_tournament_or_webhook_path_is_400(
    client: TestClient, admin_headers: dict[str, str], method: str, path: str, name: str, bad: str
) -> None:
    filled = PARAMETER.sub(lambda m: bad if m.group(1) == name else "1", path)
    response = client.request(method, filled, json={}, headers=admin_headers)
    assert_problem(response, 400, "invalid_character")
    assert name in response.json()["detail"]
