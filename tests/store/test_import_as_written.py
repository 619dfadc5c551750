"""Issue 11, finding 6: import checks every record as the live server would have written it:
known roles, notes and undo by judges, one time per action in order and not in the future,
UUID action ids, the limits and characters of a request body, no unknown fields in event data."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.store.conftest import JUDGE, Store
from tests.store.forging import rehash
from tests.store.test_import_rules import append, edit, real_game, refused


def _note(lines: list[str], **changes: Any) -> list[str]:
    """The real game plus a judge's note (version 10), then ``changes`` to that note."""
    with_note = append(lines, ("NoteAdded", {"text": "a judge's note"}, None))
    note = json.loads(with_note[10])
    assert note["type"] == "NoteAdded"
    for key, value in changes.items():
        if key == "role":
            note["actor"]["role"] = value
        elif key == "text":
            note["data"]["text"] = value
        else:
            note[key] = value
    return rehash([*with_note[:10], json.dumps(note)])


def test_a_judges_note_as_the_server_writes_it_imports(sqlite_store: Store) -> None:
    _, lines = real_game(sqlite_store)
    assert sqlite_store.sibling().service().import_game(_note(lines), JUDGE).version == 10


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"role": "superuser"}, "actor role 'superuser'"),
        ({"role": "spectator"}, "actor role 'spectator'"),
        ({"role": "player"}, "recorded by a judge or an admin"),
        ({"role": "scorekeeper"}, "recorded by a judge or an admin"),
        ({"recorded_at": "9999-12-31T23:59:59.000000Z"}, "in the future"),
        ({"recorded_at": "2001-01-01T00:00:00.000000Z"}, "before the previous event"),
        ({"action_id": "x" * 100_000}, "action_id must be a UUID"),
        ({"text": "GP\u0000Vegas"}, "control character U+0000"),
        ({"text": "n" * 10_001}, "the limit is 10000"),
    ],
)
def test_records_the_live_server_could_never_write_are_refused(
    store: Store, changes: dict[str, Any], says: str
) -> None:
    _, lines = real_game(store)
    err = refused(store, _note(lines, **changes))
    assert err.version == 10 and says in err.message, err.message


def test_an_unknown_field_in_event_data_is_refused(sqlite_store: Store) -> None:
    _, lines = real_game(sqlite_store)
    forged = edit(lines, 9, lambda e: e["data"].update({"shown_to_everyone": "<b>hi</b>"}))
    err = refused(sqlite_store, forged)
    assert err.version == 9 and "shown_to_everyone" in err.message


def test_one_action_has_one_time(sqlite_store: Store) -> None:
    """Versions 4-7 are one action (the rad trigger resolving): the server stores it with one time."""
    _, lines = real_game(sqlite_store)

    def a_moment_later(event: dict[str, Any]) -> None:
        at = datetime.fromisoformat(event["recorded_at"].replace("Z", "+00:00")) + timedelta(milliseconds=1)
        event["recorded_at"] = at.isoformat(timespec="microseconds").replace("+00:00", "Z")

    err = refused(sqlite_store, edit(lines, 6, a_moment_later))
    assert err.version == 6 and "share one recorded_at" in err.message


def test_a_game_is_not_created_by_a_player(sqlite_store: Store) -> None:
    _, lines = real_game(sqlite_store)
    forged = edit(lines, 1, lambda e: e["actor"].update({"role": "player"}))
    err = refused(sqlite_store, forged)
    assert err.version == 1 and "created by a scorekeeper or above" in err.message


def test_a_long_games_restored_graveyard_over_a_requests_list_limit_imports(store: Store) -> None:
    """The server itself writes lists longer than a request may send (a graveyard of 2,000 cards
    in a restored state): the import keeps the string rules, not the request's list limit."""
    service = store.service()
    body = {
        "variant": "two_player",
        "players": [{"id": "P1", "library": ["Island"] * 1000, "graveyard": ["Island"] * 1000}, {"id": "P2"}],
    }
    service.create_game(body, JUDGE, "g1")
    service.act("g1", {"type": "mill", "player": "P1", "count": 1000}, JUDGE)
    service.act("g1", {"type": "note", "text": "after the mill"}, JUDGE)
    service.undo("g1", to_version=2, reason="the note was for another table", actor=JUDGE)
    lines = list(service.export("g1"))
    restored = json.loads(lines[-1])["data"]["restored_state"]
    [p1] = [p for p in restored["players"] if p["id"] == "P1"]
    assert len(p1["graveyard"]) == 2000
    assert store.sibling().service().import_game(lines, JUDGE).version == 4
