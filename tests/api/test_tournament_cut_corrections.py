"""A Swiss correction once the top cut is paired, over HTTP (issue 38 item 8): one that would
reseed the bracket is refused with problem+json ``bracket_moved_on`` and records nothing; one
that keeps the cut and its seeds is recorded (docs/tournaments.md, Results)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.tournament_client import Results, Scorekeeper


def test_a_swiss_correction_after_the_cut_is_paired(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk = Scorekeeper(client, admin_headers, "CUTFIX")
    sk.create(rounds=3, top_cut=4)
    sk.register(*(f"Player {i}" for i in range(1, 9)))
    results = Results(38)
    for _ in range(2):
        results.play_round(sk, sk.post("/rounds", {"seed": results.rng.randrange(2**32)}), draws_allowed=False)
    third = sk.post("/rounds", {"seed": 3})
    for table in third["tables"]:
        sk.result(3, table["table"], dict(zip(table["players"], (2, 0), strict=True)))
    cut = sk.post("/top_cut")
    seeds = [line["player_id"] for line in sk.get("/standings")["standings"]][:4]
    assert [t["players"] for t in cut["tables"]] == [[seeds[0], seeds[3]], [seeds[1], seeds[2]]]
    # Round 3's top table decided the first seed: the other player winning it moves the seeds.
    winner, loser = third["tables"][0]["players"]
    version, record = sk.version(), sk.get("/record")
    response = client.post(
        "/v1/tournaments/CUTFIX/rounds/3/tables/1/correction",
        json={"wins": {winner: 0, loser: 2}, "draws": 0, "reason": "slip swapped"},
        headers=admin_headers,
    )
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "bracket_moved_on"
    assert sk.version() == version and sk.get("/record") == record
    # The same winner by another score leaves the cut and its seeds as they are.
    fixed = sk.post("/rounds/3/tables/1/correction", {"wins": {winner: 2, loser: 1}, "draws": 0, "reason": "2-1"})
    assert fixed["corrections"] == 1
    assert [line["player_id"] for line in sk.get("/standings")["standings"]][:4] == seeds
