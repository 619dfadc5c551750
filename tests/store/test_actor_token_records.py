"""Issue 38: an action's actor records the token's public id (``actor.token``), an additive key:
a record with it exports, verifies and imports, the hash chain covers it (a changed id breaks the
chain), a malformed one is refused, and records without it (every record written before) read,
verify and import as they did (docs/audit.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.commands import AddCounters
from domain.errors import GameError
from domain.permissions import Grant
from ledger.service import LedgerService
from store.results import Actor

BODY = {"variant": "two_player", "players": [{"id": "P1", "name": "Alex"}, {"id": "P2", "name": "Alex"}]}
TOKEN = "0123456789abcdef"


def _game(tmp_path: Path, name: str) -> tuple[LedgerService, list[str]]:
    service = LedgerService(f"sqlite:///{tmp_path / name}")
    service.create_game(BODY, Actor("Sam", "scorekeeper"), "G1")
    p1 = Grant("Alex", "player", "G1", "P1", token_id=TOKEN)
    service.act("G1", AddCounters({"player": "P2"}, "poison", 1), p1)
    return service, list(service.export("G1"))


def test_the_token_id_is_on_the_record_and_covered_by_the_chain(tmp_path: Path) -> None:
    service, lines = _game(tmp_path, "a.sqlite3")
    with service:
        events = [json.loads(line) for line in lines[1:]]
        assert events[0]["actor"] == {"name": "Sam", "role": "scorekeeper"}  # no id: no key
        assert {e["actor"].get("token") for e in events[1:]} == {TOKEN}
        assert service.verify("G1").ok and service.verify_export(lines).ok
        forged = [*lines[:2], lines[2].replace(TOKEN, "fedcba9876543210"), *lines[3:]]
        assert not service.verify_export(forged).ok
    with LedgerService(f"sqlite:///{tmp_path / 'b.sqlite3'}") as target:
        target.import_game(lines, Actor("importer", "admin"))
        assert target.verify("G1").ok
        assert {e.actor.token for e in target.events("G1")[1:]} == {TOKEN}


def test_a_malformed_token_id_is_refused_on_import(tmp_path: Path) -> None:
    service, lines = _game(tmp_path, "c.sqlite3")
    service.close()
    bad = [line.replace(TOKEN, "not-a-token-id!!") for line in lines]
    with LedgerService(f"sqlite:///{tmp_path / 'd.sqlite3'}") as target, pytest.raises(GameError) as refused:
        target.import_game(bad, Actor("importer", "admin"))
    assert "actor.token" in refused.value.message
