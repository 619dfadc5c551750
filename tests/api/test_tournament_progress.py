"""Issue 38, items 10, 11 and 13 through the API: ``GET /v1/tournaments`` by pages (newest
first), the tournament view's ``stage``/``actions``/``swiss_complete`` (the page shows only the
actions the server accepts now), and the public view after the event: the champion, the bracket,
final standings by the top cut's outcome (docs/rules.md, Final standings after a top cut; MTR
10.4), dropped players marked."""

from __future__ import annotations

from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from api import schemas_tournaments as out
from api.routes.tournaments import MAX_PAGE
from tests.api.tournament_client import Scorekeeper


def test_the_list_pages_newest_first(client: TestClient, admin_headers: dict[str, str]) -> None:
    for tid in ("L-1", "L-2", "L-3"):
        Scorekeeper(client, admin_headers, tid).create()
    first = client.get("/v1/tournaments?limit=2", headers=admin_headers)
    assert first.status_code == 200, first.text
    page = first.json()
    TypeAdapter(out.TournamentList).validate_python(page, strict=False)
    assert [t["id"] for t in page["tournaments"]] == ["L-3", "L-2"] and page["next"] == "L-2"
    assert page["tournaments"][0]["stage"] == "registration" and page["tournaments"][0]["champion"] is None
    rest = client.get("/v1/tournaments", params={"limit": 2, "after": page["next"]}, headers=admin_headers).json()
    assert [t["id"] for t in rest["tournaments"]] == ["L-1"] and rest["next"] is None
    whole = client.get("/v1/tournaments", headers=admin_headers).json()
    assert [t["id"] for t in whole["tournaments"]] == ["L-3", "L-2", "L-1"] and whole["next"] is None
    unknown = client.get("/v1/tournaments?after=nope", headers=admin_headers)
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_tournament"
    assert unknown.headers["content-type"].startswith("application/problem+json")
    bad = client.get("/v1/tournaments?limit=0", headers=admin_headers)
    assert bad.status_code == 400 and bad.headers["content-type"].startswith("application/problem+json")


def _report_all(sk: Scorekeeper, rnd: dict[str, object]) -> None:
    for table in rnd["tables"]:  # type: ignore[attr-defined]
        a, b = table["players"]
        sk.result(rnd["round"], table["table"], {a: 2, b: 0})  # type: ignore[arg-type]


def test_the_view_follows_the_event_and_the_public_page_shows_how_it_ended(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk = Scorekeeper(client, admin_headers, "PROGRESS")
    sk.create(rounds=2, top_cut=4)
    sk.register(*(f"Player {i}" for i in range(1, 10)))
    view = sk.get()
    assert view["stage"] == "registration" and "pair_round" in view["actions"] and "start_clock" not in view["actions"]
    assert all(s["rounds"] == 0 for s in view["standings"])  # no match played: the pages show no tiebreakers
    round1 = sk.post("/rounds", {"seed": 1})
    view = sk.get()
    assert view["stage"] == "swiss"
    assert {"register", "start_clock", "report_results", "drop"} <= set(view["actions"])
    assert not {"pair_round", "pair_top_cut", "end_round"} & set(view["actions"])  # item 11
    sk.post("/rounds/1/clock", {"action": "start"})
    assert {"pause_clock", "end_round"} <= set(sk.get()["actions"])
    _report_all(sk, round1)
    sk.post("/players/p9/drop", {"reason": "went home"})
    assert "pair_round" in sk.get()["actions"] and sk.get()["swiss_complete"] == 1
    round2 = sk.post("/rounds", {"seed": 2})
    assert "register" not in sk.get()["actions"]  # the last Swiss round is paired: registration closed
    refused = client.post("/v1/tournaments/PROGRESS/players", json={"name": "Late"}, headers=admin_headers)
    assert refused.status_code == 409 or refused.status_code == 422, refused.text
    _report_all(sk, round2)
    view = sk.get()
    assert (
        view["stage"] == "swiss_finished" and "pair_top_cut" in view["actions"] and "pair_round" not in view["actions"]
    )
    swiss = [s["name"] for s in view["standings"]]
    semis = sk.post("/top_cut")
    for table in semis["tables"]:  # the lower seed wins both semifinals
        a, b = table["players"]
        sk.result(semis["round"], table["table"], {a: 0, b: 2})
    final = sk.post("/top_cut")
    a, b = final["tables"][0]["players"]
    sk.result(final["round"], 1, {a: 2, b: 1})
    view = sk.get()
    assert view["stage"] == "finished" and view["champion"] == a and view["swiss_complete"] == 2
    public = sk.get("/public")
    champion, finalist = final["tables"][0]["names"]
    assert public["champion"] == champion and public["stage"] == "finished" and public["swiss_complete"] == 2
    assert [r["cut"] for r in public["bracket"]] == [4, 2]
    assert public["bracket"][1]["tables"][0] == {
        "table": 1,
        "names": [champion, finalist],
        "wins": [2, 1],
        "winner": champion,
    }
    placed = [p["name"] for p in public["final_standings"]]
    semi_losers = sorted((t["names"][0] for t in semis["tables"]), key=swiss.index)
    assert placed[:4] == [champion, finalist, *semi_losers]  # not the Swiss order (item 13)
    assert placed[4:] == [n for n in swiss if n not in placed[:4]]
    assert [p["reached"] for p in public["final_standings"][:5]] == [1, 2, 4, 4, None]
    dropped = {p["name"]: p["dropped"] for p in public["final_standings"]}
    assert dropped["Player 9"] is True and sum(dropped.values()) == 1
    assert {s["name"]: s["dropped"] for s in public["standings"]}["Player 9"] is True
    # The finished event's answers are what the schema says (bracket, final standings included).
    TypeAdapter(out.PublicOut).validate_python(public, strict=False)
    TypeAdapter(out.TournamentOut).validate_python(view, strict=False)
    listed = client.get("/v1/tournaments", headers=admin_headers).json()["tournaments"]
    assert next(t for t in listed if t["id"] == "PROGRESS")["champion"] == champion


def test_the_list_without_limit_is_whole_as_v1_gave_it(client: TestClient, admin_headers: dict[str, str]) -> None:
    """A v1 client that knows no ``next`` asks without ``limit`` and gets every tournament, even
    more than a page holds."""
    for i in range(MAX_PAGE + 1):
        Scorekeeper(client, admin_headers, f"W-{i}").create()
    whole = client.get("/v1/tournaments", headers=admin_headers).json()
    assert len(whole["tournaments"]) == MAX_PAGE + 1 and whole["next"] is None
    paged = client.get(f"/v1/tournaments?limit={MAX_PAGE}", headers=admin_headers).json()
    assert len(paged["tournaments"]) == MAX_PAGE and paged["next"] == "W-1"
