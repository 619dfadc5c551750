"""Bad input to the tournament API is refused with problem+json and a stable code, and stores
nothing: the tournament's version (the length of its record) is unchanged after each refusal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem
from tests.api.tournament_client import Scorekeeper


@pytest.fixture
def paired(client: TestClient, admin_headers: dict[str, str]) -> Scorekeeper:
    """Round 1 of a 4-player event, table 1 reported, table 2 open; a top 2 announced."""
    sk = Scorekeeper(client, admin_headers, "BAD")
    sk.create(rounds=2, top_cut=2)
    sk.register("Ann", "Ben", "Cat", "Dov")
    rnd = sk.post("/rounds", {"seed": 11})
    a, b = rnd["tables"][0]["players"]
    sk.result(1, 1, {a: 2, b: 0})
    return sk


Post = Callable[[TestClient, dict[str, str]], Any]
CASES: list[tuple[str, str, dict[str, Any] | str, int, str]] = [
    ("pairing while results are missing", "/rounds", {}, 422, "results_missing"),
    ("dropping an unknown player", "/players/p99/drop", {"reason": "x"}, 404, "unknown_player"),
    ("a no-show of an unknown player", "/players/nobody/no_show", {}, 404, "unknown_player"),
    (
        "a result for a finished match",
        "/rounds/1/tables/1/result",
        {"wins": {"p1": 2}, "draws": 0},
        422,
        "match_already_reported",
    ),
    ("a result for an unknown table", "/rounds/1/tables/9/result", {"wins": {}, "draws": 0}, 404, "unknown_table"),
    ("a result for an unknown round", "/rounds/5/tables/1/result", {"wins": {}, "draws": 0}, 404, "unknown_round"),
    (
        "a result naming a player of another table",
        "/rounds/1/tables/2/result",
        {"wins": {"zz": 2}},
        400,
        "invalid_result",
    ),
    (
        "a result that can't happen (MTR 2.1)",
        "/rounds/1/tables/2/result",
        {"wins": {}, "draws": 0},
        400,
        "invalid_result",
    ),
    ("negative game wins", "/rounds/1/tables/2/result", {"wins": {"p1": -1}}, 400, "invalid_result"),
    (
        "a correction without its reason",
        "/rounds/1/tables/1/correction",
        {"wins": {}, "draws": 0},
        400,
        "missing_field",
    ),
    (
        "a correction of an open match",
        "/rounds/1/tables/2/correction",
        {"wins": {}, "draws": 1, "reason": "r"},
        422,
        "match_not_reported",
    ),
    ("a top cut before the Swiss rounds end", "/top_cut", {}, 422, "swiss_not_finished"),
    ("a clock action that doesn't exist", "/rounds/1/clock", {"action": "rewind"}, 400, "invalid_field"),
    ("pausing a clock that never started", "/rounds/1/clock", {"action": "pause"}, 422, "round_not_started"),
    ("a name with a control character", "/players", {"name": "Eve\u0007"}, 400, "invalid_character"),
    ("a name with NUL", "/players", {"name": "Eve\u0000"}, 400, "invalid_character"),
    ("an unknown field", "/players", {"name": "Eve", "seat": 1}, 422, "unknown_field"),
    ("a seed out of range", "/rounds", {"seed": 2**53}, 400, "invalid_field"),
    ("a body that is not JSON", "/players", "{not json", 400, "malformed_json"),
    ("a roster of the wrong media type", "/players.csv", "name\nEve\n", 415, "unsupported_media_type"),
]


@pytest.mark.parametrize(("path", "body", "status", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_refused_with_its_code_and_stores_nothing(
    paired: Scorekeeper, path: str, body: dict[str, Any] | str, status: int, code: str
) -> None:
    before = paired.version()
    url = f"/v1/tournaments/BAD{path}"
    if isinstance(body, str):
        response = paired.client.post(url, content=body, headers={**paired.headers, "Content-Type": "application/json"})
    else:
        response = paired.client.post(url, json=body, headers=paired.headers)
    assert_problem(response, status, code)
    assert paired.version() == before


def test_a_roster_file_with_one_bad_line_registers_no_one(paired: Scorekeeper) -> None:
    before = paired.version()
    roster = "name,wizards_id\nEve,1\nFay\u0001,2\n"
    response = paired.client.post(
        "/v1/tournaments/BAD/players.csv", content=roster, headers={**paired.headers, "Content-Type": "text/csv"}
    )
    assert_problem(response, 400, "invalid_character")
    assert paired.version() == before


@pytest.mark.parametrize(
    ("tid", "code"),
    [
        ("a/b", "invalid_tournament_id"),
        ("a.b", "invalid_tournament_id"),
        ("-x", "invalid_tournament_id"),
        ("x\u0000", "invalid_character"),
    ],
)
def test_a_tournament_id_outside_its_characters_is_refused(
    client: TestClient, admin_headers: dict[str, str], tid: str, code: str
) -> None:
    response = client.post("/v1/tournaments", json={"id": tid, "name": "N", "format": "Modern"}, headers=admin_headers)
    assert_problem(response, 400, code)
    assert client.get("/v1/tournaments", headers=admin_headers).json()["tournaments"] == []


def test_an_unknown_or_taken_tournament_id(client: TestClient, admin_headers: dict[str, str]) -> None:
    assert_problem(client.get("/v1/tournaments/nope", headers=admin_headers), 404, "unknown_tournament")
    assert_problem(
        client.post("/v1/tournaments/nope/players", json={"name": "A"}, headers=admin_headers),
        404,
        "unknown_tournament",
    )
    body = {"id": "dup", "name": "N", "format": "Modern"}
    assert client.post("/v1/tournaments", json=body, headers=admin_headers).status_code == 201
    assert_problem(client.post("/v1/tournaments", json=body, headers=admin_headers), 409, "tournament_already_created")
    assert len(client.get("/v1/tournaments/dup/record", headers=admin_headers).json()) == 1


def test_an_intentional_draw_in_the_top_cut_is_refused(client: TestClient, admin_headers: dict[str, str]) -> None:
    """MTR 2.4: "In single-elimination rounds, matches may not end in a draw"."""
    sk = Scorekeeper(client, admin_headers, "CUT")
    sk.create(rounds=1, top_cut=2)
    sk.register("A", "B")
    sk.post("/rounds", {"seed": 1})
    sk.result(1, 1, {"p1": 2, "p2": 0})
    sk.post("/top_cut")
    before = sk.version()
    assert_problem(
        sk.client.post("/v1/tournaments/CUT/rounds/2/tables/1/intentional_draw", json={}, headers=sk.headers),
        422,
        "draw_in_single_elimination",
    )
    assert_problem(
        sk.client.post(
            "/v1/tournaments/CUT/rounds/2/tables/1/result", json={"wins": {"p1": 1, "p2": 1}}, headers=sk.headers
        ),
        422,
        "draw_in_single_elimination",
    )
    assert sk.version() == before
