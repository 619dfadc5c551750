"""Issue 40, finding 1: whatever text the server accepts, its game exports verify
(``mtg-ledger verify FILE``) and import again, on both stores.

Found by the attack run, each failing before its fix:

- an event link's token is named ``<event> <player name>``, up to 265 characters, and is the
  actor of its events: import answered ``422 actor.name: 265 characters; the limit is 200`` and
  verify FILE ``first_bad_version 2``. Now the name is cut to 200 (``fit_name``) when the link
  is made, and an import still takes an older server's uncut name from a player token;
- a judge call's question or a damage source holding U+2028 or U+2029 imported, but verify
  FILE read the file with ``str.splitlines()``, which breaks lines there (NDJSON lines end at
  ``\\n`` only);
- U+0085 that came in through a roster file: import 422 and verify FILE failed (a roster file
  now refuses it as a JSON body does: ``tests/api/test_roster_files.py``).

Then a property: generated text (line and paragraph separators, C0 and C1 controls, quotes,
BOMs, astral characters, lengths about the 200-character limit) in every free-text field a
game's record takes, sent through every endpoint that takes it (game creation, actions,
judging, tokens, a tournament's roster as JSON and as a file, the event link): each request is
answered 2xx or a 4xx problem, never a 5xx, and the games' exports then verify as a file and
import with the same state."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger.tournament_exports
import ledger.tournament_facade
from api.cli_records import _read_lines
from tests.api.helpers import TWO_PLAYER, token
from tests.conftest import ADMIN_TOKEN

Headers = dict[str, str]
ADMIN: Headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
EXAMPLES = int(os.environ.get("MTG_LEDGER_ANY_TEXT_EXAMPLES", "15"))


def _accepted(response: Any) -> Any:
    """The body of a 2xx answer, ``None`` for a refusal (a 4xx problem); never a 5xx."""
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json"), response.text
        assert response.json()["code"], response.text
        return None
    return response.json()


def _ok(response: Any) -> Any:
    assert response.status_code in (200, 201), response.text
    return response.json()


def _bearer(secret: str) -> Headers:
    return {"Authorization": f"Bearer {secret}"}


def _round_trip(live: TestClient, target: TestClient, game: str, tmp_path: Path) -> None:
    """Export ``game``, verify the file as ``mtg-ledger verify FILE`` reads it, import it."""
    export = live.get(f"/v1/games/{game}/export", headers=ADMIN)
    assert export.status_code == 200, export.text
    path = tmp_path / f"{uuid4().hex}.ndjson"
    path.write_bytes(export.content)
    report = target.app.state.service.verify_export(_read_lines(str(path)))  # type: ignore[attr-defined]
    assert report.ok and report.first_bad_version is None, (report, export.text[:2000])
    head = _ok(live.get(f"/v1/games/{game}", headers=ADMIN))
    imported = target.post(
        "/v1/games/import", content=export.content, headers={**ADMIN, "Content-Type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    assert imported.json()["version"] == head["version"]
    assert imported.json()["state"] == head["state"]


def _event(client: TestClient, tid: str, names: list[str]) -> tuple[str, list[str]]:
    """A tournament ``tid`` of these players, round 1 paired: its game and the table's players."""
    _ok(client.post("/v1/tournaments", json={"id": tid, "name": "Event", "format": "Modern"}, headers=ADMIN))
    for name in names:
        _ok(client.post(f"/v1/tournaments/{tid}/players", json={"name": name}, headers=ADMIN))
    table = _ok(client.post(f"/v1/tournaments/{tid}/rounds", json={"seed": 1}, headers=ADMIN))["tables"][0]
    return str(table["games"][0]), list(table["players"])


# -- the cases found ------------------------------------------------------------------------------
def test_an_event_link_of_a_long_id_and_name_acts_and_its_game_exports(
    two_servers: tuple[TestClient, TestClient], tmp_path: Path
) -> None:
    live, target = two_servers
    tid = "E" * 64
    game, players = _event(live, tid, ["N" * 200, "M" * 200])
    link = _ok(live.post(f"/v1/tournaments/{tid}/players/{players[0]}/link", json={}, headers=ADMIN))
    me = _bearer(link["token"])
    _ok(live.post(f"/v1/games/{game}/judge-calls", json={"question": "may I?"}, headers=me))
    _round_trip(live, target, game, tmp_path)
    actors = [e["actor"]["name"] for e in _ok(live.get(f"/v1/games/{game}/events", headers=ADMIN))["events"]]
    assert max(len(a) for a in actors) == 200


def test_an_older_servers_uncut_event_link_name_still_imports(
    two_servers: tuple[TestClient, TestClient], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, target = two_servers
    monkeypatch.setattr(ledger.tournament_facade, "fit_name", lambda name: name)  # as before issue 40
    tid = "O" * 64
    game, players = _event(live, tid, ["N" * 200, "M" * 200])
    link = _ok(live.post(f"/v1/tournaments/{tid}/players/{players[0]}/link", json={}, headers=ADMIN))
    _ok(live.post(f"/v1/games/{game}/judge-calls", json={"question": "may I?"}, headers=_bearer(link["token"])))
    actors = [e["actor"]["name"] for e in _ok(live.get(f"/v1/games/{game}/events", headers=ADMIN))["events"]]
    assert max(len(a) for a in actors) == 265
    _round_trip(live, target, game, tmp_path)


def _c0_only(value: str, path: str, limit: int = 10_000, **_: Any) -> None:
    """The roster file's check before issue 40: C0 controls only."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise AssertionError("the test sends no C0 control")


def test_an_older_servers_c1_name_from_a_roster_file_still_imports(
    two_servers: tuple[TestClient, TestClient], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, target = two_servers
    monkeypatch.setattr(ledger.tournament_exports, "check_string", _c0_only)  # as before issue 40
    _ok(live.post("/v1/tournaments", json={"id": "OLD", "name": "Event", "format": "Modern"}, headers=ADMIN))
    roster = "name,wizards_id\nAl\u0085ice,12\u009b34\nBob,\n".encode()
    headers = {**ADMIN, "Content-Type": "text/csv"}
    _ok(live.post("/v1/tournaments/OLD/players.csv", content=roster, headers=headers))
    table = _ok(live.post("/v1/tournaments/OLD/rounds", json={"seed": 1}, headers=ADMIN))["tables"][0]
    game = table["games"][0]
    for player in table["players"]:
        link = _ok(live.post(f"/v1/tournaments/OLD/players/{player}/link", json={}, headers=ADMIN))
        gain = {"type": "gain_life", "player": player, "amount": 1}
        _ok(live.post(f"/v1/games/{game}/actions", json=gain, headers=_bearer(link["token"])))
    actors = [e["actor"]["name"] for e in _ok(live.get(f"/v1/games/{game}/events", headers=ADMIN))["events"]]
    assert "OLD Al\u0085ice" in actors
    _round_trip(live, target, game, tmp_path)


@pytest.mark.parametrize("mark", ["\u2028", "\u2029", "\u0085"])
def test_line_and_paragraph_separators_in_a_question_and_a_source(
    two_servers: tuple[TestClient, TestClient], tmp_path: Path, mark: str
) -> None:
    live, target = two_servers
    game = _ok(live.post("/v1/games", json=TWO_PLAYER, headers=ADMIN))["game_id"]
    p1 = token(live, ADMIN, "player", game_id=game, player_id="P1")
    question = live.post(f"/v1/games/{game}/judge-calls", json={"question": f"may{mark}I?"}, headers=p1)
    damage = {"type": "damage", "target": {"player": "P2"}, "amount": 1, "source": f"a{mark}bolt"}
    action = live.post(f"/v1/games/{game}/actions", json=damage, headers=p1)
    if mark == "\u0085":  # a C1 control: refused in every body
        assert (question.status_code, action.status_code) == (400, 400), (question.text, action.text)
    else:
        _ok(question)
        _ok(action)
    _round_trip(live, target, game, tmp_path)


# -- the property ---------------------------------------------------------------------------------
SPECIAL = [
    "\u2028",
    "\u2029",
    "\u0085",
    "\u009b",
    "\x00",
    "\x1b",
    "\x7f",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\ufeff",
    '"',
    "\\",
    ",",
    ";",
    "=",
    "'",
    " ",
    "\U0001f0a1",
    "\u200b",
    "\ufffd",
]
_piece = st.one_of(
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=12),
    st.sampled_from(SPECIAL),
)


@st.composite
def texts(draw: st.DrawFn) -> str:
    """Text an endpoint may or may not take: specials among random characters, some of it at
    or about the 200-character limit of names."""
    base = "".join(draw(st.lists(_piece, min_size=1, max_size=6)))
    length = draw(st.sampled_from([None, None, None, 199, 200, 201]))
    return base if length is None else (base + "L" * length)[:length]


FIELDS = (
    "player_name",
    "card_name",
    "oracle_text",
    "token_name",
    "note",
    "source",
    "question",
    "ruling",
    "dispute",
    "penalty_reason",
    "time_reason",
    "deck_result",
    "undo_reason",
    "roster_json",
    "roster_file",
    "wizards_id",
)


def _play_a_game(live: TestClient, text: dict[str, str]) -> str:
    """A game of every game-level text field, each sent where an endpoint takes it."""
    body = {
        **TWO_PLAYER,
        "players": [
            {**TWO_PLAYER["players"][0], "name": text["player_name"]},
            {
                **TWO_PLAYER["players"][1],
                "library": [{"name": text["card_name"], "type_line": "Instant", "oracle_text": text["oracle_text"]}],
            },
        ],
    }
    created = _accepted(live.post("/v1/games", json=body, headers=ADMIN))
    if created is None:
        created = _ok(live.post("/v1/games", json=TWO_PLAYER, headers=ADMIN))
    game: str = created["game_id"]
    named = _accepted(live.post("/v1/tokens", json={"name": text["token_name"], "role": "judge"}, headers=ADMIN))
    judge = _bearer(named["token"]) if named is not None else token(live, ADMIN, "judge")
    p1 = token(live, ADMIN, "player", game_id=game, player_id="P1")
    p2 = token(live, ADMIN, "player", game_id=game, player_id="P2")
    url = f"/v1/games/{game}"
    _accepted(live.post(f"{url}/actions", json={"type": "note", "text": text["note"]}, headers=judge))
    damage = {"type": "damage", "target": {"player": "P2"}, "amount": 1, "source": text["source"]}
    done = _accepted(live.post(f"{url}/actions", json=damage, headers=p1))
    if done is not None and done["state"]["unacknowledged"]:
        report = done["state"]["unacknowledged"][0]["report"]
        _accepted(live.post(f"{url}/dispute", json={"report": report, "reason": text["dispute"]}, headers=p2))
    _accepted(live.post(f"{url}/judge-calls", json={"question": text["question"]}, headers=p1))
    for call in _ok(live.get(f"{url}/judge-calls?status=open", headers=ADMIN))["calls"]:
        ruling = {"ruling": text["ruling"]}
        _accepted(live.post(f"{url}/judge-calls/{call['call']}/ruling", json=ruling, headers=judge))
    penalty = {"player": "P2", "section": "2.3", "penalty": "Warning", "reason": text["penalty_reason"]}
    _accepted(live.post(f"{url}/penalties", json=penalty, headers=judge))
    _accepted(live.post(f"{url}/time-extensions", json={"minutes": 2, "reason": text["time_reason"]}, headers=judge))
    _accepted(live.post(f"{url}/deck-checks", json={"players": ["P1"], "result": text["deck_result"]}, headers=judge))
    _ok(live.post(f"{url}/actions", json={"type": "tap", "permanent": "thopter"}, headers=ADMIN))
    _accepted(live.post(f"{url}/undo", json={"actions": 1, "reason": text["undo_reason"]}, headers=judge))
    return game


def _play_an_event(live: TestClient, text: dict[str, str]) -> list[str]:
    """A tournament whose players came in as JSON and by roster files, the games of round 1,
    and each player acting in theirs through the event link (its token named after them)."""
    tid = f"T{uuid4().hex[:8]}" + "x" * 55  # 64 characters: the longest link name
    _ok(live.post("/v1/tournaments", json={"id": tid, "name": "Event", "format": "Modern"}, headers=ADMIN))
    registered = live.post(f"/v1/tournaments/{tid}/players", json={"name": text["roster_json"]}, headers=ADMIN)
    if _accepted(registered) is None:
        _ok(live.post(f"/v1/tournaments/{tid}/players", json={"name": "Ann"}, headers=ADMIN))
    for i, row in enumerate(([text["roster_file"], ""], ["Ben", text["wizards_id"]])):
        out = io.StringIO()
        csv.writer(out).writerows([["name", "wizards_id"], row])
        headers = {**ADMIN, "Content-Type": "text/csv"}
        sent = live.post(f"/v1/tournaments/{tid}/players.csv", content=out.getvalue().encode(), headers=headers)
        if _accepted(sent) is None:
            _ok(live.post(f"/v1/tournaments/{tid}/players", json={"name": f"Cat {i}"}, headers=ADMIN))
    games = []
    for table in _ok(live.post(f"/v1/tournaments/{tid}/rounds", json={"seed": 1}, headers=ADMIN))["tables"]:
        game = table["games"][0]
        games.append(game)
        for player in table["players"]:
            link = _ok(live.post(f"/v1/tournaments/{tid}/players/{player}/link", json={}, headers=ADMIN))
            me = _bearer(link["token"])
            _accepted(live.post(f"/v1/games/{game}/judge-calls", json={"question": text["question"]}, headers=me))
            gain = {"type": "gain_life", "player": player, "amount": 1}
            _ok(live.post(f"/v1/games/{game}/actions", json=gain, headers=me))
    return games


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.fixed_dictionaries({name: texts() for name in FIELDS}))
def test_any_text_the_server_takes_exports_verifies_and_imports(
    two_servers: tuple[TestClient, TestClient], tmp_path: Path, text: dict[str, str]
) -> None:
    live, target = two_servers
    for game in [_play_a_game(live, text), *_play_an_event(live, text)]:
        _round_trip(live, target, game, tmp_path)
