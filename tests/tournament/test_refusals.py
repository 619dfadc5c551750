"""Bad input is refused with its stable code, of the right error class, and produces no events."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.errors import Code, Conflict, GameError, IllegalAction, InvalidCommand, NotFound
from domain.tournament import (
    CODES,
    CorrectResult,
    CreateEvent,
    DropPlayer,
    MarkNoShow,
    PairRound,
    PairTopCut,
    RegisterPlayer,
    ReportIntentionalDraw,
    ReportResult,
    StartRound,
    TournamentCommand,
    decide,
)
from tests.tournament.helpers import Event, event_with


def _fresh() -> Event:
    return Event()


def _created() -> Event:
    return event_with(0)


def _four() -> Event:
    return event_with(4, rounds=2)


def _paired() -> Event:
    ev = event_with(4, rounds=1)
    ev.act(PairRound(seed=1))
    return ev


def _reported() -> Event:
    ev = _paired()
    ev.act(ReportResult(round=1, table=1, games=(2, 0)))
    return ev


CASES: list[tuple[str, Callable[[], Event], TournamentCommand, str]] = [
    ("register before create", _fresh, RegisterPlayer(player="a", name="A"), "tournament_not_created"),
    ("pair before create", _fresh, PairRound(seed=1), "tournament_not_created"),
    ("create twice", _created, CreateEvent(name="X", format="Modern"), "tournament_already_created"),
    ("empty name", _fresh, CreateEvent(name=" ", format="Modern"), "invalid_command"),
    ("bad rel", _fresh, CreateEvent(name="X", format="Modern", rel="friendly"), "invalid_rel"),
    ("bad kind", _fresh, CreateEvent(name="X", format="Modern", kind="2hg"), "invalid_kind"),
    ("zero rounds", _fresh, CreateEvent(name="X", format="Modern", rounds=0), "invalid_rounds"),
    ("bool rounds", _fresh, CreateEvent(name="X", format="Modern", rounds=True), "invalid_rounds"),
    ("round length", _fresh, CreateEvent(name="X", format="Modern", round_minutes=0), "invalid_round_length"),
    ("top 16", _fresh, CreateEvent(name="X", format="Modern", top_cut=16), "invalid_top_cut"),
    ("pod top cut", _fresh, CreateEvent(name="X", format="EDH", kind="commander", top_cut=4), "invalid_top_cut"),
    ("draw worth a win", _fresh, CreateEvent(name="X", format="Modern", win_points=1, draw_points=1), "invalid_points"),
    ("duplicate player", _four, RegisterPlayer(player="p01", name="Again"), "player_already_registered"),
    ("empty player key", _four, RegisterPlayer(player="", name="Nobody"), "invalid_command"),
    ("unknown player drop", _four, DropPlayer(player="nobody"), "unknown_player"),
    ("unknown player no-show", _paired, MarkNoShow(player="nobody"), "unknown_player"),
    ("no-show before pairing", _four, MarkNoShow(player="p01"), "no_round_in_play"),
    ("negative seed", _four, PairRound(seed=-1), "invalid_seed"),
    ("huge seed", _four, PairRound(seed=2**53), "invalid_seed"),
    ("pair with results missing", _paired, PairRound(seed=2), "results_missing"),
    ("unknown round", _paired, ReportResult(round=2, table=1, games=(2, 0)), "unknown_round"),
    ("unknown table", _paired, ReportResult(round=1, table=9, games=(2, 0)), "unknown_table"),
    ("three game wins", _paired, ReportResult(round=1, table=1, games=(3, 0)), "invalid_result"),
    ("both won two", _paired, ReportResult(round=1, table=1, games=(2, 2)), "invalid_result"),
    ("negative games", _paired, ReportResult(round=1, table=1, games=(2, -1)), "invalid_result"),
    ("one seat only", _paired, ReportResult(round=1, table=1, games=(2,)), "invalid_result"),
    ("nothing played", _paired, ReportResult(round=1, table=1, games=(0, 0)), "invalid_result"),
    ("too many draws", _paired, ReportResult(round=1, table=1, games=(0, 0), draws=4), "invalid_result"),
    ("report twice", _reported, ReportResult(round=1, table=1, games=(0, 2)), "match_already_reported"),
    ("draw a reported match", _reported, ReportIntentionalDraw(round=1, table=1), "match_already_reported"),
    ("no-show after result", _reported, MarkNoShow(player="p01"), "match_already_reported"),
    (
        "correct unreported",
        _paired,
        CorrectResult(round=1, table=1, games=(2, 0), draws=0, reason="r", by="sk"),
        ("match_not_reported"),
    ),
    (
        "correct without reason",
        _reported,
        CorrectResult(round=1, table=1, games=(0, 2), draws=0, reason="", by="sk"),
        ("invalid_command"),
    ),
    ("no top cut", _reported, PairTopCut(), "no_top_cut"),
    ("clock without offset", _paired, StartRound(round=1, at="2026-12-05T10:00"), "invalid_time"),
]


@pytest.mark.parametrize(("setup", "command", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_refused_command_has_its_stable_code_and_produces_no_events(
    setup: Callable[[], Event], command: TournamentCommand, code: str
) -> None:
    ev = setup()
    before = ev.state
    with pytest.raises(GameError) as err:
        decide(ev.state, command)
    assert err.value.code == code
    assert isinstance(err.value, Code(code).kind)
    assert ev.state == before


def test_every_code_has_a_class_of_the_error_tree_and_a_meaning() -> None:
    """The codes are ``domain.errors.Code`` members (domain.errors is the one place of every
    code), of the classes NotFound 404, Conflict 409, InvalidCommand 400, IllegalAction 422 in the
    API; each refusal is an instance of its code's class."""
    assert set(Code) >= CODES
    for code in CODES:
        assert code.kind in (NotFound, Conflict, InvalidCommand, IllegalAction), code
        assert code.meaning


def test_a_refusal_carries_its_code_like_every_other_error() -> None:
    """``code`` is the member of ``Code``: the API answers it as problem+json's ``code``."""
    ev = _four()
    with pytest.raises(GameError) as err:
        decide(ev.state, DropPlayer(player="nobody"))
    assert err.value.code is Code.UNKNOWN_PLAYER
    assert isinstance(err.value, NotFound)
    with pytest.raises(GameError) as other:
        decide(ev.state, PairRound(seed=-1))
    assert other.value.code is Code.INVALID_SEED
    assert isinstance(other.value, InvalidCommand)
