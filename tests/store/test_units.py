"""Pure parts of the store: URL mapping, pinned topics, the timeline sentences, summary changes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar
from uuid import uuid4

import pytest
from eventsourcing.persistence import Mapper
from eventsourcing.utils import get_topic, resolve_topic

from domain import events as ev
from projections.game_summaries import SummaryChange, summary_change
from projections.game_summary_tables import runs
from projections.sentences import describe
from store.database_url import describe_store, library_environment, sqlite_path, store_kind, without_password
from store.records import GameEvent, PlainJSONTranscoder, StoredRecord


def test_sqlite_urls_map_to_the_library_settings() -> None:
    env = library_environment("sqlite:///./var/ledger.sqlite3", create_tables=True)
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"
    assert env["SQLITE_DBNAME"] == "var/ledger.sqlite3"
    assert env["SQLITE_LOCK_TIMEOUT"] == "10"
    assert env["ORIGINATOR_ID_TYPE"] == "text" and env["CREATE_TABLE"] == "y"
    assert env["APPLICATION_RECORDER_TOPIC"] == "store.sqlite_polling:PollingSQLiteApplicationRecorder"
    assert sqlite_path("sqlite:////srv/ledger/db.sqlite3?timeout=3").as_posix() == "/srv/ledger/db.sqlite3"
    assert library_environment("sqlite:////tmp/x.db?timeout=3", create_tables=False)["SQLITE_LOCK_TIMEOUT"] == "3"
    assert library_environment("sqlite:////tmp/x.db", create_tables=False)["CREATE_TABLE"] == "n"
    for bad in ("sqlite://", "sqlite:///:memory:", "sqlite:///x.db?timeout=soon"):
        with pytest.raises(ValueError):
            library_environment(bad, create_tables=True)


def test_postgresql_urls_map_to_the_library_settings() -> None:
    env = library_environment(
        "postgresql://ledger:s%40cret@db.example:6543/games?schema=gp&pool_size=2", create_tables=False
    )
    assert env["PERSISTENCE_MODULE"] == "store.postgres_connections:LedgerPostgresFactory"
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == ("db.example", "6543", "games")
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("ledger", "s@cret")
    assert env["POSTGRES_SCHEMA"] == "gp" and env["POSTGRES_POOL_SIZE"] == "2"
    assert env["POSTGRES_ENABLE_DB_FUNCTIONS"] == "n", "a tailing subscription missed events with it on"
    assert env["ORIGINATOR_ID_TYPE"] == "text" and env["CREATE_TABLE"] == "n"
    assert library_environment("postgres://u@h/d", create_tables=True)["POSTGRES_PORT"] == "5432"
    assert store_kind("postgresql+psycopg://u@h/d") == "postgresql"
    for bad in ("mysql://u@h/d", "postgresql://u@h/"):
        with pytest.raises(ValueError):
            library_environment(bad, create_tables=True)


def test_a_store_is_described_without_its_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert describe_store("sqlite:///./var/ledger.sqlite3") == f"sqlite {tmp_path.resolve() / 'var' / 'ledger.sqlite3'}"
    assert describe_store("sqlite:////srv/db.sqlite3?timeout=3") == "sqlite /srv/db.sqlite3"
    assert (
        describe_store("postgresql://postgres@127.0.0.1:5432/test")
        == "postgresql postgresql://postgres@127.0.0.1:5432/test"
    )
    assert (
        describe_store("postgres://ledger:p%40ss:w@db:5433/l?schema=s1")
        == "postgresql postgres://ledger@db:5433/l?schema=s1"
    )
    assert without_password("postgresql://ledger:@db/l") == "postgresql://ledger@db/l"
    assert without_password("postgresql:///l?host=/run/postgresql") == "postgresql:///l?host=/run/postgresql"


def test_every_stored_class_pins_its_own_topic() -> None:
    with pytest.raises(TypeError, match="must pin its own TOPIC"):

        @dataclass(frozen=True)
        class Unpinned(GameEvent):
            pass

    topic = f"mtg-ledger/test-only/{uuid4().hex}"  # topics are process-global: one per run

    @dataclass(frozen=True)
    class Pinned(StoredRecord):
        TOPIC: ClassVar[str] = topic

    assert get_topic(GameEvent) == "mtg-ledger/GameEvent@1"
    assert get_topic(Pinned) == topic and resolve_topic(topic) is Pinned


@pytest.mark.parametrize(
    ("type_", "data", "rule", "text"),
    [
        (
            "CardsMilled",
            {
                "player": "P1",
                "cards": [{"name": "Forest"}, {"name": "Island"}],
                "requested": 2,
                "nonland_count": 0,
                "cause": "radiation",
            },
            "CR 728.1",
            "P1 mills Forest, Island (radiation, CR 728.1)",
        ),
        (
            "CardsDrawn",
            {
                "player": "P2",
                "cards": [{"name": "Secret"}],
                "unknown_count": 1,
                "requested": 2,
                "from_empty": False,
                "cause": "",
            },
            "CR 121.1",
            "P2 draws 2 cards (CR 121.1)",
        ),
        (
            "CountersAdded",
            {"target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1, "cause": "proliferate"},
            "CR 701.34a",
            "hydra gets 1 +1/+1 counter (proliferate, CR 701.34a)",
        ),
        (
            "LifeLost",
            {"player": "P1", "amount": 2, "life_after": 18, "cause": "manual"},
            None,
            "P1 loses 2 life (18 left) (manual)",
        ),
        ("GameEnded", {"winners": ["P2"], "draw": False}, "CR 104.2a", "Game over: P2 wins (CR 104.2a)"),
        ("NoteAdded", {"text": "slow play warning"}, None, "Note: slow play warning"),
        ("SomethingNew", {"x": 1}, None, "SomethingNew (unreadable record)"),
        # A damaged record is named by its type, never shown as raw JSON.
        ("LifeGained", {"oops": True}, None, "LifeGained (unreadable record)"),
        (
            "AttackersDeclared",
            {"player": "P1", "attackers": [{"permanent": "moth", "attacks": {"player": "P2"}}], "remember": "k"},
            "CR 508.1",
            "P1 declares attackers: moth attacks P2 (CR 508.1)",
        ),
        (
            "CardsMoved",
            {"player": "P1", "cards": [{"name": "Forest"}], "from": "graveyard", "to": "hand", "cause": "Strong"},
            None,
            "P1 moves Forest from graveyard to hand (Strong)",
        ),
        (
            "PowerToughnessModified",
            {"permanent": "bears", "power": -2, "toughness": -2, "until": "end_of_turn", "cause": "Nuclear Fallout"},
            "CR 611.2",
            "bears gets -2/-2 until end of turn (Nuclear Fallout, CR 611.2)",
        ),
        (
            "CardsMoved",
            {"player": "P2", "cards": [{"name": "Ezuri"}], "from": "command", "to": "none", "cause": "left"},
            "CR 800.4a",
            "Ezuri leaves the game with P2 (command zone) (left, CR 800.4a)",
        ),
        (
            "ControlChanged",
            {"permanent": "bears", "controller": "P2", "cause": "Switcheroo"},
            "CR 701.12b",
            "P2 gains control of bears (Switcheroo, CR 701.12b)",
        ),
    ],
)
def test_timeline_sentences(type_: str, data: dict[str, object], rule: str | None, text: str) -> None:
    assert describe(type_, data, rule) == text


def _event(type_: str, data: dict[str, object], version: int = 5) -> GameEvent:
    return GameEvent(
        "g1", version, type_, data, None, "a1", {"name": "j", "role": "judge"}, "2026-01-01T00:00:00.000000Z", "0", "1"
    )


def test_a_record_keeps_its_parsed_event_but_never_stores_it() -> None:
    record = _event("NoteAdded", {"text": "x"})
    assert record.event is record.event and record.payload == ev.NoteAdded(text="x")
    assert record.event_class is ev.NoteAdded and _event("Teleported", {}).event_class is None
    mapper = Mapper(transcoder=PlainJSONTranscoder())
    stored = mapper.to_stored_event(record)
    assert "_event" not in json.loads(stored.state) and "event" not in json.loads(stored.state)
    again = mapper.to_domain_event(stored)
    assert again == record and again.event == record.event


def test_summary_changes() -> None:
    created = {
        "game_id": "g1",
        "variant": "multiplayer",
        "rules_edition": "2026-01-01",
        "tournament": {"event": "E", "round": 2},
        "players": [],
        "teams": {},
        "battlefield": [],
        "turn": {"number": 1, "active_player": "P1", "active_team": None, "step": "untap"},
    }
    started = summary_change(_event("GameStarted", created, 1))
    assert (started.variant, started.status, started.winners, started.tournament) == (
        "multiplayer",
        "in_progress",
        (),
        {"event": "E", "round": 2},
    )
    ended = summary_change(_event("GameEnded", {"winners": ["P1"], "draw": False}))
    assert (ended.status, ended.winners, ended.variant) == ("finished", ("P1",), None)
    restored = {"status": "in_progress", "result": None}
    reverted = {"to_version": 4, "reverted_versions": [], "reason": "misreported", "restored_state": restored}
    back = summary_change(_event("ActionsReverted", reverted))
    assert (back.status, back.winners) == ("in_progress", ())
    plain = summary_change(_event("NoteAdded", {"text": "x"}, 9))
    assert (plain.version, plain.status, plain.winners) == (9, None, None)
    # A record of a type the vocabulary doesn't have (a damaged one) changes only the version.
    unknown = summary_change(_event("Teleported", {"to": "moon"}, 10))
    assert (unknown.version, unknown.status, unknown.variant) == (10, None, None)


def test_summary_changes_are_written_in_runs_of_one_statement_in_order() -> None:
    # A game's row must exist before its updates apply: runs keep the changes' order.
    new = SummaryChange("g1", 1, "t1", variant="two_player", status="in_progress", winners=())
    moved = SummaryChange("g1", 2, "t2")
    ended = SummaryChange("g1", 3, "t3", status="finished", winners=("P1",))
    other = SummaryChange("g2", 1, "t4", variant="commander", status="in_progress", winners=())
    found = [
        (inserting, [row[0] for row in rows], len(rows)) for inserting, rows in runs([new, moved, ended, other, moved])
    ]
    assert found == [(True, ["g1"], 1), (False, [2, 3], 2), (True, ["g2"], 1), (False, [2], 1)]
    assert list(runs([])) == []
