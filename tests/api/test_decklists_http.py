"""Decklists over HTTP (issue 42; docs/api.md, Decklists): a player's event link submits its own
list, the scorekeeper sets the deadline and the lock, judges pick deck checks and see the
cross-check, lists are published after the event. Bad input (an unknown card, an over-long list,
a list after the deadline or the lock) is problem+json with its code and stores nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import schemas_decklists as out
from api.app import create_app
from api.catalog_store import import_scryfall
from api.settings import Settings
from tests.api.helpers import assert_problem
from tests.api.tournament_client import Scorekeeper
from tests.tournament.decklist_cards import ENTRIES

BURN = "4 Lightning Bolt\n4 Goblin Guide\n4 Monastery Swiftspear\n4 Lava Spike\n4 Skewer the Critics\n40 Mountain\n"
LIST = BURN + "\nSideboard\n4 Smash to Smithereens\n"


@pytest.fixture
def client(settings: Settings, tmp_path: Path) -> Iterator[TestClient]:
    """A server whose catalog has the test cards, imported as ``mtg-ledger cards import`` does."""
    source = tmp_path / "scryfall.json"
    source.write_text(__import__("json").dumps(ENTRIES), encoding="utf-8")
    assert settings.catalog_path is not None
    import_scryfall(source, settings.catalog_path)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _event(client: TestClient, headers: dict[str, str], tid: str, players: int = 2, **fields: Any) -> Scorekeeper:
    sk = Scorekeeper(client, headers, tid)
    sk.create(rel="competitive", rounds=1, **fields)
    sk.register(*[f"Player {i}" for i in range(1, players + 1)])
    return sk


def _link(sk: Scorekeeper, player: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {sk.post(f'/players/{player}/link')['token']}"}


def _submit(client: TestClient, tid: str, player: str, text: str, headers: dict[str, str]) -> Any:
    return client.post(f"/v1/tournaments/{tid}/decklists/{player}", json={"text": text}, headers=headers)


def test_a_player_registers_their_own_list_and_sees_only_it(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk = _event(client, admin_headers, "DL1")
    p1, p2 = _link(sk, "p1"), _link(sk, "p2")
    written = _submit(client, "DL1", "p1", LIST, p1)
    assert written.status_code == 201, written.text
    answer = out.DecklistWritten.model_validate(written.json()).model_dump()
    assert answer["main_count"] == 60 and answer["sideboard_count"] == 4 and answer["warnings"] == []
    assert answer["submitted_by"].startswith("DL1 Player 1")
    # Another player's list: not theirs to submit (403) nor to read before publication (404).
    assert_problem(_submit(client, "DL1", "p1", LIST, p2), 403, "forbidden")
    assert_problem(client.get("/v1/tournaments/DL1/decklists/p1", headers=p2), 404, "unknown_decklist")
    assert client.get("/v1/tournaments/DL1/decklists/p1", headers=p1).json()["main_count"] == 60
    seen = out.DecklistsOut.model_validate(client.get("/v1/tournaments/DL1/decklists", headers=p2).json())
    assert seen.decklists == [] and seen.submitted == ["p1"]
    assert len(sk.get("/decklists")["decklists"]) == 1  # the scorekeeper sees every list
    # A change is a second event on the record: who and when, never silent.
    _submit(client, "DL1", "p1", LIST.replace("4 Smash", "3 Smash"), p1)
    record = [r for r in sk.get("/record") if r["type"] == "DecklistSubmitted"]
    assert [r["data"].get("replaces", 0) for r in record] == [0, 1]  # left out while 0
    assert all(r["data"]["at"] and r["actor"] for r in record)


def test_an_illegal_list_is_refused_with_every_reason_and_nothing_stored(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk = _event(client, admin_headers, "DL2")
    before = sk.version()
    illegal = "4 Splinter Twin\n5 Lightning Bolt\n40 Mountain\nSideboard\n4 Duress\n12 Mountain\n"
    body = assert_problem(_submit(client, "DL2", "p1", illegal, admin_headers), 422, "decklist_illegal")
    assert body["reasons"] == [
        "the main deck has 49 cards: at least 60 (CR 100.2a)",
        "the sideboard has 16 cards: at most 15 (CR 100.4a)",
        "Splinter Twin is banned in Modern (the catalog's legalities)",
        "5 copies of Lightning Bolt: at most 4 (CR 100.2a)",
    ]
    unknown = _submit(client, "DL2", "p1", BURN + "2 Lightning Blot\n", admin_headers)
    assert assert_problem(unknown, 422, "decklist_unknown_card")["reasons"] == [
        "not in the card catalog: Lightning Blot"
    ]
    too_long = "".join(f"1 Mountain {i}\n" for i in range(251))
    assert_problem(_submit(client, "DL2", "p1", too_long, admin_headers), 400, "decklist_too_long")
    assert_problem(_submit(client, "DL2", "p1", "four bolts", admin_headers), 400, "decklist_unreadable")
    assert sk.version() == before and sk.get("/decklists")["submitted"] == []


def test_the_deadline_and_the_lock_refuse_lists_and_store_nothing(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    sk = _event(client, admin_headers, "DL3")
    p1 = _link(sk, "p1")
    sk.post("/decklists/deadline", {"deadline": "2020-01-01T10:00:00+00:00"})
    before = sk.version()
    assert_problem(_submit(client, "DL3", "p1", LIST, p1), 422, "decklist_deadline_passed")
    assert_problem(
        client.post("/v1/tournaments/DL3/decklists/deadline", json={"deadline": "tomorrow"}, headers=admin_headers),
        400,
        "invalid_time",
    )
    assert sk.version() == before
    sk.post("/decklists/deadline", {"deadline": None})
    assert _submit(client, "DL3", "p1", LIST, p1).status_code == 201
    assert sk.post("/decklists/lock", {"locked": True})["locked"] is True
    before = sk.version()
    assert_problem(_submit(client, "DL3", "p1", LIST, p1), 422, "decklists_locked")
    assert_problem(
        client.post("/v1/tournaments/DL3/decklists/lock", json={}, headers=admin_headers),
        422,
        "decklist_lock_unchanged",
    )
    assert sk.version() == before
    assert sk.post("/decklists/lock", {"locked": False})["locked"] is False


def _play(client: TestClient, headers: dict[str, str], game: str, body: dict[str, Any]) -> Any:
    response = client.post(f"/v1/games/{game}/actions", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()


def test_deck_checks_the_cross_check_and_publication(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk = _event(client, admin_headers, "DL4", players=4)
    for player in ("p1", "p2", "p3", "p4"):
        _submit(client, "DL4", player, LIST, admin_headers)
    rnd = sk.post("/rounds", {"seed": 3})
    chosen = out.PickOut.model_validate(sk.post("/deck-checks", {"round": 1, "tables": [2]}))
    assert chosen.how == "chosen" and [t.table for t in chosen.tables] == [2]
    drawn = sk.post("/deck-checks", {"round": 1, "random": 1})
    assert drawn["how"] == "random" and drawn["seed"] is not None and len(drawn["tables"]) == 1
    assert_problem(
        client.post("/v1/tournaments/DL4/deck-checks", json={"round": 1, "tables": [9]}, headers=admin_headers),
        400,
        "invalid_deck_check",
    )
    # The existing deck-check record of the table's game joins the pick.
    table = rnd["tables"][1]
    game = table["games"][0]
    checked = client.post(
        f"/v1/games/{game}/deck-checks", json={"players": table["players"], "result": "legal"}, headers=admin_headers
    )
    assert checked.status_code == 201, checked.text
    picks = out.DeckChecksOut.model_validate(sk.get("/deck-checks")).picks
    assert picks[0].tables[0].deck_checks[0]["result"] == "legal"

    # The cross-check: a card cast that is not on the caster's list is a judge call with its version.
    first = rnd["tables"][0]
    game1, caster = first["games"][0], first["players"][0]
    for _ in range(3):  # untap, upkeep, draw: to the first main phase
        _play(client, admin_headers, game1, {"type": "advance"})
    _play(client, admin_headers, game1, {"type": "play_land", "player": caster, "card": "Mountain"})
    assert sk.get("/decklists/mismatches")["mismatches"] == []
    cast = _play(client, admin_headers, game1, {"type": "cast", "player": caster, "card": "Counterspell"})
    found = out.MismatchesOut.model_validate(sk.get("/decklists/mismatches")).mismatches
    assert [(m.player, m.card, m.what, m.game_id) for m in found] == [(caster, "Counterspell", "cast", game1)]
    assert found[0].version == cast["version"]  # the game version that showed it

    # Publication waits for the event's end; then lists are public and exported.
    assert_problem(
        client.post("/v1/tournaments/DL4/decklists/publish", json={}, headers=admin_headers), 422, "event_not_over"
    )
    for t in rnd["tables"]:
        a, b = t["players"]
        sk.result(1, t["table"], {a: 2, b: 0})
    published = out.PublishedOut.model_validate(sk.post("/decklists/publish", {"scope": "all"}))
    assert [d.player for d in published.decklists] == ["p1", "p2", "p3", "p4"]
    anyone = client.get("/v1/tournaments/DL4/public/decklists", headers=_link(sk, "p2"))
    assert len(anyone.json()["decklists"]) == 4
    csv = client.get("/v1/tournaments/DL4/decklists.csv", headers=admin_headers).text.splitlines()
    assert csv[0] == "player,name,section,count,card" and csv[1] == "p1,Player 1,main,4,Lightning Bolt"
    assert_problem(
        client.post("/v1/tournaments/DL4/decklists/publish", json={}, headers=admin_headers),
        422,
        "decklists_already_published",
    )


def test_publishing_the_top_cuts_lists_only(client: TestClient, admin_headers: dict[str, str]) -> None:
    """``{"scope": "top_cut"}`` publishes the lists of the players who made the cut, in seed order;
    the rest stay private (issue 42, Publication and Privacy)."""
    sk = _event(client, admin_headers, "DL5", players=4, top_cut=2)
    for player in ("p1", "p2", "p3", "p4"):
        _submit(client, "DL5", player, LIST, admin_headers)
    assert_problem(
        client.post("/v1/tournaments/DL5/decklists/publish", json={"scope": "top_cut"}, headers=admin_headers),
        422,
        "event_not_over",
    )
    rnd = sk.post("/rounds", {"seed": 3})
    for t in rnd["tables"]:
        a, b = t["players"]
        sk.result(1, t["table"], {a: 2, b: 0})
    final = sk.post("/top_cut")
    seeds = final["tables"][0]["players"]
    sk.result(final["round"], 1, {seeds[0]: 2, seeds[1]: 1})
    published = out.PublishedOut.model_validate(sk.post("/decklists/publish", {"scope": "top_cut"}))
    assert [d.player for d in published.decklists] == seeds
    shown = client.get("/v1/tournaments/DL5/public/decklists", headers=_link(sk, "p1")).json()
    assert [d["player"] for d in shown["decklists"]] == seeds and shown["scope"] == "top_cut"
    missed = next(p for p in ("p1", "p2", "p3", "p4") if p not in seeds)
    stranger = _link(sk, next(p for p in ("p1", "p2", "p3", "p4") if p not in (missed,)))
    assert_problem(client.get(f"/v1/tournaments/DL5/decklists/{missed}", headers=stranger), 404, "unknown_decklist")
