"""Issue 40, finding 4: formula injection through ``;`` and tab. A spreadsheet in a European
locale reads the server's comma-separated files with ``;`` as the separator (and a paste may
split at tabs): ``Bob;=1+cmd|' /C calc'!A0`` was written unquoted in players.csv and
results.csv, and such a reading made ``=1+cmd|' /C calc'!A0`` a cell of its own, a live formula.

Every CSV the server writes goes through ``ledger.csv_cells.to_csv``; here it is read every way
a spreadsheet may read it (``,`` ``;`` or tab as the separator, quotes honoured or not), and no
resulting cell may start a formula."""

from __future__ import annotations

import csv
import io
import re

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.csv_cells import to_csv
from tests.api.tournament_client import Scorekeeper

FORMULA = ("=", "+", "-", "@")
EVIL = ["Bob;=1+cmd|' /C calc'!A0", "Bob\t=1+1", "Ann; @SUM(A1)", "x;+1;-2", 'q";=1+1', "a,b;=c"]


def _readings(text: str) -> list[list[str]]:
    """Every cell of ``text`` as each kind of reader splits it."""
    cells: list[list[str]] = []
    for sep in (",", ";", "\t"):
        cells.extend(csv.reader(io.StringIO(text, newline=""), delimiter=sep))
        cells.extend(line.split(sep) for line in text.split("\r\n"))  # a reader that ignores quotes
    return cells


def _formulas(text: str) -> list[str]:
    # A quote-ignoring reader leaves the quote on: '"=1' is still a formula for some.
    # A number (``-1``, the only kind the server writes bare) is a number, not a formula; a
    # reader may trim leading spaces.
    cells = [c.lstrip(" ") for row in _readings(text) for c in row]
    return [c for c in cells if c.startswith(FORMULA) and re.fullmatch(r"-?[0-9]+", c) is None]


def test_the_issues_cells_start_no_formula_in_any_reading() -> None:
    text = to_csv(["name", "n"], [{"name": evil, "n": -1} for evil in EVIL])
    assert _formulas(text) == []
    # the comma reading still gives each name back (with the marks that make it text)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert [r[0] for r in rows[1:]] == [e.replace(";=", ";'=").replace("\t=", "\t'=") for e in EVIL[:2]] + [
        "Ann; '@SUM(A1)",
        "x;'+1;'-2",
        "q\";'=1+1",
        "a,b;'=c",
    ]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("ab =+-@;,\t\"' ")), max_size=12), min_size=1, max_size=4))
def test_no_cell_starts_a_formula_in_any_reading(values: list[str]) -> None:
    columns = [f"c{i}" for i in range(len(values))]
    text = to_csv(columns, [dict(zip(columns, values, strict=True))])
    assert _formulas(text) == [], text


def test_players_csv_and_results_csv_of_a_tournament(client: TestClient, admin_headers: dict[str, str]) -> None:
    sk = Scorekeeper(client, admin_headers, "SEMI")
    sk.create(rounds=1)
    ids = sk.register("Bob;=1+cmd|' /C calc'!A0", "Ann\t=1+1", "Cat", "Dov")
    rnd = sk.post("/rounds", {"seed": 3})
    for table in rnd["tables"]:
        a, b = table["players"]
        sk.result(1, table["table"], {a: 2, b: 0})
    for name in ("players.csv", "results.csv", "standings.csv"):
        response = client.get(f"/v1/tournaments/SEMI/{name}", headers=admin_headers)
        assert response.status_code == 200, response.text
        assert _formulas(response.text) == [], (name, response.text)
        assert "Bob;'=1+cmd" in response.text, name
    roster = list(
        csv.DictReader(io.StringIO(client.get("/v1/tournaments/SEMI/players.csv", headers=admin_headers).text))
    )
    assert [r["player_id"] for r in roster] == ids
