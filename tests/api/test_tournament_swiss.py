"""A 64-player Swiss event of 6 rounds and a top 8, run end to end through the API with a seeded
random results generator (issue 31, Done when): no rematches, at most one bye per player,
standings equal to an independent computation of MTR Appendix C's tiebreakers, a replay of the
event's log pairs the same tables, the games of each round created with their table numbers and
the registered players, and the record's hash chain verifies. On SQLite and PostgreSQL.

The tiebreakers computed here by hand, on paper, for an 8-player event are in
tests/tournament/test_standings_by_hand.py (the kernel's test); ``independent_standings`` of
tests/api/tournament_client.py is the same arithmetic written again, independently of the kernel.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from fastapi.testclient import TestClient

from domain.tournament import EMPTY, RoundPaired, TopCutPaired, entrants, evolve, parse_event, swiss_pairings
from tests.api.tournament_client import Results, Scorekeeper, independent_standings


def _four(value: Fraction) -> float:
    return round(float(value), 4)


def test_a_64_player_swiss_event_and_its_top_8_run_through_the_api(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk = Scorekeeper(client, admin_headers, "GP-64")
    sk.create(rounds=None, top_cut=8, round_minutes=50)
    players = sk.register(*(f"Player {i:02d}" for i in range(1, 65)))
    assert players == [f"p{i}" for i in range(1, 65)]
    results = Results(seed=31)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in range(1, 7):
        rnd = sk.post("/rounds", {})
        assert rnd["round"] == number and rnd["top_cut"] is False
        assert isinstance(rnd["seed"], int)
        assert [t["table"] for t in rnd["tables"]] == list(range(1, len(rnd["tables"]) + 1))
        for table in rnd["tables"]:
            pair = frozenset(table["players"])
            assert pair not in met, f"rematch in round {number}: {sorted(pair)}"
            met.add(pair)
            assert table["games"] == [f"GP-64.r{number}.t{table['table']}.g1"]
        byes += rnd["byes"]
        if number == 1:
            # One registered player is one player of the game, by id and name, whatever the seat.
            game = client.get(f"/v1/games/{rnd['tables'][0]['games'][0]}", headers=admin_headers).json()
            seated = {pid: p["name"] for pid, p in game["state"]["players"].items()}
            assert seated == dict(zip(rnd["tables"][0]["players"], rnd["tables"][0]["names"], strict=True))
            assert game["state"]["tournament"] == {
                "event": "GP-64",
                "round": 1,
                "table": 1,
                "rel": "regular",
                "best_of": 3,
            }
        results.play_round(sk, rnd)
        if number == 2:
            # MTR 2.10: a drop; 63 players from round 3 on, so there are byes.
            sk.post(f"/players/{players[-1]}/drop", {"reason": "went home"})
    assert len(byes) == len(set(byes)) == 4  # rounds 3-6, never twice to one player
    view = sk.get()
    assert view["rounds_planned"] == 6  # MTR Appendix E: 33-64 players, 6 rounds
    expected = independent_standings(view)
    got = view["standings"]
    assert [s["player_id"] for s in got] == [r[0] for r in expected]
    for line, (_, points, omw, gw, ogw) in zip(got, expected, strict=True):
        assert (line["points"], line["omw"], line["gw"], line["ogw"]) == (points, _four(omw), _four(gw), _four(ogw))
    assert sk.get("/standings") == {"round": 6, "standings": got}

    # The top 8, seeded from the Swiss standings (1v8, 4v5, 2v7, 3v6), players still in the event.
    seeds = [s["player_id"] for s in got if not s["dropped"]][:8]
    cut = sk.post("/top_cut", {})
    assert cut["top_cut"] is True and cut["cut"] == 8
    assert [t["players"] for t in cut["tables"]] == [
        [seeds[0], seeds[7]],
        [seeds[3], seeds[4]],
        [seeds[1], seeds[6]],
        [seeds[2], seeds[5]],
    ]
    while True:
        for table in cut["tables"]:
            a, b = table["players"]
            sk.result(cut["round"], table["table"], {a: 2, b: 1})
        if cut["cut"] == 2:
            break
        cut = sk.post("/top_cut", {})
    assert sk.get()["champion"] == seeds[0]  # the higher seed won every match
    _assert_the_log_replays_its_pairings(sk.get("/record"))
    assert sk.get("/verify")["ok"] is True
    # The standings do not move with the top cut (ranked by the bracket, not Appendix C).
    assert sk.get("/standings")["standings"] == got


def _assert_the_log_replays_its_pairings(record: list[dict[str, Any]]) -> None:
    """Folding the stored events, the pairing of each round's state with its recorded seed gives
    the stored tables and bye again (the randomness is the seed in the event)."""
    state = EMPTY
    paired = 0
    for entry in record:
        event = parse_event(entry["type"], entry["data"])
        if isinstance(event, RoundPaired):
            again = swiss_pairings(entrants(state), event.seed)
            assert [list(t) for t in again.tables] == [p["players"] for p in event.pairings]
            assert ([again.bye] if again.bye else []) == event.byes
            paired += 1
        elif isinstance(event, TopCutPaired):
            assert event.pairings
        state = evolve(state, event)
    assert paired == 6
    assert [e["version"] for e in record] == list(range(1, len(record) + 1))
    assert all(e["prev_hash"] == p["hash"] for p, e in itertools.pairwise(record))
