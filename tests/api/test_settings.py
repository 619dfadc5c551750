"""The settings read a database URL as the store does (``store.database_url``): one parser, so
the server's own files go where the store opens its database (docs/index.md, Settings).

The settings once cut the SQLite path out of the URL themselves, keeping a query and the
percent-quoting in it, so ``cards.json`` (and the directory made at start-up) went to a path
the store never opened."""

from __future__ import annotations

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
