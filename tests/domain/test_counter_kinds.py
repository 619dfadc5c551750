"""Counter kinds (CR 122): matched case-insensitively against the known kinds, stored canonically;
an unknown kind is refused with the nearest known ones unless the body says ``custom_kind``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from api.errors import status_of
from domain.cards.catalog import bundled_entries
from domain.counter_kinds import RULE_KINDS, canonical_kind, known_kinds, nearest_kinds, printed_kinds
from domain.errors import UnknownName
from tests.domain.helpers import RELIC, Game, perm, two_player

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "data"


@pytest.mark.parametrize(
    ("kind", "rule"),
    [
        ("+1/+1", "CR 122.1a"),
        ("first strike", "CR 122.1b"),
        ("shield", "CR 122.1c"),
        ("stun", "CR 122.1d"),
        ("loyalty", "CR 122.1e"),
        ("poison", "CR 122.1f"),
        ("defense", "CR 122.1g"),
        ("finality", "CR 122.1h"),
        ("rad", "CR 122.1i"),
        ("energy", "CR 107.14"),
        ("ticket", "CR 107.17"),
    ],
)
def test_cr_122_1_the_kinds_the_rules_name_are_known(kind: str, rule: str) -> None:
    assert RULE_KINDS[kind] == rule
    assert canonical_kind(kind) == kind


def test_cr_122_1a_any_plus_x_plus_y_or_minus_x_minus_y_counter_is_known() -> None:
    assert canonical_kind("+1/+0") == "+1/+0"
    assert canonical_kind("-0/-2") == "-0/-2"
    assert canonical_kind("+3/+3") == "+3/+3"
    with pytest.raises(UnknownName):
        canonical_kind("+1/-1")  # 122.1a: +X/+Y or -X/-Y, not mixed


def test_kinds_printed_on_the_bundled_cards_come_from_their_oracle_text() -> None:
    texts = [str(e.get("oracle_text") or "") for e in bundled_entries()]
    printed = printed_kinds(texts)
    assert {"quest", "lore", "rad", "+1/+1", "-1/-1", "poison"} <= printed
    assert not printed & {"a", "another", "each", "more", "those"}, "words before 'counter' that name no kind"
    assert printed <= set(known_kinds().values())


def test_printed_kinds_reads_kinds_from_text() -> None:
    assert printed_kinds(["Put a brick counter on it. Remove two charge counters from it."]) == {"brick", "charge"}
    assert printed_kinds(["Put a double strike counter on target creature."]) == {"double strike"}


@pytest.mark.parametrize(("written", "canonical"), [("RAD", "rad"), ("Rad", "rad"), ("First  Strike", "first strike")])
def test_kinds_match_case_insensitively_and_are_stored_canonically(written: str, canonical: str) -> None:
    game = two_player()
    game.act("add_counters", target={"player": "P2"}, kind=written, amount=1)
    assert game.counters("P2") == {canonical: 1}


def test_spellings_of_one_kind_given_together_are_one_kind() -> None:
    game = two_player(battlefield=[perm("relic", RELIC, counters={"Charge": 1, "charge": 2})])
    assert game.perm_counters("relic") == {"charge": 3}


def test_an_unknown_kind_is_refused_with_the_nearest_known_kinds_and_stores_nothing() -> None:
    game = two_player()
    before = game.snapshot()
    with pytest.raises(UnknownName) as err:
        game.act("add_counters", target={"player": "P2"}, kind="raad", amount=1)
    assert (err.value.code, status_of(err.value.code)) == ("unknown_counter_kind", 422)
    assert "'rad'" in err.value.message and "'raad'" in err.value.message
    assert game.snapshot() == before


def test_nearest_kinds_are_close_spellings() -> None:
    assert nearest_kinds("+1/+2 ")[0] == "+1/+2"
    assert "quest" in nearest_kinds("qest")
    assert nearest_kinds("zzzzzzzz") == []


@pytest.mark.parametrize(
    ("type_", "fields"),
    [
        ("remove_counters", {"target": {"player": "P1"}, "kind": "radd", "amount": 1}),
        ("enter", {"card": RELIC, "controller": "P1", "counters": {"chrage": 1}}),
        ("activate", {"player": "P1", "permanent": "relic", "costs": {"remove_counters": {"chrage": 1}}}),
        ("proliferate", {"player": "P1", "choose": [{"player": "P1", "kind": "radd"}]}),
    ],
)
def test_every_body_that_names_a_kind_checks_it(type_: str, fields: dict[str, Any]) -> None:
    game = two_player(battlefield=[perm("relic", RELIC, counters={"charge": 1})])
    with pytest.raises(UnknownName) as err:
        game.act(type_, **fields)
    assert err.value.code == "unknown_counter_kind"


def test_custom_kind_records_an_unknown_kind_as_written() -> None:
    game = two_player()
    game.act("add_counters", target={"player": "P2"}, kind="Doom Clock", amount=2, custom_kind=True)
    game.act("add_counters", target={"player": "P2"}, kind="RAD", amount=1, custom_kind=True)
    assert game.counters("P2") == {"Doom Clock": 2, "rad": 1}, "a known kind is still canonical"


def test_a_create_body_checks_kinds_too_unless_custom_kind() -> None:
    body = {"variant": "two_player", "players": [{"id": "P1", "counters": {"raad": 1}}, {"id": "P2"}]}
    with pytest.raises(UnknownName) as err:
        Game(body)
    assert err.value.code == "unknown_counter_kind" and "players[0].counters" in err.value.message
    assert Game({**body, "custom_kind": True}).counters("P1") == {"raad": 1}


def _scenario_kinds(value: Any) -> set[str]:
    """Counter kinds named anywhere in a scenario's setup and actions."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "counters" and isinstance(item, dict):
                found |= {str(k) for k in item}
            elif key == "kind" and isinstance(item, str):
                found.add(item)
            else:
                found |= _scenario_kinds(item)
    elif isinstance(value, list):
        for item in value:
            found |= _scenario_kinds(item)
    return found


def test_every_kind_the_scenarios_use_is_known() -> None:
    """The rules' scenarios (tests/scenarios/data) report kinds without ``custom_kind``."""
    used: set[str] = set()
    for path in sorted(SCENARIOS.glob("*.yaml")):
        used |= _scenario_kinds(yaml.safe_load(path.read_text(encoding="utf-8")))
    used -= {"trigger", "ability", "spell"}  # stack object kinds, not counters
    assert used, "no kinds found: the scenario format changed"
    assert {k for k in used if canonical_kind(k) != k} == set()
