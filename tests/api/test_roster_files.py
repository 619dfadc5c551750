"""Issue 40, findings 2 and 3: a roster file (``POST /v1/tournaments/{id}/players.csv``) is held
to the rules of a JSON body, and nothing in it answers 500.

- A C1 control character (``Al\\u0085ice``, a Wizards id holding ``\\u009b``) is refused with
  ``400 invalid_character`` exactly as ``POST .../players`` refuses it in JSON.
- A field over the csv module's 131,072-character limit (quoted, unquoted, unterminated, in
  either column) is ``400 invalid_body`` naming the line, not ``500 internal_error``.
- CR-only line ends (old Excel's "CSV (Macintosh)") are read as line ends.

Every refusal stores nothing (the tournament's version is unchanged)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem
from tests.api.tournament_client import Scorekeeper

BIG = 131_073
"""One character over the csv module's default field limit."""


@pytest.fixture
def event(client: TestClient, admin_headers: dict[str, str]) -> Scorekeeper:
    sk = Scorekeeper(client, admin_headers, "ROSTER")
    sk.create(rounds=2)
    return sk


def _post_roster(sk: Scorekeeper, text: str) -> object:
    return sk.client.post(
        f"/v1/tournaments/{sk.tid}/players.csv",
        content=text.encode("utf-8"),
        headers={**sk.headers, "Content-Type": "text/csv"},
    )


C1_CASES = [
    ("a NEL in a name", "name,wizards_id\nAl\u0085ice,1\n", {"name": "Al\u0085ice", "wizards_id": "1"}),
    ("a CSI in a Wizards id", "name,wizards_id\nAlice,12\u009b34\n", {"name": "Alice", "wizards_id": "12\u009b34"}),
    ("a C0 control in a name", "name\nFay\u0001\n", {"name": "Fay\u0001"}),
    ("a lone surrogate", "name\nA\ud800\n", None),
]


@pytest.mark.parametrize(("roster", "json_body"), [c[1:] for c in C1_CASES], ids=[c[0] for c in C1_CASES])
def test_a_control_character_is_refused_as_a_json_body_refuses_it(
    event: Scorekeeper, roster: str, json_body: dict[str, str] | None
) -> None:
    before = event.version()
    text = roster.encode("utf-8", "surrogatepass")
    response = event.client.post(
        f"/v1/tournaments/{event.tid}/players.csv", content=text, headers={**event.headers, "Content-Type": "text/csv"}
    )
    if json_body is None:  # not UTF-8 at all: the file is refused before it is read
        assert_problem(response, 400, "invalid_body")
    else:
        assert_problem(response, 400, "invalid_character")
        as_json = event.client.post(f"/v1/tournaments/{event.tid}/players", json=json_body, headers=event.headers)
        assert_problem(as_json, 400, "invalid_character")
    assert event.version() == before


LONG_CASES = [
    ("quoted", f'name\n"{"a" * BIG}"\n'),
    ("unquoted", f"name\n{'a' * BIG}\n"),
    ("unterminated", f'name\n"{"a" * BIG}'),
    ("in wizards_id", f"name,wizards_id\nAlice,{'1' * BIG}\n"),
    ("in the header", f"{'n' * BIG}\nAlice\n"),
]


@pytest.mark.parametrize("roster", [c[1] for c in LONG_CASES], ids=[c[0] for c in LONG_CASES])
def test_a_field_over_the_csv_limit_is_a_400_with_a_code(event: Scorekeeper, roster: str) -> None:
    before = event.version()
    response = _post_roster(event, roster)
    assert_problem(response, 400, "invalid_body")
    assert "line " in response.json()["detail"]  # type: ignore[attr-defined]
    assert event.version() == before


def test_cr_only_line_ends_are_line_ends(event: Scorekeeper) -> None:
    response = _post_roster(event, 'name,wizards_id\rAnn,1\rBen,2\r"Cat\rCarter",3\r')
    # a quoted cell holding a line break is still one cell (and a name refuses it)
    assert_problem(response, 400, "invalid_character")
    response = _post_roster(event, "name,wizards_id\rAnn,1\rBen,2\rCat,3\r")
    assert response.status_code == 201, response.text  # type: ignore[attr-defined]
    names = [p["name"] for p in event.get()["players"]]
    assert names == ["Ann", "Ben", "Cat"]
