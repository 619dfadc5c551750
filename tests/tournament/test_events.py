"""The tournament's event vocabulary: its own registry, every field documented, every type
folded, the stored shape round-tripping (domain/tournament/events.py)."""

from __future__ import annotations

import json

import pytest

from domain import events as game_events
from domain.events.base import EventFormatError
from domain.tournament import (
    EventCreated,
    PairRound,
    PlayerRegistered,
    TournamentEvent,
    event_to_json,
    missing_folds,
    parse_event,
    tournament_event_classes,
    tournament_state,
)
from domain.tournament.events import tournament_event
from tests.tournament.helpers import event_with, play_swiss

EXPECTED = {
    "EventCreated",
    "PlayerRegistered",
    "PlayerDropped",
    "PlayerMarkedNoShow",
    "RoundPaired",
    "TopCutPaired",
    "ResultReported",
    "ResultCorrected",
    "IntentionalDraw",
    "MatchReportFiled",
    "MatchReportConfirmed",
    "MatchReportDisputed",
    "TableFeatured",
    "RoundStarted",
    "RoundPaused",
    "RoundResumed",
    "RoundEnded",
    # Decklists (issue 42)
    "DecklistSubmitted",
    "DecklistDeadlineSet",
    "DecklistSubmissionLocked",
    "DeckChecksPicked",
    "DecklistsPublished",
}


def test_the_registry_holds_the_tournament_types_and_none_of_the_games() -> None:
    names = {cls.TYPE for cls in tournament_event_classes()}
    assert names == EXPECTED
    assert names.isdisjoint(cls.TYPE for cls in game_events.event_classes())


def test_every_type_has_a_fold() -> None:
    assert missing_folds() == []


def test_every_field_is_documented() -> None:
    for cls in tournament_event_classes():
        assert cls.__doc__, cls.TYPE
        for spec in cls.FIELDS:
            assert spec.doc.strip(), f"{cls.TYPE}.{spec.name}"


def test_an_undocumented_field_or_a_second_registration_is_refused() -> None:
    from dataclasses import dataclass

    with pytest.raises(ValueError, match="registered twice"):
        tournament_event("EventCreated")(EventCreated)

    with pytest.raises(TypeError, match="has no doc"):

        @tournament_event("Undocumented")
        @dataclass(frozen=True, slots=True, kw_only=True)
        class Undocumented(TournamentEvent):
            value: int = 0


def test_a_whole_event_log_survives_json_and_folds_to_the_same_state() -> None:
    """Store every event as JSON text and read it back: the same events, the same state."""
    ev = event_with(9, rounds=3)
    play_swiss(ev, 3, seed=4)
    text = [json.dumps(event_to_json(e), sort_keys=True) for e in ev.log]
    back = [parse_event(raw["type"], raw["data"]) for raw in map(json.loads, text)]
    assert back == ev.log
    assert tournament_state(back) == ev.state


def test_optional_fields_are_left_out_at_their_default() -> None:
    """A player registered on time stores no ``missed_rounds``; a late one does."""
    assert "missed_rounds" not in PlayerRegistered(player="a", name="A").to_json()
    assert PlayerRegistered(player="a", name="A", missed_rounds=2).to_json()["missed_rounds"] == 2


def test_unknown_types_and_fields_and_missing_fields_are_named() -> None:
    with pytest.raises(EventFormatError, match="unknown tournament event type 'LifeLost'"):
        parse_event("LifeLost", {})
    with pytest.raises(EventFormatError, match="unknown field 'colour'"):
        parse_event("PlayerRegistered", {"player": "a", "name": "A", "colour": "blue"})
    with pytest.raises(EventFormatError, match=r"missing field\(s\) \['name'\]"):
        parse_event("PlayerRegistered", {"player": "a"})
    with pytest.raises(EventFormatError, match="data must be an object"):
        parse_event("PlayerRegistered", [])  # type: ignore[arg-type]


def test_a_paired_round_records_the_seed_it_was_decided_with() -> None:
    ev = event_with(4, rounds=1)
    (paired,) = ev.act(PairRound(seed=12345))
    assert paired.to_json()["seed"] == 12345
