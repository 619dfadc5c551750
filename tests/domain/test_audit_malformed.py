"""Malformed recorded data is a reason from ``check_event``, never an exception out of a check.

``check_event`` catches only ``EventFormatError`` (what the checks raise when a nested value of
an imported record doesn't have the shape the vocabulary gives it), so that a bug in a check
fails loudly instead of reading as "malformed data". This is what makes that narrow catch safe:
each real event the kernel records, with each of its fields replaced by junk of every JSON shape,
gets a reason or ``None`` against the state it followed, and nothing is raised.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from domain import events as ev
from domain import evolve
from domain.audit import CHECKS, audit_record
from domain.events import Event
from domain.state import GameState
from tests.domain.helpers import BEARS, BOLT, FOREST, SAGA, WALKER, perm, two_player

#: One value of each JSON shape, and the shapes the checks read into (targets, cards, objects).
JUNK: list[Any] = [
    None,
    True,
    -1,
    0,
    1.5,
    "",
    "P1",
    "x",
    [],
    [None],
    ["x"],
    [{}],
    [[]],
    {},
    {"x": 1},
    {"id": []},
    {"player": []},
    {"permanent": []},
    {"id": "x", "owner": [], "controller": "P1", "card": 1},
    {"permanent": "bears", "name": 1},
]


def recorded() -> Iterator[tuple[GameState, Event]]:
    """Real events of a game, each with the state it applied to."""
    game = two_player(
        p1={"library": [BOLT, FOREST, BEARS], "library_size": 10, "hand": [FOREST, BEARS, BOLT]},
        p2={"library": [FOREST] * 3},
        battlefield=[perm("saga", SAGA), perm("walker", WALKER, counters={"loyalty": 3}), perm("golem", BEARS)],
        step="upkeep",
        number=4,
    )
    actions: list[tuple[str, dict[str, Any]]] = [
        ("advance", {"to": "precombat_main"}),
        ("note", {"text": "hello"}),
        ("play_land", {"player": "P1", "card": FOREST}),
        ("cast", {"player": "P1", "card": BEARS}),
        ("damage", {"target": {"permanent": "walker"}, "amount": 1}),
        ("add_counters", {"target": {"player": "P2"}, "kind": "poison", "amount": 3}),
        ("remove_counters", {"target": {"player": "P2"}, "kind": "poison", "amount": 1}),
        ("gain_life", {"player": "P2", "amount": 4}),
        ("lose_life", {"player": "P2", "amount": 1}),
        ("mill", {"player": "P2", "count": 1}),
        ("draw", {"player": "P1", "count": 1}),
        ("tap", {"permanent": "saga"}),
        ("untap", {"permanent": "saga"}),
        ("designate", {"designation": "monarch", "player": "P1"}),
        ("advance", {"to": "declare_attackers"}),
        ("attack", {"player": "P1", "attackers": [{"permanent": "golem", "attacks": {"player": "P2"}}]}),
        ("damage", {"target": {"permanent": "golem"}, "amount": 2}),  # it dies (CR 704.5g)
        ("advance", {"to": "next_turn"}),
        ("concede", {"player": "P2"}),
    ]
    for type_, fields in actions:
        while game.state.pending or game.state.stack:
            if game.state.pending:
                game.act("order_triggers", resolve_first=[t.id for t in game.state.pending[0].triggers])
            else:
                game.act("resolve")
        state = game.state
        for event in game.act(type_, **fields):
            yield state, event
            state = evolve(state, event)


def forged(event: Event) -> Iterator[dict[str, Any]]:
    """The event's data with junk in each field, and in each field of a field that is an object."""
    data = event.data
    for key, value in data.items():
        for junk in JUNK:
            yield {**data, key: junk}
            if isinstance(value, dict):
                for inner in value:
                    yield {**data, key: {**value, inner: junk}}


CASES = list(recorded())


def test_the_game_records_the_event_types_the_checks_read_deeply() -> None:
    """The fuzz below reaches the checks that read nested values (cards, objects, permanents)."""
    kinds = {event.type for _, event in CASES}
    deep = {"PermanentEntered", "PermanentLeft", "SpellCast", "CardsMilled", "CardsDrawn", "AttackersDeclared"}
    assert deep <= kinds, sorted(deep - kinds)
    assert {"TriggerPutOnStack", "CountersRemoved", "DesignationChanged", "PlayerLost"} <= kinds


@pytest.mark.parametrize(("state", "event"), CASES, ids=[f"{i}-{e.type}" for i, (_, e) in enumerate(CASES)])
def test_junk_in_any_field_is_a_reason_or_none_never_an_exception(state: GameState, event: Event) -> None:
    assert audit_record(state, event.type, event.data, event.rule) is None  # the real one passes
    for data in forged(event):
        found = audit_record(state, event.type, data, event.rule)  # raises on a check's unguarded read
        assert found is None or isinstance(found, str)


@pytest.mark.parametrize("kind", sorted(CHECKS, key=lambda cls: cls.TYPE), ids=lambda cls: cls.TYPE)
def test_every_check_given_junk_fields_gives_a_reason_or_none(kind: type[ev.DomainEvent]) -> None:
    """Every event type, not only those the game above records: each required field junk in
    turn, the others a player's id, nothing or a target (so the check reads past its first field)."""
    states = [two_player().state, two_player(battlefield=[perm("bears", BEARS)], step="untap").state]
    names = [spec.name for spec in kind.FIELDS if spec.required]
    for state in states:
        for filler in ("P1", None, {"player": "P1"}, "bears"):
            for name in names or [None]:
                for junk in JUNK:
                    data = {n: (junk if n == name else filler) for n in names}
                    found = audit_record(state, kind.TYPE, data)
                    assert found is None or isinstance(found, str)
