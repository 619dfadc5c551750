"""Each permanent's ``damage_effects`` in the state (issue 41): what its damage to a player does,
as the server applies it, so the web page's pending totals show the server's rules instead of a
copy of them (CR 702.90b infect, 702.15b lifelink, 903.10a a commander's combat damage)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

CMDR = {"name": "Test Commander", "type_line": "Legendary Creature — Angel", "power": "7", "toughness": "7"}
OTHER = {"name": "Other Commander", "type_line": "Legendary Creature — Elf", "power": "1", "toughness": "1"}
LINKED = {"name": "Link Knight", "type_line": "Creature — Knight", "oracle_text": "Flying, lifelink"}
BODY: dict[str, Any] = {
    "variant": "commander",
    "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
    "players": [{"id": "P1", "commanders": [CMDR]}, {"id": "P2", "commanders": [OTHER]}],
    "battlefield": [
        {"id": "cmdr", "card": CMDR, "controller": "P1"},
        {"id": "myr", "card": "Ichorclaw Myr", "controller": "P2"},
        {"id": "knight", "card": LINKED, "controller": "P2"},
        {"id": "copy", "card": CMDR, "controller": "P2", "owner": "P1", "token": True},
    ],
}


def test_damage_effects_say_what_the_server_applies(client: TestClient, admin_headers: dict[str, str]) -> None:
    created = client.post("/v1/games", json=BODY, headers=admin_headers)
    assert created.status_code == 201, created.text
    board = created.json()["state"]["battlefield"]
    effects = {pid: board[pid]["damage_effects"] for pid in ("cmdr", "myr", "knight", "copy")}
    assert effects == {
        "cmdr": {"infect": False, "lifelink": False, "commander_key": "P1:Test Commander"},
        "myr": {"infect": True, "lifelink": False, "commander_key": None},
        "knight": {"infect": False, "lifelink": True, "commander_key": None},
        "copy": {"infect": False, "lifelink": False, "commander_key": None},  # a token copy is no commander
    }
    # The same words the server acts on: the myr's damage to P1 is poison, the knight's gains P2 life.
    game = created.json()["game_id"]
    for source in ("myr", "knight"):
        body = {"type": "damage", "source": source, "target": {"player": "P1"}, "amount": 2, "combat": True}
        answer = client.post(f"/v1/games/{game}/actions", json=body, headers=admin_headers)
        assert answer.status_code == 201, answer.text
    players = answer.json()["state"]["players"]
    assert players["P1"]["counters"].get("poison") == 2 and players["P1"]["life"] == 38
    assert players["P2"]["life"] == 42
