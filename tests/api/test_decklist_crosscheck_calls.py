"""The decklist cross-check opens real judge calls (issue 42; docs/judges.md, docs/tournaments.md
Decklists): a card a tournament game's record names as a player's that is not on their
registered list (MTR 2.x decklists; a judge decides, IPG 3.5) is a ``JudgeCallOpened`` in that
game, naming the player, the card and the game version that showed it, by the "decklist
cross-check" actor; it is on the judges' page (``GET /v1/judge-calls``). Exactly once per (game,
player, card): a later write, a restarted process (its memory gone) and a racing worker (a stale
state) open no second call. A card on the list, or an event without decklists, opens none."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import schemas_decklists as out
from api.app import create_app
from api.catalog_store import import_scryfall
from api.settings import Settings
from domain.commands.judging import CallJudge
from domain.judging import MAX_OPEN_CALLS
from ledger.decklist_calls import CALLER, CrossCheckCalls
from ledger.service import LedgerService
from store.results import Actor
from tests.api.test_decklists_http import LIST, _event, _play, _submit
from tests.tournament.decklist_cards import ENTRIES


@pytest.fixture
def client(settings: Settings, tmp_path: Path) -> Iterator[TestClient]:
    """A server whose catalog has the test cards (as ``tests/api/test_decklists_http.py``'s)."""
    source = tmp_path / "scryfall.json"
    source.write_text(json.dumps(ENTRIES), encoding="utf-8")
    assert settings.catalog_path is not None
    import_scryfall(source, settings.catalog_path)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _service(client: TestClient) -> LedgerService:
    service: LedgerService = client.app.state.service  # type: ignore[attr-defined]
    return service


def _first_game(client: TestClient, headers: dict[str, str], tid: str, lists: bool) -> tuple[str, str, Any]:
    sk = _event(client, headers, tid)
    if lists:
        for player in ("p1", "p2"):
            assert _submit(client, tid, player, LIST, headers).status_code == 201
    table = sk.post("/rounds", {"seed": 1})["tables"][0]
    game, caster = table["games"][0], table["players"][0]
    for _ in range(3):  # untap, upkeep, draw: to the first main phase
        _play(client, headers, game, {"type": "advance"})
    return game, caster, sk


def _calls(client: TestClient, headers: dict[str, str], game: str) -> list[dict[str, Any]]:
    state = client.get(f"/v1/games/{game}", headers=headers).json()["state"]
    calls: list[dict[str, Any]] = state["judging"]["calls"]
    return calls


def test_a_card_not_on_the_list_opens_one_judge_call(client: TestClient, admin_headers: dict[str, str]) -> None:
    h = admin_headers
    game, caster, sk = _first_game(client, h, "XC1", lists=True)
    _play(client, h, game, {"type": "play_land", "player": caster, "card": "Mountain"})  # on the list
    assert _calls(client, h, game) == []
    cast = _play(client, h, game, {"type": "cast", "player": caster, "card": "Counterspell"})
    [call] = _calls(client, h, game)
    assert call["open"] is True and call["called_by"] == CALLER
    assert "Counterspell" in call["question"] and caster in call["question"] and "Player 1" in call["question"]
    assert f"game version {cast['version']}" in call["question"]  # the version that showed it
    # The players read the game's calls and the list is private until published: the question
    # asks a judge to compare, it never says what the list holds (issue 42, Privacy).
    assert "not on" not in call["question"] and "registered list" in call["question"]
    events = client.get(f"/v1/games/{game}/events", params={"after": cast["version"]}, headers=h).json()
    opened = [e for e in events["events"] if e["type"] == "JudgeCallOpened"]
    assert [(e["actor"]["name"], e["actor"]["role"]) for e in opened] == [(CALLER, "scorekeeper")]

    # The judges' page lists it; the floor view's mismatch names it.
    _service(client).wait_for_read_model()
    page = client.get("/v1/judge-calls", params={"event": "XC1"}, headers=h).json()
    assert [(c["game_id"], c["call"]) for c in page["calls"]] == [(game, call["call"])]
    found = out.MismatchesOut.model_validate(sk.get("/decklists/mismatches")).mismatches
    assert [(m.card, m.version, m.call) for m in found] == [("Counterspell", cast["version"], call["call"])]

    # The same mismatch again: a later write, a restart (a new process's memory), a racing worker
    # that decided on the state before the call: none opens a second one.
    _play(client, h, game, {"type": "cast", "player": caster, "card": "Counterspell"})
    service = _service(client)
    restarted = CrossCheckCalls(service.decklist_service, service.crosscheck_calls._open_call)
    restarted.after_write(game, service.state_at(game)[1])
    racing = CrossCheckCalls(service.decklist_service, service.crosscheck_calls._open_call)
    racing.after_write(game, service.state_at(game, cast["version"])[1])
    assert [c["called_by"] for c in _calls(client, h, game)] == [CALLER]

    # The record with the call still verifies, exports and imports (its actor is one that records).
    assert client.get(f"/v1/games/{game}/verify", headers=h).json()["ok"] is True
    assert service.verify_export(service.export(game)).ok  # what an import checks (``check_as_written``)


def test_no_call_without_decklists(client: TestClient, admin_headers: dict[str, str]) -> None:
    h = admin_headers
    game, caster, _ = _first_game(client, h, "XC2", lists=False)
    _play(client, h, game, {"type": "cast", "player": caster, "card": "Counterspell"})
    assert _calls(client, h, game) == []
    # The early return: a game of an event without decklists is not even read again.
    assert game not in _service(client).decklist_service._scans


def test_the_open_calls_cap_is_the_cross_checks_own(client: TestClient, admin_headers: dict[str, str]) -> None:
    """``MAX_OPEN_CALLS`` counts per caller: the cross-check's open calls never use up a
    player's; a call over its own cap waits (the player's action stands) and is opened at the
    game's first write after a judge answers one."""
    h = admin_headers
    game, caster, _ = _first_game(client, h, "XC3", lists=True)
    service = _service(client)
    for n in range(MAX_OPEN_CALLS):  # the cross-check's cap, filled
        service.act(game, CallJudge(CALLER, f"earlier {n}"), Actor(CALLER, "scorekeeper"))
    _play(client, h, game, {"type": "cast", "player": caster, "card": "Counterspell"})
    assert not [c for c in _calls(client, h, game) if "Counterspell" in c["question"]]  # it waits
    mine = client.post(f"/v1/games/{game}/judge-calls", json={"called_by": caster, "question": "?"}, headers=h)
    assert mine.status_code == 201, mine.text  # the player's own call is not blocked
    answered = client.post(f"/v1/games/{game}/judge-calls/call-1/ruling", json={"ruling": "ok"}, headers=h)
    assert answered.status_code == 201, answered.text
    waited = [c for c in _calls(client, h, game) if "Counterspell" in c["question"]]
    assert [(c["called_by"], c["open"]) for c in waited] == [(CALLER, True)]


def test_a_failed_check_never_fails_the_action_and_the_next_write_opens_the_call(
    client: TestClient, admin_headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check runs after the action is stored: if it fails (the store went away, the process
    died), the action stands, and the game's next write opens the call it missed."""
    h = admin_headers
    game, caster, _ = _first_game(client, h, "XC4", lists=True)
    calls = _service(client).crosscheck_calls
    working = calls._open_call

    def broken(*args: Any) -> Any:
        raise RuntimeError("the store went away")

    monkeypatch.setattr(calls, "_open_call", broken)
    _play(client, h, game, {"type": "cast", "player": caster, "card": "Counterspell"})  # stored: 201
    assert _calls(client, h, game) == []
    monkeypatch.setattr(calls, "_open_call", working)
    _play(client, h, game, {"type": "gain_life", "player": caster, "amount": 1})
    assert [c["called_by"] for c in _calls(client, h, game)] == [CALLER]
