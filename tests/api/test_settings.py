"""The settings read a database URL as the store does (``store.database_url``): one parser, so
the server's own files go where the store opens its database (docs/index.md, Settings).

The settings once cut the SQLite path out of the URL themselves, keeping a query and the
percent-quoting in it, so ``cards.json`` (and the directory made at start-up) went to a path
the store never opened."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.app import build_service
from api.settings import Settings
from store.database_url import sqlite_path


@pytest.mark.parametrize(
    ("tail", "database", "directory"),
    [
        # A query is the URL's, not the file's: the store opens .../ledger.sqlite3.
        ("var/ledger.sqlite3?timeout=30", "var/ledger.sqlite3", "var"),
        # A '/' in the query must not move the directory into the query.
        ("var/ledger.sqlite3?timeout=30&note=a/b", "var/ledger.sqlite3", "var"),
        # Percent-quoting: '%20' is a space, '%3F' a '?' that is part of the path.
        ("a%20b/ledger.sqlite3", "a b/ledger.sqlite3", "a b"),
        ("a%3Fb/ledger.sqlite3", "a?b/ledger.sqlite3", "a?b"),
    ],
)
def test_the_sqlite_file_and_the_cards_are_where_the_store_opens_the_database(
    tmp_path: Path, tail: str, database: str, directory: str
) -> None:
    url = f"sqlite:///{tmp_path}/{tail}"
    settings = Settings(_env_file=None, database_url=url)
    assert settings.sqlite_path == sqlite_path(url) == tmp_path / database
    assert settings.imported_cards_path == tmp_path / directory / "cards.json"
    assert settings.store_description == f"sqlite {tmp_path.resolve() / database}"


def test_a_url_naming_no_file_or_another_store_has_no_sqlite_path(tmp_path: Path) -> None:
    for url in ("sqlite:///:memory:", "sqlite:///", "postgresql://ledger@db/ledger?schema=s"):
        settings = Settings(_env_file=None, database_url=url)
        assert settings.sqlite_path is None, url
        assert settings.imported_cards_path == Path("var") / "cards.json"
    with pytest.raises(ValueError, match="unsupported database URL"):
        Settings(_env_file=None, database_url="mysql://ledger@db/ledger")


def test_the_server_makes_only_the_directory_the_store_uses(tmp_path: Path) -> None:
    """Opened from a quoted URL, the store's file and the server's directory are one."""
    url = f"sqlite:///{tmp_path}/event%20one/ledger.sqlite3?timeout=5"
    with build_service(Settings(_env_file=None, database_url=url)) as service:
        assert service.store == "sqlite"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event one"]
    assert (tmp_path / "event one" / "ledger.sqlite3").is_file()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),  # links add their own '/'
        ("https://Ledger.Example.org", "https://ledger.example.org"),
        ("http://[fe80::1]:8000/", "http://[fe80::1]:8000"),
        ("", None),  # an empty line in .env: unset
    ],
)
def test_the_public_url_is_a_base_url_without_its_last_slash(value: str, expected: str | None) -> None:
    assert Settings(_env_file=None, public_url=value).public_url == expected


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("192.168.1.20:8000", "http(s) URL with a host"),  # no scheme: the QR link would not open
        ("ftp://192.168.1.20", "http(s) URL with a host"),
        ("http://", "http(s) URL with a host"),
        ("http://192.168.1.20:8000/ledger", "no path, query or fragment"),  # links would drop it
        ("http://host?x=1", "no path, query or fragment"),
        ("http://host/#top", "no path, query or fragment"),
        ("http://host:99999", "Port out of range"),
        ("http://my host:8000", "without spaces"),
    ],
)
def test_a_public_url_the_links_cannot_start_with_is_refused_at_start_up(value: str, says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        Settings(_env_file=None, public_url=value)


def test_a_public_url_with_a_password_is_refused_without_repeating_it() -> None:
    """Every QR code would carry it; the start-up error line must not print it either."""
    from pydantic import ValidationError

    from api.cli import _settings_error

    with pytest.raises(ValidationError) as raised:
        Settings(_env_file=None, public_url="http://ops:s3cret@192.168.1.20:8000")
    said = _settings_error(raised.value)
    assert said.startswith("MTG_LEDGER_PUBLIC_URL: ") and "user or password" in said
    assert "s3cret" not in said


def test_serve_refuses_to_start_with_a_bad_public_url(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from api.cli import main

    monkeypatch.setenv("MTG_LEDGER_PUBLIC_URL", "192.168.1.20:8000")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "MTG_LEDGER_PUBLIC_URL" in err and "http(s) URL with a host" in err


RETIRED_VALUES = {
    "MTG_LEDGER_GROUP_COMMIT": "0",
    "MTG_LEDGER_GROUP_COMMIT_MS": "8",
    "MTG_LEDGER_HEAD_CHECK": "off",
    "MTG_LEDGER_HEAD_WATCH": "on",
    "MTG_LEDGER_READ_MODEL_PROCESS": "off",
}
"""A deployment of the last pass that set every one of the retired settings."""


@pytest.fixture
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each process warns once per retired setting: give the test a process's first time."""
    import api.settings

    monkeypatch.setattr(api.settings, "_warned", set())


def test_the_retired_settings_are_named_in_one_place() -> None:
    from api.settings import RETIRED

    assert set(RETIRED) == set(RETIRED_VALUES)


@pytest.mark.usefixtures("fresh_warnings")
def test_a_retired_setting_still_set_is_ignored_with_one_warning_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An old deployment starts as before (each only tuned speed, never what is stored), and
    says what to remove; the mechanisms are chosen from the store and the worker count."""
    for name, value in RETIRED_VALUES.items():
        monkeypatch.setenv(name, value)
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    with caplog.at_level("WARNING", logger="mtg_ledger.settings"):
        settings = Settings(_env_file=None, database_url=url, workers=2)
        again = Settings(_env_file=None, database_url=url, workers=2)  # a second read: no repeat
    said = [r.getMessage() for r in caplog.records if r.name == "mtg_ledger.settings"]
    assert [line.split(" ")[0] for line in said] == list(RETIRED_VALUES)
    assert all("is retired and ignored" in line and "Retired settings" in line for line in said)
    for chosen in (settings, again):
        assert chosen.group_commit and chosen.group_commit_window_ms == 1.0  # not 0, not 8
        assert chosen.checks_heads  # SQLite with two workers, whatever HEAD_CHECK=off said
        assert not chosen.watches_heads and not chosen.runs_read_model_process
    assert [name for name, _ in settings.retired_in_use] == list(RETIRED_VALUES)


@pytest.mark.usefixtures("fresh_warnings")
def test_a_retired_setting_in_dot_env_is_named_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / ".env").write_text("MTG_LEDGER_GROUP_COMMIT_MS=3\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with caplog.at_level("WARNING", logger="mtg_ledger.settings"):
        settings = Settings(database_url="postgresql://u@h/db")
    assert settings.retired_in_use == [("MTG_LEDGER_GROUP_COMMIT_MS", "3")]
    assert any(r.getMessage().startswith("MTG_LEDGER_GROUP_COMMIT_MS is retired") for r in caplog.records)


def test_without_retired_settings_nothing_is_said(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("WARNING", logger="mtg_ledger.settings"):
        assert Settings(_env_file=None).retired_in_use == []
    assert [r for r in caplog.records if r.name == "mtg_ledger.settings"] == []


@pytest.mark.usefixtures("fresh_warnings")
def test_serve_starts_with_retired_settings_and_says_what_it_chose(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``serve --workers 2`` on SQLite with the last pass's settings: not refused; its banner says
    what the server chose in their place (docs/operations.md, Chosen for you)."""
    import api.cli_serve
    from api.cli import main

    # No workers, and no uvicorn logging set up in this process (its handlers would hold the
    # captured stderr after the test).
    monkeypatch.setattr(api.cli_serve, "run_workers", lambda app, host, port, workers: 0)
    monkeypatch.chdir(tmp_path)
    for name, value in RETIRED_VALUES.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("MTG_LEDGER_DATABASE_URL", f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    monkeypatch.setenv("MTG_LEDGER_ADMIN_TOKEN", "adm")
    monkeypatch.setenv("MTG_LEDGER_CREATE_TABLES", "1")  # serve sets both for its workers: restored after
    monkeypatch.setenv("MTG_LEDGER_WORKERS", "1")
    monkeypatch.setenv("MTG_LEDGER_PUBLIC_URL", "http://192.168.1.20:8000")
    with caplog.at_level("WARNING", logger="mtg_ledger.settings"):
        assert main(["serve", "--port", "8123", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "for sqlite with 2 worker(s): group commit waits 1 ms, head check on, head watch off" in out
    assert "public URL (the links and QR codes the page hands out): http://192.168.1.20:8000" in out
    assert len([r for r in caplog.records if "is retired and ignored" in r.getMessage()]) == len(RETIRED_VALUES)
