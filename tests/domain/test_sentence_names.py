"""Sentences name players and cards, not ids (issue 30, "names everywhere";
``projections.sentences.Names``, ``projections.timeline``)."""

from __future__ import annotations

from typing import Any

import pytest

from projections.sentences import Names, describe
from projections.timeline import texts, timeline
from store.results import Actor, RecordedEvent
from tests.domain.helpers import BEARS, perm, two_player

NAMES = Names(
    players={"P1": "Alice", "P2": "Bob"},
    permanents={"ornithopter-2": "Ornithopter", "throne-of-geth-4": "Throne of Geth", "cmdr": "Kenrith"},
)


@pytest.mark.parametrize(
    ("type_", "data", "rule", "text"),
    [
        ("LifeLost", {"player": "P2", "amount": 3, "life_after": 17, "cause": "manual"}, None, "Bob loses 3 life"),
        ("PermanentUntapped", {"permanent": "ornithopter-2", "cause": "untap step"}, "CR 502.3", "Ornithopter untaps"),
        (
            "CountersAdded",
            {"target": {"permanent": "throne-of-geth-4"}, "kind": "+1/+1", "amount": 1, "cause": "proliferate"},
            None,
            "Throne of Geth gets 1 +1/+1 counter",
        ),
        (
            "DamageDealt",
            {
                "target": {"player": "P2"},
                "amount": 5,
                "source": "cmdr",
                "combat": True,
                "infect": False,
                "toxic": 0,
                "commander": "P1:Kenrith",
            },
            None,
            "Kenrith deals 5 damage to Bob (combat, commander damage from Alice's Kenrith)",
        ),
        (
            "PermanentEntered",
            {"permanent": {"id": "bears-7", "card": BEARS, "controller": "P1", "owner": "P1", "tapped": True}},
            None,
            "Grizzly Bears enters the battlefield tapped under Alice's control",
        ),
        (
            "TriggerPutOnStack",
            {
                "object": {"description": "Rad counters (CR 728.1): P1 mills cards equal to their rad counters"},
                "seq": 3,
            },
            "CR 603.3",
            "Trigger put on the stack: Rad counters (CR 728.1): Alice mills cards equal to their rad counters",
        ),
        (
            "ReportAwaitingAcknowledgement",
            {"report": "report-5", "reporter": "P1", "players": ["P2"], "summary": "Bob: life 20 -> 17"},
            None,
            "Alice's report report-5 awaits acknowledgement by Bob (Bob: life 20 -> 17)",
        ),
        ("ReportAcknowledged", {"report": "report-5", "by": "P2"}, None, "Report report-5 acknowledged by Bob"),
        ("GameEnded", {"winners": ["P1"], "draw": False}, None, "Game over: Alice wins"),
        # Where an id is the only name, it stays: a player given no name, a permanent never seen.
        ("LifeGained", {"player": "P3", "amount": 1, "life_after": 21, "cause": ""}, None, "P3 gains 1 life (21 now)"),
        ("PermanentTapped", {"permanent": "mystery-9", "cause": "manual"}, None, "mystery-9 becomes tapped"),
    ],
)
def test_sentences_name_players_and_cards(type_: str, data: dict[str, Any], rule: str | None, text: str) -> None:
    assert describe(type_, data, rule, names=NAMES).startswith(text)


def test_without_names_a_sentence_keeps_the_ids_and_links_a_card_to_its_id() -> None:
    entered = {"permanent": {"id": "bears-7", "card": BEARS, "controller": "P1", "owner": "P1"}}
    assert (
        describe("PermanentEntered", entered, None)
        == "Grizzly Bears (bears-7) enters the battlefield under P1's control"
    )
    assert (
        describe("PermanentTapped", {"permanent": "bears-7", "cause": "manual"}, None)
        == "bears-7 becomes tapped (manual)"
    )


def test_names_of_a_state() -> None:
    game = two_player(p1={"name": "Alice"}, battlefield=[perm("b", BEARS, "P1")])
    names = Names.of_state(game.state)
    assert names.players == {"P1": "Alice"}  # P2 has no name but its id
    assert names.permanents == {"b": "Grizzly Bears"}


def _recorded(version: int, type_: str, data: dict[str, Any], rule: str | None = None) -> RecordedEvent:
    return RecordedEvent(version, type_, data, rule, f"a{version}", Actor("Sam", "scorekeeper"), "t", "0", "0")


def test_the_timeline_learns_the_names_from_the_game_and_from_the_page_before() -> None:
    """The game's start names its players and permanents; a later page starts from the names of
    the state before it (``Names.of_state``), as the ledger passes them."""
    game = two_player(
        p1={"name": "Alice"}, p2={"name": "Bob"}, battlefield=[perm("ornithopter-2", "Ornithopter", "P1", tapped=True)]
    )
    start = game.events[0]
    untap = {"permanent": "ornithopter-2", "cause": "untap step"}
    lines = texts(
        timeline(
            [
                _recorded(1, "GameStarted", start.payload.to_json()),
                _recorded(2, "TurnBegan", {"number": 5, "active_player": "P2", "active_team": None}, "CR 500.1"),
                _recorded(3, "PermanentUntapped", untap, "CR 502.3"),
            ]
        )
    )
    assert lines[1].startswith("Turn 5 begins: Bob is active") and lines[2].startswith("Ornithopter untaps")
    assert "P2" not in lines[1] and "ornithopter-2" not in lines[2]
    page = timeline([_recorded(9, "PermanentUntapped", untap)], (5, "untap"), None, Names.of_state(game.state))
    assert texts(page) == ["Ornithopter untaps (untap step)"]
