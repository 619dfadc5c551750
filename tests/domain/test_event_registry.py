"""The event vocabulary is one registry: every event type has a fold, an import audit check, a
timeline sentence, a redaction rule, an OpenAPI schema and its place in docs/events.md. A new
event type without any of them fails here instead of drifting (issue: one event vocabulary)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from api.settings import Settings
from domain import events as ev
from domain.audit import CHECKS
from domain.event_view import REDACTIONS
from domain.events.catalogue import BEGIN, END, field_reference
from domain.events.schema import data_schema
from domain.fold import FOLDS
from projections.sentences import SENTENCES, describe
from tests.domain.helpers import BEARS, perm, two_player

EVENTS_MD = Path(__file__).resolve().parents[2] / "docs" / "events.md"


@pytest.mark.parametrize("table", [FOLDS, CHECKS, SENTENCES, REDACTIONS], ids=lambda t: t.concern)
def test_every_event_type_has_a_handler_in_each_table(table: ev.EventHandlers[Any]) -> None:
    assert table.missing() == []


def test_a_table_names_what_it_misses() -> None:
    """``missing`` is what the test above relies on: a table without an entry must say so."""
    partial: ev.EventHandlers[int] = ev.EventHandlers("partial")
    partial.put(ev.LifeLost, 1)
    assert "LifeGained" in partial.missing() and "LifeLost" not in partial.missing()
    with pytest.raises(ValueError, match="two handlers"):
        partial.put(ev.LifeLost, 2)


def test_every_event_type_has_a_data_schema_in_the_openapi_document(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'l.sqlite3'}"))
    components = app.openapi()["components"]["schemas"]
    mapping = components["EventOut"]["properties"]["data"]["x-data-schemas"]
    for cls in ev.event_classes():
        schema = components[f"{cls.TYPE}Data"]
        assert schema == data_schema(cls)
        assert set(schema["properties"]) == {spec.name for spec in cls.FIELDS}
        assert mapping[cls.TYPE] == f"#/components/schemas/{cls.TYPE}Data"


def test_docs_events_md_has_a_section_and_the_generated_fields_for_every_type() -> None:
    text = EVENTS_MD.read_text()
    prose = text.split(BEGIN)[0]  # the hand-written catalogue: when each event happens, its fold
    headings = {name for line in prose.splitlines() if line.startswith("### ") for name in re.findall(r"\w+", line)}
    assert [cls.TYPE for cls in ev.event_classes() if cls.TYPE not in headings] == []
    fresh = with_field_reference(text, field_reference())
    # The page read before any rewrite is what is compared: a run that rewrites it still fails,
    # so a stale page is never passed by comparing the new text with itself.
    if fresh != text and os.environ.get("MTG_LEDGER_WRITE_DOCS") == "1":
        EVENTS_MD.write_text(fresh)
        pytest.fail("docs/events.md's field reference was stale and is rewritten now: review the diff, run again")
    assert fresh == text, "docs/events.md's field reference is stale: rerun with MTG_LEDGER_WRITE_DOCS=1"


def with_field_reference(text: str, reference: str) -> str:
    """The page with its generated section (``BEGIN`` to ``END``) replaced by ``reference``, or
    with ``reference`` appended when it has none yet."""
    start = text.find(BEGIN)
    end = text.find(END)
    head = text[:start].rstrip("\n") if start >= 0 else text.rstrip("\n")
    tail = text[end + len(END) :].lstrip("\n") if end >= 0 else ""
    return head + "\n\n" + reference + (("\n" + tail) if tail else "")


def test_the_field_reference_replaces_only_its_own_section() -> None:
    """What the page test above relies on: a stale reference is replaced, the prose around it kept."""
    page = f"# Events\n\nprose\n\n{BEGIN}\nold table\n{END}\n\n## After\n"
    assert with_field_reference(page, f"{BEGIN}\nnew table\n{END}\n") == (
        f"# Events\n\nprose\n\n{BEGIN}\nnew table\n{END}\n\n## After\n"
    )
    assert with_field_reference(page, f"{BEGIN}\nold table\n{END}\n") == page
    assert with_field_reference("# Events\n", "REF\n") == "# Events\n\nREF\n"


def test_stored_data_round_trips_and_unknown_or_missing_fields_are_named() -> None:
    game = two_player(p1={"library_size": 5}, battlefield=[perm("bears", BEARS)], step="precombat_main")
    events = [
        *game.act("lose_life", player="P2", amount=3),
        *game.act("add_counters", target={"permanent": "bears"}, kind="+1/+1", amount=2),
        *game.act("tap", permanent="bears"),
        *game.act("mill", player="P1", count=1, cards=[{"name": "Forest", "type_line": "Basic Land — Forest"}]),
    ]
    assert events
    for event in events:
        again = ev.Event.parse(event.type, event.data, event.rule)
        assert again == event and again.data == event.data
    with pytest.raises(ev.EventFormatError, match="unknown field 'extra'"):
        ev.Event.parse("LifeLost", {**events[0].data, "extra": 1})
    with pytest.raises(ev.EventFormatError, match=r"missing field\(s\) \['life_after'\]"):
        ev.Event.parse("LifeLost", {k: v for k, v in events[0].data.items() if k != "life_after"})
    with pytest.raises(ev.EventFormatError, match="unknown event type"):
        ev.Event.parse("Teleported", {})


def test_optional_fields_stay_out_of_the_stored_data_while_they_hold_their_default() -> None:
    lost = ev.LifeLost(player="P1", amount=2, cause="manual", life_after=18)
    assert "paid" not in lost.to_json()
    assert ev.LifeLost(player="P1", amount=2, cause="cost", life_after=18, paid=True).to_json()["paid"] is True


def test_every_sentence_is_prose_never_raw_json() -> None:
    """The page shows the server's sentence for every event (no event type falls back to JSON)."""
    game = two_player(battlefield=[perm("bears", BEARS)], step="precombat_main")
    for event in game.act("lose_life", player="P2", amount=3):
        text = describe(event.type, event.data, event.rule)
        assert text.startswith("P2 loses 3 life") and "{" not in text
    assert describe("LifeLost", {"oops": 1}, None) == "LifeLost (unreadable record)"
