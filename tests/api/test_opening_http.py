"""Issue 30 over HTTP, on both stores: a game created without a library starts as at a paper table
(CR 103.5: 53 unknown cards and 7 in hand), the random first player is the server's pick,
recorded as an event (CR 103.1), mulligans and keeps (CR 103.5) with what a player token may send,
hidden draws (CR 121.1) and the rad trigger's unnamed mill (CR 728.1). The games a tournament
creates get the paper start too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ledger.service import Actor, LedgerService, LedgerSettings
from tests.api.helpers import assert_problem, create_game, token, version_of
from tests.api.tournament_client import Scorekeeper

PAPER: dict[str, Any] = {"variant": "two_player", "players": [{"id": "P1", "name": "Ann"}, {"id": "P2", "name": "Bo"}]}


def act(client: TestClient, game: str, body: dict[str, Any], headers: dict[str, str], status: int = 201) -> Any:
    response = client.post(f"/v1/games/{game}/actions", json=body, headers=headers)
    assert response.status_code == status, response.text
    return response.json()


def sizes(state: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {pid: (p["library_size"], p["hand_size"]) for pid, p in state["players"].items()}


def test_cr_103_5_a_game_created_without_a_library_has_a_paper_start(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    response = client.post("/v1/games", json={**PAPER, "deck_size": 40}, headers=admin_headers)
    assert response.status_code == 201, response.text
    state = response.json()["state"]
    assert sizes(state) == {"P1": (33, 7), "P2": (33, 7)}  # Limited (CR 100.2b)
    p1 = state["players"]["P1"]
    assert (p1["mulligans"], p1["hand_kept"], p1["graveyard_unnamed"], state["first_player"]) == (0, False, 0, None)
    empty = client.post(
        "/v1/games", json={**PAPER, "players": [{"id": "P1", "library": []}, {"id": "P2"}]}, headers=admin_headers
    )
    assert sizes(empty.json()["state"]) == {"P1": (0, 0), "P2": (53, 7)}  # an explicit [] is still empty
    bad = client.post("/v1/games", json={**PAPER, "deck_size": 6}, headers=admin_headers)
    assert_problem(bad, 400, "invalid_field")


def test_cr_103_1_the_random_first_player_is_the_servers_pick_recorded_as_an_event(
    client: TestClient, admin_headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    picked: list[list[str]] = []

    def choice(players: list[str]) -> str:
        picked.append(list(players))
        return players[-1]

    monkeypatch.setattr("ledger.game_service.secrets.choice", choice)
    game = create_game(client, admin_headers, PAPER)
    forged = client.post(
        f"/v1/games/{game}/actions", json={"type": "choose_first_player", "drawn": "P1"}, headers=admin_headers
    )
    assert_problem(forged, 422, "unknown_field")  # a client can't pass its pick off as the server's
    out = act(client, game, {"type": "choose_first_player"}, admin_headers)
    assert picked == [["P1", "P2"]]  # drawn by the ledger among the players in the game
    event = out["events"][0]
    assert (event["type"], event["data"], event["rule"]) == (
        "FirstPlayerChosen",
        {"player": "P2", "method": "random"},
        "CR 103.1",
    )
    assert out["state"]["turn"]["active_player"] == "P2"
    assert out["state"]["first_player"] == {"player": "P2", "method": "random"}
    before = version_of(client, game, admin_headers)
    again = client.post(
        f"/v1/games/{game}/actions", json={"type": "choose_first_player", "player": "P1"}, headers=admin_headers
    )
    assert_problem(again, 422, "too_late_to_choose")
    assert version_of(client, game, admin_headers) == before


def test_cr_103_5_mulligans_from_player_tokens(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers, PAPER)
    p2 = token(client, admin_headers, "player", game_id=game, player_id="P2")
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    assert_problem(
        client.post(f"/v1/games/{game}/actions", json={"type": "mulligan", "player": "P1"}, headers=p2),
        403,
        "not_your_player",
    )
    taken = act(client, game, {"type": "mulligan", "player": "P2"}, p2)
    assert taken["events"][0]["data"] == {"player": "P2", "mulligans": 1, "hand_size": 7}
    assert taken["state"]["players"]["P2"]["mulligans"] == 1
    assert_problem(
        client.post(f"/v1/games/{game}/actions", json={"type": "advance"}, headers=p1), 422, "mulligan_pending"
    )
    kept = act(client, game, {"type": "keep_hand", "player": "P2"}, p2)
    assert kept["events"][0]["data"] == {"player": "P2", "mulligans": 1, "bottom_count": 1}
    assert kept["state"]["players"]["P2"]["hand_kept"] is True
    assert sizes(kept["state"])["P2"] == (54, 6)
    act(client, game, {"type": "choose_first_player"}, p1, status=422)  # too late: a hand was kept
    act(client, game, {"type": "advance", "to": "next_turn"}, p1)
    late = client.post(f"/v1/games/{game}/actions", json={"type": "mulligan", "player": "P1"}, headers=p1)
    assert_problem(late, 422, "too_late_to_mulligan")


def test_cr_103_1_a_player_token_may_ask_for_the_random_pick(client: TestClient, admin_headers: dict[str, str]) -> None:
    game = create_game(client, admin_headers, PAPER)
    p1 = token(client, admin_headers, "player", game_id=game, player_id="P1")
    out = act(client, game, {"type": "choose_first_player"}, p1)
    chosen = out["events"][0]["data"]
    assert chosen["method"] == "random" and chosen["player"] in ("P1", "P2")
    assert out["state"]["turn"]["active_player"] == chosen["player"]


def test_cr_121_1_and_728_1_hidden_draws_and_unnamed_mills(client: TestClient, admin_headers: dict[str, str]) -> None:
    body = {**PAPER, "turn": {"number": 3, "active_player": "P1", "step": "draw"}}
    body["players"] = [{"id": "P1", "counters": {"rad": 2}}, {"id": "P2"}]
    game = create_game(client, admin_headers, body)
    drawn = act(client, game, {"type": "draw", "player": "P2"}, admin_headers)
    assert drawn["events"][0]["data"]["unknown_count"] == 1 and sizes(drawn["state"])["P2"] == (52, 8)
    main = act(client, game, {"type": "advance"}, admin_headers)
    top = main["state"]["stack"][0]
    assert (top["needs"], top["card_count"], top["alternatives"]) == (["cards"], 2, {"cards": ["nonland_count"]})
    refused = client.post(f"/v1/games/{game}/actions", json={"type": "resolve"}, headers=admin_headers)
    assert "nonland_count" in assert_problem(refused, 422, "choice_required")["detail"]
    resolved = act(client, game, {"type": "resolve", "choices": {"nonland_count": 1}}, admin_headers)
    milled = next(e for e in resolved["events"] if e["type"] == "CardsMilled")
    assert (milled["data"]["unnamed_count"], milled["data"]["nonland_count"]) == (2, 1)
    p1 = resolved["state"]["players"]["P1"]
    assert (p1["life"], p1["counters"], p1["graveyard_unnamed"], p1["library_size"]) == (19, {"rad": 1}, 2, 51)


def test_a_tournaments_games_get_the_paper_start(client: TestClient, admin_headers: dict[str, str]) -> None:
    duel = Scorekeeper(client, admin_headers, "PS2")
    duel.create(rounds=1)
    duel.register("Ann", "Ben")
    game = duel.post("/rounds", {"seed": 1})["tables"][0]["games"][0]
    state = client.get(f"/v1/games/{game}", headers=admin_headers).json()["state"]
    assert set(sizes(state).values()) == {(53, 7)}
    pod = Scorekeeper(client, admin_headers, "PS4")
    pod.create(rounds=1, kind="commander")
    pod.register(*(f"Player {i}" for i in range(1, 5)))
    game = pod.post("/rounds", {"seed": 1})["tables"][0]["games"][0]
    state = client.get(f"/v1/games/{game}", headers=admin_headers).json()["state"]
    assert set(sizes(state).values()) == {(92, 7)}  # 100 cards less the commander (CR 903.5a)


def test_an_opening_and_an_unnamed_mill_export_and_import(tmp_path: Path) -> None:
    """The import replays every event through the rules (docs/audit.md): a paper start, a random
    first player, mulligans, a hidden draw, an unnamed rad mill and a backup over them all pass."""
    body = {**PAPER, "players": [{"id": "P1", "counters": {"rad": 2}}, {"id": "P2"}]}
    source = LedgerService(f"sqlite:///{tmp_path / 'a.sqlite3'}", LedgerSettings(read_models=False))
    target = LedgerService(f"sqlite:///{tmp_path / 'b.sqlite3'}", LedgerSettings(read_models=False))
    try:
        sam, jane = Actor("Sam", "scorekeeper"), Actor("Jane", "judge")
        source.create_game(body, sam, "paper")
        for action in (
            {"type": "choose_first_player", "player": "P1"},
            {"type": "mulligan", "player": "P2"},
            {"type": "mulligan", "player": "P2"},
            {"type": "keep_hand", "player": "P2", "bottom": ["Forest"]},
            {"type": "advance", "to": "precombat_main"},
            {"type": "resolve", "choices": {"nonland_count": 1}},
            {"type": "draw", "player": "P1"},
        ):
            source.act("paper", action, sam)
        source.undo("paper", reason="the draw was a mistake", actor=jane)
        export = list(source.export("paper"))
        imported = target.import_game(export, Actor("Admin", "admin"))
        state = target.state_at("paper")[1]
        assert imported.version == source.head_version("paper")
        assert (state.players["P1"].graveyard_unnamed, state.players["P1"].library_size) == (2, 51)
        assert (state.players["P2"].mulligans, state.players["P2"].hand_size) == (2, 5)
    finally:
        source.close()
        target.close()
