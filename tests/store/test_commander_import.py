"""A Commander game with designations, an undo among them, exports and imports cleanly on both
stores: the creation rules (903.6, 903.7) run again on its GameStarted, every event passes the
rules audit, and every state, the undo's restored state included, is reproduced."""

from __future__ import annotations

from typing import Any

from tests.store.conftest import JUDGE, SCOREKEEPER, Store

CMDR = {"name": "Test Commander", "type_line": "Legendary Creature — Angel", "power": "7", "toughness": "7"}
OTHER = {"name": "Other Commander", "type_line": "Legendary Creature — Elf", "power": "1", "toughness": "1"}
BODY: dict[str, Any] = {
    "variant": "commander",
    "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
    "players": [
        {"id": "P1", "commanders": [CMDR], "library": [OTHER]},
        {"id": "P2", "commanders": [OTHER], "life": 30},
        {"id": "P3", "commanders": [OTHER]},
    ],
    "battlefield": [{"id": "bears", "card": "Grizzly Bears", "controller": "P1"}],
}


def test_a_commander_game_with_designations_exports_and_imports_cleanly(store: Store) -> None:
    service = store.service(snapshot_interval=3)
    service.create_game(BODY, SCOREKEEPER, "c1")
    for body in (
        {"type": "cast", "player": "P1", "card": CMDR, "from": "command"},
        {"type": "resolve"},
        {"type": "designate", "designation": "monarch", "player": "P2"},
        {"type": "designate", "designation": "initiative", "player": "P1"},
        {"type": "resolve"},
        {"type": "resolve"},
        {"type": "designate", "designation": "day"},
        {"type": "designate", "designation": "city_blessing", "player": "P3"},
    ):
        service.act("c1", body, SCOREKEEPER)
    state = service.state_at("c1")[1]
    cmdr = next(p.id for p in state.battlefield.values() if p.card.name == "Test Commander")
    service.act(
        "c1", {"type": "damage", "target": {"player": "P2"}, "amount": 7, "source": cmdr, "combat": True}, SCOREKEEPER
    )
    service.undo("c1", to_version=None, actions=1, reason="reported on the wrong player", actor=JUDGE)
    service.act(
        "c1", {"type": "damage", "target": {"player": "P3"}, "amount": 7, "source": cmdr, "combat": True}, SCOREKEEPER
    )
    service.act("c1", {"type": "move", "permanent": cmdr, "to": "command"}, SCOREKEEPER)
    service.act("c1", {"type": "concede", "player": "P2"}, SCOREKEEPER)  # the monarch leaves (725.4)
    final = service.state_at("c1")[1]
    assert final.monarch == "P1" and final.initiative == "P1" and final.day_night == "day"
    assert dict(final.players["P3"].commander_damage) == {"P1:Test Commander": 7}
    assert final.players["P1"].commander_tax("Test Commander") == 2

    lines = list(service.export("c1"))
    other = store.sibling().service(snapshot_interval=2)
    assert other.verify_export(lines).ok
    imported = other.import_game(lines, JUDGE)
    head = service.head_version("c1")
    assert imported.version == head
    for version in range(1, head + 1):
        assert other.state_at("c1", version) == service.state_at("c1", version)
