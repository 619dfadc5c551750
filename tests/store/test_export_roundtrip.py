"""Issue 33, finding 1: every record the live server writes imports again, and ``verify FILE``
calls it authentic (docs/audit.md). Each kind of game the suite makes is played over HTTP (so
the tokens, player links and reports are the live server's own), exported, verified and
imported into an empty database of the same kind (both stores).

Before the fix three kinds failed: a game ended by a Game Loss, Match Loss or Disqualification
(IPG 1.1: ``PlayerLost`` with reason ``penalty`` was refused), a player link whose token name is
over 200 characters (a long player name, id and game id), and a report whose summary is over
10,000 characters (a player's proliferate over 150 of an opponent's permanents)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from domain.commands.bodies.text import MAX_STRING
from tests.api.helpers import TWO_PLAYER, create_game, token
from tests.conftest import ADMIN_TOKEN

Headers = dict[str, str]
Play = Callable[[TestClient, Headers], str]
ADMIN: Headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def _ok(response: Any) -> Any:
    assert response.status_code in (200, 201), response.text
    return response.json()


def _act(client: TestClient, game: str, body: dict[str, Any], headers: Headers) -> Any:
    return _ok(client.post(f"/v1/games/{game}/actions", json=body, headers=headers))


def _players(client: TestClient, game: str) -> tuple[Headers, Headers]:
    return (
        token(client, ADMIN, "player", game_id=game, player_id="P1"),
        token(client, ADMIN, "player", game_id=game, player_id="P2"),
    )


# -- the kinds of game ---------------------------------------------------------------------------
def _two_player_actions(client: TestClient, admin: Headers) -> str:
    game = create_game(client, admin)
    _act(client, game, {"type": "advance", "to": "precombat_main"}, admin)
    _act(client, game, {"type": "resolve"}, admin)
    _act(client, game, {"type": "tap", "permanent": "thopter"}, admin)
    return game


def _penalty(kind: str) -> Play:
    def play(client: TestClient, admin: Headers) -> str:
        game = create_game(client, admin)
        judge = token(client, admin, "judge")
        body = {"player": "P1", "section": "2.3", "penalty": kind, "reason": "drew an extra card"}
        assert (
            _ok(client.post(f"/v1/games/{game}/penalties", json=body, headers=judge))["state"]["status"] == "finished"
        )
        return game

    play.__name__ = f"ended_by_{kind.lower().replace(' ', '_')}"
    return play


def _concede(client: TestClient, admin: Headers) -> str:
    game = create_game(client, admin)
    p1, _ = _players(client, game)
    assert _act(client, game, {"type": "concede", "player": "P1"}, p1)["state"]["status"] == "finished"
    return game


def _lethal_damage_reported_by_a_player(client: TestClient, admin: Headers) -> str:
    game = create_game(client, admin)
    p1, _ = _players(client, game)
    done = _act(client, game, {"type": "damage", "target": {"player": "P2"}, "amount": 20, "source": "a bolt"}, p1)
    assert done["state"]["status"] == "finished"
    return game


def _poison(client: TestClient, admin: Headers) -> str:
    game = create_game(client, admin)
    poison = {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 10}
    assert _act(client, game, poison, admin)["state"]["status"] == "finished"
    return game


def _reports_acknowledged_and_disputed(client: TestClient, admin: Headers) -> str:
    game = create_game(client, admin)
    p1, p2 = _players(client, game)
    judge = token(client, admin, "judge")
    poison = {"type": "add_counters", "target": {"player": "P2"}, "kind": "poison", "amount": 1}
    first = _act(client, game, poison, p1)["state"]["unacknowledged"][0]["report"]
    _ok(client.post(f"/v1/games/{game}/acknowledge", json={"report": first}, headers=p2))
    second = _act(client, game, poison, p1)["state"]["unacknowledged"][0]["report"]
    _ok(client.post(f"/v1/games/{game}/dispute", json={"report": second, "reason": "no such card"}, headers=p2))
    _ok(client.post(f"/v1/games/{game}/judge-calls/call-1/ruling", json={"ruling": "it stands"}, headers=judge))
    third = _act(client, game, poison, p1)["state"]["unacknowledged"][-1]["report"]
    _ok(client.post(f"/v1/games/{game}/acknowledge", json={"report": third}, headers=judge))
    return game


def _judge_records_and_undo(client: TestClient, admin: Headers) -> str:
    game = create_game(client, admin)
    p1, _ = _players(client, game)
    judge = token(client, admin, "judge")
    _ok(client.post(f"/v1/games/{game}/judge-calls", json={"question": "may I?"}, headers=p1))
    _ok(client.post(f"/v1/games/{game}/judge-calls/call-1/ruling", json={"ruling": "yes"}, headers=judge))
    _ok(client.post(f"/v1/games/{game}/time-extensions", json={"minutes": 3, "reason": "ruling"}, headers=judge))
    _ok(client.post(f"/v1/games/{game}/deck-checks", json={"players": ["P1"], "result": "legal"}, headers=judge))
    _act(client, game, {"type": "note", "text": "a judge's note"}, judge)
    warning = {"player": "P2", "section": "2.3", "penalty": "Warning", "reason": "looked at a card"}
    _ok(client.post(f"/v1/games/{game}/penalties", json=warning, headers=judge))
    _act(client, game, {"type": "tap", "permanent": "thopter"}, admin)
    _ok(client.post(f"/v1/games/{game}/undo", json={"actions": 1, "reason": "misplay"}, headers=judge))
    _act(client, game, {"type": "tap", "permanent": "thopter"}, admin)  # done again
    return game


def _long_player_link_names(client: TestClient, admin: Headers) -> str:
    body = {
        **TWO_PLAYER,
        "players": [
            {**TWO_PLAYER["players"][0], "id": "P1", "name": "A" * 200},
            {**TWO_PLAYER["players"][1], "id": "P2", "name": "B" * 200},
        ],
    }
    game = _ok(client.post("/v1/games", json=body, headers=admin))["game_id"]
    links = _ok(client.post(f"/v1/games/{game}/player-links", json={}, headers=admin))["links"]
    p1 = {"Authorization": f"Bearer {links[0]['token']}"}
    _act(client, game, {"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 1}, p1)
    return game


def _long_report_summary(client: TestClient, admin: Headers) -> str:
    body = {
        **TWO_PLAYER,
        "battlefield": [
            {
                "id": f"a-permanent-with-a-long-id-for-the-summary-{i:03}",
                "card": "Ornithopter",
                "controller": "P2",
                "counters": {"+1/+1": 1},
            }
            for i in range(300)
        ],
    }
    game = _ok(client.post("/v1/games", json=body, headers=admin))["game_id"]
    p1, _ = _players(client, game)
    choose = [{"permanent": f"a-permanent-with-a-long-id-for-the-summary-{i:03}"} for i in range(300)]
    done = _act(client, game, {"type": "proliferate", "player": "P1", "choose": choose}, p1)
    summary = done["state"]["unacknowledged"][0]["summary"]
    assert len(summary) <= MAX_STRING  # the server writes what it reads back
    return game


def _commander(client: TestClient, admin: Headers) -> str:
    cmdr = {"name": "Test Commander", "type_line": "Legendary Creature — Angel", "power": "7", "toughness": "7"}
    other = {"name": "Other Commander", "type_line": "Legendary Creature — Elf", "power": "1", "toughness": "1"}
    body = {
        "variant": "commander",
        "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
        "players": [{"id": "P1", "commanders": [cmdr]}, {"id": "P2", "commanders": [other]}],
    }
    game = _ok(client.post("/v1/games", json=body, headers=admin))["game_id"]
    _act(client, game, {"type": "concede", "player": "P2"}, admin)
    return game


def _team_variant(variant: str, players: list[dict[str, Any]]) -> Play:
    def play(client: TestClient, admin: Headers) -> str:
        game = _ok(client.post("/v1/games", json={"variant": variant, "players": players}, headers=admin))["game_id"]
        first = players[0]["id"]
        _act(client, game, {"type": "lose_life", "player": first, "amount": 3}, admin)
        return game

    play.__name__ = variant
    return play


KINDS: list[Play] = [
    _two_player_actions,
    _penalty("Game Loss"),
    _penalty("Match Loss"),
    _penalty("Disqualification"),
    _concede,
    _lethal_damage_reported_by_a_player,
    _poison,
    _reports_acknowledged_and_disputed,
    _judge_records_and_undo,
    _long_player_link_names,
    _long_report_summary,
    _commander,
    _team_variant("two_headed_giant", [{"id": i, "team": i[0]} for i in ("A1", "A2", "B1", "B2")]),
    _team_variant("archenemy", [{"id": "B1", "team": "B"}, {"id": "B2", "team": "B"}, {"id": "A1", "team": "A"}]),
    _team_variant("multiplayer", [{"id": "P1"}, {"id": "P2"}, {"id": "P3"}]),
]


@pytest.mark.parametrize("play", KINDS, ids=lambda play: play.__name__.strip("_"))
def test_every_kind_of_game_exports_verifies_and_imports(
    two_servers: tuple[TestClient, TestClient], play: Play
) -> None:
    live, target = two_servers
    game = play(live, ADMIN)
    export = live.get(f"/v1/games/{game}/export", headers=ADMIN)
    assert export.status_code == 200, export.text
    head = _ok(live.get(f"/v1/games/{game}", headers=ADMIN))
    imported = target.post(
        "/v1/games/import", content=export.content, headers={**ADMIN, "Content-Type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    assert imported.json()["version"] == head["version"]
    assert imported.json()["state"] == head["state"]
    # ``mtg-ledger verify FILE``: the same checks, on the file
    report = target.app.state.service.verify_export(export.text.splitlines())  # type: ignore[attr-defined]
    assert report.ok and report.first_bad_version is None, report
