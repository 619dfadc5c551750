"""Commander (CR 903) and designations (CR 725, 726, 731, 702.131) over HTTP, on both stores:
the create body, the state fields, the new problem codes, and what a player token may report."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem, create_game, token, version_of

CMDR = {"name": "Test Commander", "type_line": "Legendary Creature — Angel", "power": "7", "toughness": "7"}
OTHER = {"name": "Other Commander", "type_line": "Legendary Creature — Elf", "power": "1", "toughness": "1"}
BODY: dict[str, Any] = {
    "variant": "commander",
    "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
    "players": [{"id": "P1", "commanders": [CMDR]}, {"id": "P2", "commanders": [OTHER]}],
    "battlefield": [
        {"id": "theirs", "card": OTHER, "controller": "P1", "owner": "P2"},
        {"id": "bears", "card": "Grizzly Bears", "controller": "P1"},
    ],
}


def _act(client: TestClient, game: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
    return client.post(f"/v1/games/{game}/actions", json=body, headers=headers)


def test_cr_903_a_commander_game_over_http(client: TestClient, admin_headers: dict[str, str]) -> None:
    response = client.post("/v1/games", json=BODY, headers=admin_headers)
    assert response.status_code == 201, response.text
    state = response.json()["state"]
    p1 = state["players"]["P1"]
    assert p1["life"] == 40 and p1["commanders"] == ["Test Commander"]  # 903.7
    assert [c["name"] for c in p1["command"]] == ["Test Commander"] and p1["commander_tax"] == {"Test Commander": 0}
    assert state["players"]["P2"]["command"] == []  # P2's commander is on the battlefield
    assert (state["monarch"], state["initiative"], state["day_night"]) == (None, None, None)
    assert p1["dungeon"] is None and p1["city_blessing"] is False and p1["commander_damage"] == {}
    game = response.json()["game_id"]
    cast = _act(client, game, {"type": "cast", "player": "P1", "card": CMDR, "from": "command"}, admin_headers)
    assert cast.status_code == 201, cast.text
    assert cast.json()["events"][0]["data"]["commander_tax"] == 0
    assert cast.json()["state"]["players"]["P1"]["commander_tax"] == {"Test Commander": 2}  # 903.8


def test_the_new_refusals_are_problems_that_store_nothing(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers, BODY)
    before = version_of(client, game, admin_headers)
    assert_problem(
        _act(client, game, {"type": "move", "permanent": "bears", "to": "command"}, admin_headers),
        422,
        "not_a_commander",
    )
    _act(client, game, {"type": "designate", "designation": "monarch", "player": "P1"}, admin_headers)
    again = _act(client, game, {"type": "designate", "designation": "monarch", "player": "P1"}, admin_headers)
    assert_problem(again, 422, "already_designated")
    assert_problem(
        _act(client, game, {"type": "designate", "designation": "monarch"}, admin_headers), 400, "missing_field"
    )
    odd = {"type": "move", "player": "P1", "card": "Test Commander", "from": "hand", "to": "command"}
    assert_problem(_act(client, game, odd, admin_headers), 400, "invalid_zone")
    assert version_of(client, game, admin_headers) == before + 1  # only the first designation
    one = {**BODY, "players": BODY["players"][:1], "battlefield": []}
    assert_problem(client.post("/v1/games", json=one, headers=admin_headers), 400, "invalid_players")


def test_a_player_token_reports_only_its_own_designations_and_commanders(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    game = create_game(client, admin_headers, BODY)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    other = _act(client, game, {"type": "designate", "designation": "monarch", "player": "P2"}, p1)
    assert_problem(other, 403, "not_your_player")
    assert _act(client, game, {"type": "designate", "designation": "monarch", "player": "P1"}, p1).status_code == 201
    assert _act(client, game, {"type": "designate", "designation": "day"}, p1).status_code == 201  # it was neither
    assert_problem(_act(client, game, {"type": "designate", "designation": "night"}, p1), 403, "forbidden")
    # P1 controls P2's commander; its owner chooses where it goes (903.9), not its controller.
    assert_problem(
        _act(client, game, {"type": "move", "permanent": "theirs", "to": "command"}, p1), 403, "not_your_permanent"
    )
    moved = _act(client, game, {"type": "move", "permanent": "theirs", "to": "command"}, p2)
    assert moved.status_code == 201, moved.text
    assert [c["name"] for c in moved.json()["state"]["players"]["P2"]["command"]] == ["Other Commander"]


def test_commander_damage_and_the_undo_of_it_over_http(client: TestClient, admin_headers: dict[str, str]) -> None:
    body = {**BODY, "battlefield": [{"id": "cmdr", "card": CMDR, "controller": "P1"}]}
    game = create_game(client, admin_headers, body)
    hit = {"type": "damage", "target": {"player": "P2"}, "amount": 21, "source": "cmdr", "combat": True}
    state = _act(client, game, hit, admin_headers).json()["state"]
    assert state["players"]["P2"]["lost"] and state["players"]["P2"]["loss_reason"] == "CR 704.6c"
    assert state["players"]["P2"]["commander_damage"] == {"P1:Test Commander": 21}
    undone = client.post(
        f"/v1/games/{game}/undo", json={"actions": 1, "reason": "wrong creature"}, headers=admin_headers
    )
    assert undone.status_code == 201, undone.text
    assert undone.json()["state"]["players"]["P2"]["commander_damage"] == {}
    assert client.get(f"/v1/games/{game}/verify", headers=admin_headers).json()["ok"] is True
