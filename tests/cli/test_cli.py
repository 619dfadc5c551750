"""The ``mtg-ledger`` command line: tokens, verify, export, import, cards import (issue 4, 5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from ledger.service import Actor, LedgerService

GAME = {
    "game_id": "cli-game",
    "variant": "two_player",
    "players": [{"id": "P1", "counters": {"rad": 1}, "library": ["Forest"]}, {"id": "P2"}],
}


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", url)
    monkeypatch.setenv("MTG_LEDGER_CATALOG_PATH", str(tmp_path / "cards.json"))
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    with LedgerService(url) as service:
        service.create_game(GAME, Actor("setup", "admin"), "cli-game")
        service.act("cli-game", {"type": "gain_life", "player": "P1", "amount": 2}, Actor("setup", "admin"))
    return url


def test_token_create_prints_a_secret_that_authenticates(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["token", "create", "--name", "Jane", "--role", "judge"]) == 0
    secret = capsys.readouterr().out.strip()
    with LedgerService(db) as service:
        info = service.lookup_token(secret)
    assert info is not None and info.name == "Jane" and info.role == "judge"


def test_export_verify_and_import_round_trip(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli-game.ndjson"
    assert main(["export", "cli-game", "-o", str(out)]) == 0
    assert json.loads(out.read_text().splitlines()[0])["game_id"] == "cli-game"
    capsys.readouterr()
    assert main(["verify", "cli-game"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["verify", str(out)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "ok": True,
        "events": 2,
        "head": json.loads(out.read_text().splitlines()[0])["head"],
        "first_bad_version": None,
    }
    # Importing into the same store: the id is taken.
    assert main(["import", str(out)]) == 2
    assert "game_exists" in capsys.readouterr().err


def test_verify_names_a_tampered_export_line(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.ndjson"
    main(["export", "cli-game", "-o", str(out)])
    text = out.read_text().replace('"amount":2', '"amount":3')
    out.write_text(text)
    capsys.readouterr()
    assert main(["verify", str(out)]) == 1
    assert json.loads(capsys.readouterr().out)["first_bad_version"] == 2


def test_import_into_another_store(db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "y.ndjson"
    main(["export", "cli-game", "-o", str(out)])
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", other)
    assert main(["import", str(out)]) == 0
    with LedgerService(other) as service:
        version, state = service.state_at("cli-game")
    assert version == 2 and state.players["P1"].life == 22


SCRYFALL = [
    {
        "object": "card",
        "name": "Walking Ballista",
        "layout": "normal",
        "mana_cost": "{X}{X}",
        "type_line": "Artifact Creature — Construct",
        "oracle_text": (
            "Walking Ballista enters with X +1/+1 counters on it.\n{4}: Put a +1/+1 counter on Walking Ballista."
        ),
        "power": "0",
        "toughness": "0",
        "colors": [],
    },
    {
        "object": "card",
        "name": "Delver of Secrets // Insectile Aberration",
        "layout": "transform",
        "card_faces": [
            {
                "name": "Delver of Secrets",
                "mana_cost": "{U}",
                "type_line": "Creature — Human Wizard",
                "oracle_text": "At the beginning of your upkeep, look at the top card of your library.",
                "power": "1",
                "toughness": "1",
                "colors": ["U"],
            },
            {
                "name": "Insectile Aberration",
                "mana_cost": "",
                "type_line": "Creature — Human Insect",
                "oracle_text": "Flying",
                "power": "3",
                "toughness": "2",
                "colors": ["U"],
            },
        ],
    },
    {"object": "card", "name": "Goblin Token", "layout": "token", "type_line": "Token Creature — Goblin"},
]


def test_cards_import_reads_scryfall_oracle_cards_and_the_card_is_usable(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A card imported from Scryfall's "oracle cards" format is tracked by name and types in a
    game; its abilities are reported by hand (it is not automated)."""
    source = tmp_path / "oracle-cards.json"
    source.write_text(json.dumps(SCRYFALL))
    assert main(["cards", "import", str(source)]) == 0
    assert "imported 2 card(s)" in capsys.readouterr().out

    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.settings import Settings

    settings = Settings(_env_file=None, admin_token="adm")
    with TestClient(create_app(settings)) as client:
        headers = {"Authorization": "Bearer adm"}
        card = client.get("/v1/cards/Walking Ballista", headers=headers).json()
        assert card["type_line"] == "Artifact Creature — Construct" and card["implemented"] is False
        delver = client.get("/v1/cards/Delver of Secrets", headers=headers).json()
        assert delver["type_line"] == "Creature — Human Wizard"  # a double-faced card by its front face
        assert client.get("/v1/cards/Goblin Token", headers=headers).status_code == 422
        created = client.post(
            "/v1/games",
            json={
                "variant": "two_player",
                "players": [{"id": "A", "hand": ["Walking Ballista"]}, {"id": "B"}],
                "turn": {"number": 2, "active_player": "A", "step": "precombat_main"},
            },
            headers=headers,
        ).json()
        game = created["game_id"]
        cast = client.post(
            f"/v1/games/{game}/actions",
            json={"type": "cast", "player": "A", "card": "Walking Ballista", "x": 2},
            headers=headers,
        )
        assert cast.status_code == 201, cast.text
        resolved = client.post(f"/v1/games/{game}/actions", json={"type": "resolve"}, headers=headers).json()
        # Not automated: "enters with X counters" is reported by hand. Tracked by name and types,
        # it entered as a 0/0 artifact creature and died by the state-based action (CR 704.5f).
        entered = [e for e in resolved["events"] if e["type"] == "PermanentEntered"]
        assert entered[0]["data"]["permanent"]["card"]["type_line"] == "Artifact Creature — Construct"
        left = [e for e in resolved["events"] if e["type"] == "PermanentLeft"]
        assert left and left[0]["rule"] == "CR 704.5f"
        assert [c["name"] for c in resolved["state"]["players"]["A"]["graveyard"]] == ["Walking Ballista"]


# -- which store, and one-line errors (issue 10) ---------------------------------------------------


def store_line(db: str) -> str:
    return f"store: sqlite {Path(db.removeprefix('sqlite:///')).resolve()}"


def one_line_error(capsys: pytest.CaptureFixture[str], prog: str) -> str:
    """The command's error: one line on stderr (besides the ``store:`` line), never a traceback."""
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if not line.startswith("store: ")]
    assert len(lines) == 1 and lines[0].startswith(f"{prog}: "), err
    return lines[0]


def test_every_command_that_opens_the_store_names_it_on_stderr(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "named.ndjson"
    other = tmp_path / "other.sqlite3"
    for argv in (
        ["token", "create", "--name", "Jane", "--role", "judge"],
        ["export", "cli-game", "-o", str(out)],
        ["verify", "cli-game"],
        ["verify", str(out)],
    ):
        assert main(argv) == 0, argv
        err = capsys.readouterr().err
        assert err.splitlines()[0] == store_line(db), (argv, err)
    # The store that a relative SQLite path names depends on the working directory: shown resolved.
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", "sqlite:///other.sqlite3")  # the cwd is tmp_path
    assert main(["import", str(out)]) == 0
    assert capsys.readouterr().err.splitlines()[0] == f"store: sqlite {other.resolve()}"


def test_token_create_output_is_the_secret_alone(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Scripts read the secret from stdout: the store line goes to stderr."""
    assert main(["token", "create", "--name", "Jane", "--role", "judge"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and " " not in out.strip()


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (["--role", "player"], "a player token needs --game GAME and --player PLAYER"),
        (["--role", "player", "--game", "cli-game"], "a player token needs --game GAME and --player PLAYER"),
        (["--role", "player", "--player", "P1"], "a player token needs --game GAME and --player PLAYER"),
        (["--role", "judge", "--game", "cli-game"], "--game and --player bind only player tokens, not --role judge"),
    ],
)
def test_token_create_with_a_wrong_combination_is_one_line_and_stores_nothing(
    db: str, options: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["token", "create", "--name", "Alice", *options]) == 2
    assert one_line_error(capsys, "mtg-ledger token create") == f"mtg-ledger token create: {says}"
    with LedgerService(db) as service:
        assert not service.has_admin()  # nothing stored (no token of any role was made)


def test_player_token_for_a_game_or_player_this_store_lacks_is_refused_with_a_hint(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["token", "create", "--name", "Alice", "--role", "player", "--player", "P1"]
    assert main([*base, "--game", "no-such-game"]) == 2
    error = one_line_error(capsys, "mtg-ledger token create")
    assert "no game 'no-such-game' in sqlite " in error and "MTG_LEDGER_DATABASE_URL" in error, error
    assert main(["token", "create", "--name", "Alice", "--role", "player", "--game", "cli-game", "--player", "P9"]) == 2
    error = one_line_error(capsys, "mtg-ledger token create")
    assert error.endswith("game 'cli-game' has no player 'P9'; its players: P1, P2"), error
    assert main([*base, "--game", "cli-game"]) == 0  # the right game and player


def test_missing_or_unknown_arguments_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, prog in (
        (["token", "create", "--role", "judge"], "mtg-ledger token create"),
        (["token", "create", "--name", "x", "--role", "wizard"], "mtg-ledger token create"),
        (["frobnicate"], "mtg-ledger"),
        (["export"], "mtg-ledger export"),
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2, argv
        assert f"(see {prog} --help)" in one_line_error(capsys, prog)


def test_unreadable_files_are_one_line(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "binary.ndjson"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    for argv, prog, says in (
        (["import", str(tmp_path / "missing.ndjson")], "mtg-ledger import", "No such file or directory"),
        (["import", str(tmp_path)], "mtg-ledger import", "Is a directory"),
        (["import", str(binary)], "mtg-ledger import", "not UTF-8 text"),
        (["verify", str(tmp_path)], "mtg-ledger verify", "Is a directory"),
        (["verify", "no-such-game"], "mtg-ledger verify", "neither a file nor a game"),
        (["cards", "import", str(tmp_path / "missing.json")], "mtg-ledger cards import", "No such file or directory"),
        (["cards", "import", str(binary)], "mtg-ledger cards import", str(binary)),
    ):
        assert main(argv) == 2, argv
        assert says in one_line_error(capsys, prog), argv


def test_export_errors_are_one_line_and_leave_no_file(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "cli-game", "-o", str(tmp_path / "no-dir" / "x.ndjson")]) == 2
    assert "cannot write" in one_line_error(capsys, "mtg-ledger export")
    out = tmp_path / "unknown.ndjson"
    assert main(["export", "no-such-game", "-o", str(out)]) == 2
    assert one_line_error(capsys, "mtg-ledger export").endswith("unknown game 'no-such-game' (unknown_game)")
    assert not out.exists()


def test_bad_settings_and_an_unopenable_store_are_one_line_without_the_password(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", "mysql://ledger:s3cret@db.example/ledger")
    assert main(["verify", "cli-game"]) == 2
    error = one_line_error(capsys, "mtg-ledger verify")
    assert "MTG_LEDGER_DATABASE_URL" in error and "mysql://ledger@db.example/ledger" in error, error
    assert "s3cret" not in error
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", "postgresql://ledger:s3cret@127.0.0.1:5432/ledger?pool_size=many")
    assert main(["verify", "cli-game"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "store: postgresql postgresql://ledger@127.0.0.1:5432/ledger?pool_size=many"
    assert "cannot open the store" in err and "s3cret" not in err and len(err.splitlines()) == 2, err


def test_serve_names_its_store_and_each_worker_logs_it(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    import api.cli_serve

    ran: dict[str, Any] = {}
    monkeypatch.setattr(api.cli_serve.uvicorn, "run", lambda app, **options: ran.update(app=app, **options))
    monkeypatch.setenv("MTG_LEDGER_ADMIN_TOKEN", "adm")
    monkeypatch.setenv("MTG_LEDGER_CREATE_TABLES", "1")  # serve sets it to 0 for its workers
    monkeypatch.delenv("MTG_LEDGER_WORKERS", raising=False)  # and this one: restored afterwards
    assert main(["serve", "--port", "8123"]) == 0
    captured = capsys.readouterr()
    described = store_line(db).removeprefix("store: ")
    assert captured.err.splitlines()[0] == f"store: {described}"
    assert f"(store: {described}, workers: 1)" in captured.out
    assert ran["app"] == "api.app:create_served_app" and ran["port"] == 8123
    assert ran["log_config"]["loggers"]["mtg_ledger"]["level"] == "INFO"  # the workers' store line shows

    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.settings import Settings

    with caplog.at_level("INFO", logger="mtg_ledger"), TestClient(create_app(Settings(_env_file=None))):
        pass
    assert f"MTG Ledger serving store: {described}" in caplog.messages


def test_serve_tells_its_workers_how_many_they_are_and_sqlite_workers_check_heads(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --workers 2`` sets ``MTG_LEDGER_WORKERS`` for the worker processes, so on SQLite
    workers check heads (docs/operations.md, Group commit)."""
    import os

    import api.cli_serve
    from api.settings import Settings

    supervised: list[Any] = []

    class Supervisor:  # api.workers.BalancedWorkers, not started
        failed_to_start = False

        def __init__(self, config: Any) -> None:
            supervised.append(config)

        def run(self) -> None:
            pass

    monkeypatch.setattr(api.cli_serve, "BalancedWorkers", Supervisor)
    monkeypatch.setenv("MTG_LEDGER_ADMIN_TOKEN", "adm")
    monkeypatch.setenv("MTG_LEDGER_CREATE_TABLES", "1")  # serve sets both for its workers: restored after
    monkeypatch.delenv("MTG_LEDGER_WORKERS", raising=False)
    assert main(["serve", "--port", "8123", "--workers", "2"]) == 0
    assert [(c.app, c.factory, c.port, c.workers) for c in supervised] == [("api.app:create_served_app", True, 8123, 2)]
    assert os.environ["MTG_LEDGER_WORKERS"] == "2"
    worker = Settings(_env_file=None)
    assert worker.workers == 2
    assert worker.checks_heads is (worker.store == "sqlite")


@pytest.mark.parametrize(
    ("url", "workers", "checks", "watches"),
    [
        ("sqlite:///x.sqlite3", 1, False, False),
        ("sqlite:///x.sqlite3", 2, True, False),
        ("postgresql://u@h/db", 1, False, False),
        ("postgresql://u@h/db", 2, False, True),
        ("postgresql://u@h/db", 4, False, True),
    ],
)
def test_several_workers_read_heads_on_sqlite_and_watch_them_on_postgresql(
    url: str, workers: int, checks: bool, watches: bool
) -> None:
    """Several workers: SQLite reads a game's newer events before each action (a local read);
    PostgreSQL, where that read is a round trip, watches the log instead (store.head_watch).
    Chosen from the store and the worker count, no setting (docs/operations.md, Chosen for you)."""
    from api.settings import Settings

    settings = Settings(_env_file=None, database_url=url, workers=workers)
    assert settings.checks_heads is checks
    assert settings.watches_heads is watches


@pytest.mark.parametrize(("url", "window_ms"), [("sqlite:///x.sqlite3", 1.0), ("postgresql://u@h/db", 3.0)])
def test_group_commit_waits_longer_on_postgresql(url: str, window_ms: float) -> None:
    """A PostgreSQL transaction costs a round trip and the server's commit work, so its group
    committer waits 3 ms for more saves, SQLite's 1 ms (docs/performance.md, issue 15, eighth
    pass)."""
    from api.settings import Settings

    settings = Settings(_env_file=None, database_url=url)
    assert settings.group_commit_window_ms == window_ms


def test_the_server_hands_the_group_commit_window_to_each_partitions_committer(tmp_path: Path) -> None:
    from api.app import build_service
    from api.settings import Settings

    settings = Settings(_env_file=None, database_url=f"sqlite:///{tmp_path / 'w.sqlite3'}")
    service = build_service(settings)
    try:
        assert [p.committer._window for p in service.partitions if p.committer] == [0.001]
    finally:
        service.close()


@pytest.mark.parametrize(("url", "runs"), [("sqlite:///x.sqlite3", False), ("postgresql://u@h/db", True)])
def test_the_read_models_run_in_a_process_of_their_own_on_postgresql(url: str, runs: bool) -> None:
    """``serve`` starts ``mtg-ledger project`` on PostgreSQL (docs/operations.md, The read models)."""
    from api.settings import Settings

    assert Settings(_env_file=None, database_url=url).runs_read_model_process is runs


@pytest.mark.postgres
def test_only_a_serving_process_watches_heads(tmp_path: Path) -> None:
    """``serve`` tells ``mtg-ledger project`` its worker count, which turns the head watch on for
    PostgreSQL; a process that decides no actions on cached heads (the read-model process, every
    other command) must not start one: it read and folded every event for nothing (16% of the
    read-model process's CPU with 2 workers, docs/performance.md, issue 15, tenth pass)."""
    from api.app import build_service
    from api.cli_store import opened
    from api.settings import Settings
    from tests.conftest import postgres_schema

    with postgres_schema("mtgl_cli") as url:
        settings = Settings(_env_file=None, database_url=url, workers=2, catalog_path=tmp_path / "c.json")
        assert settings.watches_heads
        served = build_service(settings)
        try:
            assert [p.head_watch is not None for p in served.partitions] == [True]
        finally:
            served.close()
        with opened(settings) as service:
            assert [p.head_watch for p in service.partitions] == [None]
