"""``mtg-ledger token create --link`` (docs/operations.md, At a venue): a scorekeeper or a player
gets a link that carries their token, on the server's public URL, so nobody types a secret or
runs curl; ``--qr`` draws it in the terminal to scan from the operator's screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cli import main
from ledger.service import Actor, LedgerService

PUBLIC = "http://192.168.1.20:8000"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", url)
    monkeypatch.setenv("MTG_LEDGER_CATALOG_PATH", str(tmp_path / "cards.json"))
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    with LedgerService(url) as service:
        game = {"variant": "two_player", "players": [{"id": "P1"}, {"id": "P2"}]}
        service.create_game(game, Actor("setup", "admin"), "r1:t4")
    return url


def test_a_scorekeeper_link_opens_the_events_list_on_the_public_url_with_the_token(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MTG_LEDGER_PUBLIC_URL", PUBLIC + "/")
    assert main(["token", "create", "--name", "desk", "--role", "scorekeeper", "--link"]) == 0
    link = capsys.readouterr().out.strip()
    # Issue 38, item 10: the events list (create, run), not the games list.
    assert link.startswith(f"{PUBLIC}/tournaments#token=")
    with LedgerService(db) as service:
        info = service.lookup_token(link.partition("#token=")[2])
    assert info is not None and (info.name, info.role) == ("desk", "scorekeeper")


def test_a_player_link_opens_the_players_game(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MTG_LEDGER_PUBLIC_URL", PUBLIC)
    argv = ["token", "create", "--name", "Alice", "--role", "player", "--game", "r1:t4", "--player", "P1"]
    assert main([*argv, "--link"]) == 0
    link = capsys.readouterr().out.strip()
    # The id is one path segment, quoted as the player links of POST .../player-links are.
    assert link.startswith(f"{PUBLIC}/games/r1%3At4#token=")


def test_qr_draws_the_link_on_stderr_and_keeps_stdout_the_one_line(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MTG_LEDGER_PUBLIC_URL", PUBLIC)
    assert main(["token", "create", "--name", "desk", "--role", "scorekeeper", "--link", "--qr"]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and out.startswith(f"{PUBLIC}/tournaments#token=")
    assert "█" in err  # segno's terminal drawing


def test_a_judge_link_still_opens_the_front_page(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MTG_LEDGER_PUBLIC_URL", PUBLIC)
    assert main(["token", "create", "--name", "Jo", "--role", "judge", "--link"]) == 0
    assert capsys.readouterr().out.startswith(f"{PUBLIC}/#token=")


def test_link_without_a_public_url_makes_no_token(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A link on 127.0.0.1 would open on no other device: refused before a token is made."""
    assert main(["token", "create", "--name", "desk", "--role", "scorekeeper", "--link"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "MTG_LEDGER_PUBLIC_URL" in err
    with LedgerService(db) as service:
        assert [t.name for t in service.list_tokens()] == []


def test_qr_without_link_is_refused(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["token", "create", "--name", "desk", "--role", "scorekeeper", "--qr"]) == 2
    assert "--qr draws the --link" in capsys.readouterr().err
