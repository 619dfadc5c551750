"""Helpers of the tournament API tests: a scorekeeper's calls, a seeded results generator and an
independent computation of the standings (MTR 3.1, Appendix C) from the tournament's view."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fastapi.testclient import TestClient

FLOOR = Fraction(33, 100)


@dataclass
class Scorekeeper:
    """One tournament, driven through the API as a scorekeeper would."""

    client: TestClient
    headers: dict[str, str]
    tid: str

    def post(self, path: str, body: Any = None, status: int = 201) -> Any:
        response = self.client.post(f"/v1/tournaments/{self.tid}{path}", json=body or {}, headers=self.headers)
        assert response.status_code == status, response.text
        return response.json()

    def get(self, path: str = "") -> Any:
        response = self.client.get(f"/v1/tournaments/{self.tid}{path}", headers=self.headers)
        assert response.status_code == 200, response.text
        return response.json()

    def create(self, **fields: Any) -> dict[str, Any]:
        body = {"id": self.tid, "name": f"Event {self.tid}", "format": "Modern", **fields}
        response = self.client.post("/v1/tournaments", json=body, headers=self.headers)
        assert response.status_code == 201, response.text
        out: dict[str, Any] = response.json()
        return out

    def register(self, *names: str) -> list[str]:
        return [self.post("/players", {"name": n})["player_id"] for n in names]

    def version(self) -> int:
        return int(self.get()["version"])

    def result(self, rnd: int, table: int, wins: dict[str, int], draws: int = 0) -> dict[str, Any]:
        out: dict[str, Any] = self.post(f"/rounds/{rnd}/tables/{table}/result", {"wins": wins, "draws": draws})
        return out


@dataclass
class Results:
    """A seeded random results generator: 2-0, 2-1, 1-1-1 and, now and then, an intentional draw."""

    seed: int
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def play_round(self, sk: Scorekeeper, rnd: dict[str, Any], *, draws_allowed: bool = True) -> None:
        for table in rnd["tables"]:
            a, b = table["players"]
            roll = self.rng.random()
            if draws_allowed and roll < 0.05:
                sk.post(f"/rounds/{rnd['round']}/tables/{table['table']}/intentional_draw")
            elif draws_allowed and roll < 0.12:
                sk.result(rnd["round"], table["table"], {a: 1, b: 1}, draws=1)
            else:
                winner, loser = (a, b) if self.rng.random() < 0.5 else (b, a)
                sk.result(rnd["round"], table["table"], {winner: 2, loser: self.rng.choice([0, 1])})


@dataclass
class Line:
    mp: int = 0
    rounds: int = 0
    gp: int = 0
    games: int = 0
    opponents: list[str] = field(default_factory=list)


def independent_standings(
    view: dict[str, Any], win: int = 3, draw: int = 1
) -> list[tuple[str, int, Fraction, Fraction, Fraction]]:
    """``(player, points, OMW%, GW%, OGW%)`` best first, computed here from the view's rounds
    (Swiss only): a bye is a 2-0 win with no opponent; percentages floored at 0.33."""
    lines = {p["player_id"]: Line() for p in view["players"]}
    order = {p["player_id"]: i for i, p in enumerate(view["players"])}
    for rnd in view["rounds"]:
        if rnd["top_cut"]:
            continue
        for bye in rnd["byes"]:
            line = lines[bye]
            line.mp, line.rounds, line.gp, line.games = line.mp + win, line.rounds + 1, line.gp + 6, line.games + 2
        for table in rnd["tables"]:
            result = table["result"]
            a, b = table["players"]
            wa, wb, d = result["wins"][a], result["wins"][b], result["draws"]
            for me, them, mine, theirs in ((a, b, wa, wb), (b, a, wb, wa)):
                line = lines[me]
                line.rounds += 1
                line.mp += win if mine > theirs else draw if mine == theirs else 0
                line.gp += 3 * mine + d
                line.games += wa + wb + d
                line.opponents.append(them)

    def mwp(p: str) -> Fraction:
        return max(FLOOR, Fraction(lines[p].mp, win * lines[p].rounds)) if lines[p].rounds else FLOOR

    def gwp(p: str) -> Fraction:
        return max(FLOOR, Fraction(lines[p].gp, 3 * lines[p].games)) if lines[p].games else FLOOR

    def average(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else FLOOR

    rows = [
        (p, line.mp, average([mwp(o) for o in line.opponents]), gwp(p), average([gwp(o) for o in line.opponents]))
        for p, line in lines.items()
    ]
    rows.sort(key=lambda r: (-r[1], -r[2], -r[3], -r[4], order[r[0]]))
    return rows
