"""``GET /v1/judge-calls``: the open judge calls of every game, or of one event, for the judges'
page (docs/judges.md, "The judges' page"; docs/api.md). A read model (``projections.open_calls``)
kept as calls open and are answered, right after a backup too (judge records are never
reverted: ``domain.judging``), after a restart, and over several partitions. Both stores."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api.app import create_app
from api.settings import Settings
from tests.api.helpers import TWO_PLAYER, assert_problem, create_game, token
from tests.conftest import ADMIN_TOKEN

URL = "/v1/judge-calls"


def _game(
    client: TestClient, h: dict[str, str], event: str | None, table: int, names: tuple[str, str], game_id: str = ""
) -> str:
    body = copy.deepcopy(TWO_PLAYER)
    if game_id:
        body["game_id"] = game_id
    body["players"][0]["name"], body["players"][1]["name"] = names
    if event is None:
        body.pop("tournament")
    else:
        body["tournament"] = {"event": event, "round": 3, "table": table}
    return create_game(client, h, body)


def _call(client: TestClient, h: dict[str, str], game: str, question: str, called_by: str | None = "P1") -> str:
    body = {"question": question} if called_by is None else {"called_by": called_by, "question": question}
    answer = client.post(f"/v1/games/{game}/judge-calls", json=body, headers=h)
    assert answer.status_code == 201, answer.text
    opened = [e for e in answer.json()["events"] if e["type"] == "JudgeCallOpened"]
    call: str = opened[-1]["data"]["call"]
    return call


def _rule(client: TestClient, h: dict[str, str], game: str, call: str) -> None:
    answer = client.post(f"/v1/games/{game}/judge-calls/{call}/ruling", json={"ruling": "play on"}, headers=h)
    assert answer.status_code == 201, answer.text


def _open(client: TestClient, h: dict[str, str], **params: Any) -> dict[str, Any]:
    client.app.state.service.wait_for_read_model()  # type: ignore[attr-defined]
    answer = client.get(URL, params=params, headers=h)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _keys(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(c["game_id"], c["call"]) for c in body["calls"]]


def _state_open(client: TestClient, h: dict[str, str], game: str) -> list[str]:
    state = client.get(f"/v1/games/{game}", headers=h).json()["state"]
    return [c["call"] for c in state["judging"]["calls"] if c.get("open", True)]


def test_open_calls_of_every_table_newest_first_with_names(client: TestClient, admin_headers: dict[str, str]) -> None:
    h = admin_headers
    judge = token(client, h, "judge")
    a = _game(client, h, "GP-Lyon", 4, ("Alice", "Bob"))
    b = _game(client, h, "GP-Lyon", 9, ("Carol", "Dan"))
    c = _game(client, h, None, 0, ("Erin", "Frank"))
    first = _call(client, h, a, "Does my trigger still happen?")
    second = _call(client, h, b, "Is this a missed trigger?", called_by="P2")
    third = _call(client, judge, c, "Deck check please", called_by=None)  # a judge calls by their token's name
    body = _open(client, judge)
    assert body["status"] == "open" and body["event"] is None and body["read_model"] == "running"
    assert _keys(body) == [(c, third), (b, second), (a, first)]
    assert body["total"] == 3
    newest, middle, oldest = body["calls"]
    assert middle == {
        "game_id": b,
        "call": second,
        "event": "GP-Lyon",
        "round": 3,
        "table": 9,
        "called_by": "P2",
        "caller": "Dan",
        "question": "Is this a missed trigger?",
        "report": None,
        "players": ["Carol", "Dan"],
        "opened_at": middle["opened_at"],
    }
    assert oldest["caller"] == "Alice" and oldest["table"] == 4
    assert newest["caller"] == "test judge" and newest["called_by"] == "test judge" and newest["event"] is None
    assert newest["table"] is None and newest["players"] == ["Erin", "Frank"]
    assert newest["opened_at"] >= middle["opened_at"] >= oldest["opened_at"]

    # One event's floor only.
    lyon = _open(client, judge, event="GP-Lyon", status="open")
    assert _keys(lyon) == [(b, second), (a, first)] and lyon["total"] == 2 and lyon["event"] == "GP-Lyon"
    assert _open(client, judge, event="GP-Elsewhere")["calls"] == []

    # An answered call leaves the list; the others stay.
    _rule(client, judge, b, second)
    assert _keys(_open(client, judge)) == [(c, third), (a, first)]

    # ``limit`` cuts the list, ``total`` still counts them all.
    cut = _open(client, judge, limit=1)
    assert _keys(cut) == [(c, third)] and cut["total"] == 2


def test_a_dispute_lists_its_call_with_the_report(client: TestClient, admin_headers: dict[str, str]) -> None:
    h = admin_headers
    game = _game(client, h, "GP-Lyon", 2, ("Alice", "Bob"))
    p1 = token(client, h, "player", game_id=game, player_id="P1")
    p2 = token(client, h, "player", game_id=game, player_id="P2")
    hit = client.post(
        f"/v1/games/{game}/actions",
        json={"type": "damage", "target": {"player": "P2"}, "amount": 3, "source": "Shock"},
        headers=p1,
    )
    assert hit.status_code == 201, hit.text
    [report] = hit.json()["state"]["unacknowledged"]
    disputed = client.post(
        f"/v1/games/{game}/dispute", json={"report": report["report"], "reason": "it was 2"}, headers=p2
    )
    assert disputed.status_code == 201, disputed.text
    [call] = _open(client, h)["calls"]
    assert call["report"] == report["report"] and call["called_by"] == "P2" and call["caller"] == "Bob"
    assert call["question"].startswith("P2 disputes")


def test_the_list_is_right_after_a_backup(client: TestClient, admin_headers: dict[str, str]) -> None:
    """A backup never reverts a judge record (``domain.judging.with_judging``): a call opened
    after the version backed up to stays open, and one answered stays answered. The read model
    agrees with the game's state after each backup."""
    h = admin_headers
    judge = token(client, h, "judge")
    game = _game(client, h, "GP-Lyon", 5, ("Alice", "Bob"))
    start = client.get(f"/v1/games/{game}", headers=h).json()["version"]
    damage = {"type": "damage", "target": {"player": "P2"}, "amount": 3, "source": "Lightning Bolt"}
    assert client.post(f"/v1/games/{game}/actions", json=damage, headers=h).status_code == 201
    kept = _call(client, h, game, "Was the bolt right?")
    answered = _call(client, h, game, "And this one?", called_by="P2")
    _rule(client, judge, game, answered)
    assert client.post(f"/v1/games/{game}/actions", json=damage, headers=h).status_code == 201

    back = client.post(f"/v1/games/{game}/undo", json={"to_version": start, "reason": "bolts misplayed"}, headers=judge)
    assert back.status_code == 201, back.text
    assert back.json()["state"]["players"]["P2"]["life"] == 20  # the game went back...
    assert _state_open(client, h, game) == [kept]  # ...its judge records did not
    assert _keys(_open(client, judge)) == [(game, kept)]

    # Redo (an undo of the undo) changes no call either.
    redo = client.post(f"/v1/games/{game}/undo", json={"actions": 1, "reason": "redo"}, headers=judge)
    assert redo.status_code == 201, redo.text
    assert _state_open(client, h, game) == [kept]
    assert _keys(_open(client, judge)) == [(game, kept)]
    _rule(client, judge, game, kept)
    assert _open(client, judge)["calls"] == []


def test_who_may_read_the_open_calls(client: TestClient, admin_headers: dict[str, str]) -> None:
    h = admin_headers
    game = _game(client, h, "GP-Lyon", 1, ("Alice", "Bob"))
    _call(client, h, game, "?")
    for role in ("scorekeeper", "judge", "head_judge"):
        answer = client.get(URL, headers=token(client, h, role))
        assert answer.status_code == 200, (role, answer.text)
        assert answer.json()["total"] >= 0
    assert_problem(client.get(URL), 401, "unauthorized")
    assert_problem(client.get(URL, headers=token(client, h, "spectator")), 403, "forbidden")
    player = token(client, h, "player", game_id=game, player_id="P1")
    assert_problem(client.get(URL, headers=player), 403, "forbidden")


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("status=closed", "invalid_request"),
        ("status=", "invalid_request"),
        ("limit=0", "invalid_request"),
        ("limit=501", "invalid_request"),
        ("limit=ten", "invalid_request"),
        ("event=", "invalid_request"),
        (f"event={'x' * 201}", "invalid_request"),
        ("event=GP%00Lyon", "invalid_character"),
        ("evnet=GP", "unknown_parameter"),
    ],
)
def test_a_bad_query_is_problem_json(client: TestClient, admin_headers: dict[str, str], query: str, code: str) -> None:
    assert_problem(client.get(f"{URL}?{query}", headers=admin_headers), 400, code)


def test_the_endpoint_is_in_the_openapi_document(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    op = spec["paths"][URL]["get"]
    assert {p["name"] for p in op["parameters"]} == {"status", "event", "limit"}
    assert op["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/OpenCallsOut"
    }


def test_the_list_survives_a_restart(settings: Settings, admin_headers: dict[str, str]) -> None:
    """The read model keeps its rows and its position in the database: a restarted server lists
    the same calls, and goes on from there (it does not fold the log again)."""
    with TestClient(create_app(settings)) as client:
        game = _game(client, admin_headers, "GP-Lyon", 3, ("Alice", "Bob"))
        kept = _call(client, admin_headers, game, "first")
        gone = _call(client, admin_headers, game, "second")
        _rule(client, admin_headers, game, gone)
        before = _open(client, admin_headers)
    with TestClient(create_app(settings)) as client:
        after = _open(client, admin_headers)
        assert _keys(after) == [(game, kept)] and after["calls"] == before["calls"]
        _rule(client, admin_headers, game, kept)
        assert _open(client, admin_headers)["calls"] == []


def test_calls_of_every_partition_merge_newest_first(tmp_path: Path) -> None:
    urls = [f"sqlite:///{tmp_path / name}" for name in ("a.sqlite3", "b.sqlite3")]
    settings = Settings(
        _env_file=None,
        database_url=urls[0],
        partition_urls=",".join(urls),
        admin_token=SecretStr(ADMIN_TOKEN),
        catalog_path=tmp_path / "cards.json",
    )
    h = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    with TestClient(create_app(settings)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        # g1-g3 fall in the first partition, g4-g6 in the second (tests/store/test_partitions.py).
        games = [_game(client, h, "GP-Lyon", t, ("Alice", "Bob"), game_id=f"g{t}") for t in (1, 4, 2, 5, 3, 6)]
        placed = [service.partitions.all.index(service.partitions.of(g)) for g in games]
        assert placed == [0, 1, 0, 1, 0, 1], placed
        calls = [(g, _call(client, h, g, f"table {i + 1}")) for i, g in enumerate(games)]
        body = _open(client, h)
        assert _keys(body) == calls[::-1] and body["total"] == 6
        assert _keys(_open(client, h, limit=2)) == calls[::-1][:2]


def test_a_server_upgraded_to_the_read_model_lists_the_calls_made_before(tmp_path: Path) -> None:
    """A database written before this read model existed (its tables and position gone): the
    read model starts from the log's beginning and lists the calls still open."""
    import sqlite3

    path = tmp_path / "ledger.sqlite3"
    settings = Settings(
        _env_file=None,
        database_url=f"sqlite:///{path}",
        admin_token=SecretStr(ADMIN_TOKEN),
        catalog_path=tmp_path / "c.json",
    )
    h = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    with TestClient(create_app(settings)) as client:
        game = _game(client, h, "GP-Lyon", 2, ("Alice", "Bob"))
        kept = _call(client, h, game, "before the upgrade")
        _rule(client, h, game, _call(client, h, game, "answered before the upgrade"))
        before = _open(client, h)["calls"]
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE open_judge_calls")
        db.execute("DROP TABLE judge_call_games")
        db.execute("DELETE FROM tracking WHERE application_name LIKE '%#judge_call_games'")
    with TestClient(create_app(settings)) as client:
        after = _open(client, h)
        assert _keys(after) == [(game, kept)] and after["calls"] == before


def test_the_judges_page_is_served_under_the_csp(client: TestClient) -> None:
    page = client.get("/judges?event=GP-Lyon")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["content-security-policy"].startswith("default-src 'none'")
    # The judges' module alone draws the page (its modules joined into one script, and judges.css
    # in its one style sheet: api/web_assets.py).
    script = re.search(r'<script type="module" src="(/static/judges\.[0-9a-f]{12}\.js)"></script>', page.text)
    assert script and "/static/main." not in page.text
    assert "// ---- judges.js" in client.get(script[1]).text
    sheet = re.search(r'<link rel="stylesheet" href="(/static/page\.[0-9a-f]{12}\.css)">', page.text)
    assert sheet and ".judges" in client.get(sheet[1]).text
    for name in ("judges.js", "judges-page.js", "judges-calls.js", "judges.css", "judges-panel.css"):
        assert client.get(f"/static/{name}").status_code == 200, name
