"""Drops, late entry, byes, corrections, intentional draws, no-shows, the top cut's rules and the
round clock, each changing the standings (or refusing) as the MTR says."""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction as F

import pytest

from domain.errors import GameError
from domain.tournament import (
    CorrectResult,
    CreateEvent,
    DropPlayer,
    EndRound,
    MarkNoShow,
    PairRound,
    PairTopCut,
    PauseRound,
    PlayerDropped,
    PlayerMarkedNoShow,
    PlayerRegistered,
    RegisterPlayer,
    ReportIntentionalDraw,
    ReportResult,
    ResultCorrected,
    ResultReported,
    ResumeRound,
    Standing,
    StartRound,
    TournamentCommand,
    standings,
    tournament_state,
)
from tests.tournament.helpers import Event, event_with, play_swiss


def refused(ev: Event, command: TournamentCommand) -> str:
    """The code of a refused command; the state must not have moved."""
    before, log = ev.state, list(ev.log)
    with pytest.raises(GameError) as err:
        ev.act(command)
    assert ev.state == before and ev.log == log
    return err.value.code


def line(ev: Event, player: str) -> Standing:
    return next(s for s in standings(ev.state) if s.player == player)


def _table_of(ev: Event, player: str) -> tuple[int, int]:
    rnd = ev.state.rounds[-1]
    table = rnd.table_of(player)
    assert table is not None
    return table.number, table.players.index(player)


def _win(ev: Event, player: str, score: tuple[int, int] = (2, 0)) -> None:
    number, seat = _table_of(ev, player)
    games = score if seat == 0 else (score[1], score[0])
    ev.act(ReportResult(round=ev.state.rounds[-1].number, table=number, games=games))


def _report_rest(ev: Event) -> None:
    rnd = ev.state.rounds[-1]
    for t in rnd.tables:
        if ev.state.rounds[-1].tables[t.number - 1].result is None:
            ev.act(ReportResult(round=rnd.number, table=t.number, games=(2, 1)))


# --- drops (MTR 2.10) ---------------------------------------------------------------------------


def test_mtr_2_10_a_dropped_player_is_not_paired_again_but_still_counts_as_an_opponent() -> None:
    ev = event_with(8, rounds=3)
    ev.act(PairRound(seed=1))
    _report_rest(ev)
    leaver = ev.state.rounds[0].tables[0].players[1]  # lost 1-2
    opponent = ev.state.rounds[0].tables[0].players[0]
    omw_before = line(ev, opponent).omwp
    (dropped,) = ev.act(DropPlayer(player=leaver))
    assert isinstance(dropped, PlayerDropped) and dropped.after_round == 1
    ev.act(PairRound(seed=2))
    assert all(leaver not in t.players for t in ev.state.rounds[1].tables)
    assert ev.state.rounds[1].byes != (leaver,)
    _report_rest(ev)
    # The leaver played 1 round (0 points): MWP 0.33, still one of the opponent's two opponents.
    assert line(ev, leaver).mwp == F(33, 100)
    assert line(ev, leaver).dropped
    assert omw_before == F(33, 100)
    second = ev.state.rounds[1].table_of(opponent)
    assert second is not None
    other = next(p for p in second.players if p != opponent)
    assert line(ev, opponent).omwp == (F(33, 100) + line(ev, other).mwp) / 2


def test_mtr_2_10_a_drop_after_the_next_round_is_paired_still_plays_that_round() -> None:
    ev = event_with(4, rounds=3)
    ev.act(PairRound(seed=1))
    (dropped,) = ev.act(DropPlayer(player="p01"))
    assert isinstance(dropped, PlayerDropped) and dropped.after_round == 1
    assert ev.state.rounds[0].table_of("p01") is not None
    assert refused(ev, PairRound(seed=2)) == "results_missing"  # p01's match is still to report


def test_mtr_2_10_a_player_who_drops_before_round_1_did_not_participate() -> None:
    ev = event_with(4, rounds=2)
    ev.act(DropPlayer(player="p04"))
    ev.act(PairRound(seed=1))
    assert all("p04" not in t.players for t in ev.state.rounds[0].tables)
    assert "p04" not in [s.player for s in standings(ev.state)]


def test_dropping_twice_is_refused() -> None:
    ev = event_with(4)
    ev.act(DropPlayer(player="p02"))
    assert refused(ev, DropPlayer(player="p02")) == "player_already_dropped"


# --- late entry ---------------------------------------------------------------------------------


def test_a_late_entrant_starts_on_0_points_with_a_loss_for_each_round_missed() -> None:
    """docs/rules.md, Late entry: a 0-2 match loss, without an opponent, for each round paired
    before the player joined; they count in the player's MWP and GWP, not in anyone's OMW%."""
    ev = event_with(8, rounds=4)
    play_swiss(ev, 2, seed=5)
    (joined,) = ev.act(RegisterPlayer(player="late", name="Late Comer"))
    assert isinstance(joined, PlayerRegistered) and joined.missed_rounds == 2
    late = line(ev, "late")
    assert (late.match_points, late.losses, late.rounds, late.mwp, late.omwp) == (
        0,
        2,
        2,
        F(33, 100),
        F(33, 100),
    )
    ev.act(PairRound(seed=9))
    rnd = ev.state.rounds[-1]
    assert rnd.table_of("late") is not None or rnd.byes == ("late",)
    if rnd.byes != ("late",):
        _win(ev, "late")
    _report_rest(ev)
    late = line(ev, "late")
    # One win in three rounds: 3 / 9 = 1/3; games 6 of 18 (two 0-2 losses, one 2-0 win).
    assert (late.match_points, late.mwp, late.gwp) == (3, F(1, 3), F(1, 3))


def test_registration_closes_once_every_swiss_round_is_paired() -> None:
    ev = event_with(4, rounds=1)
    ev.act(PairRound(seed=1))
    assert refused(ev, RegisterPlayer(player="late", name="Too Late")) == "registration_closed"


# --- byes ---------------------------------------------------------------------------------------


def test_appendix_c_a_bye_is_a_2_0_win_and_no_opponent() -> None:
    """A bye: 3 match points and 6 game points (a 2-0 win); the player's OMW% ignores it."""
    ev = event_with(5, rounds=3)
    ev.act(PairRound(seed=1))
    (bye,) = ev.state.rounds[0].byes
    _report_rest(ev)
    mine = line(ev, bye)
    assert (mine.match_points, mine.wins, mine.byes, mine.mwp, mine.gwp) == (
        3,
        1,
        1,
        F(1),
        F(1),
    )
    assert mine.omwp == F(33, 100)  # no opponent yet: the floor


def test_the_bye_goes_to_the_lowest_ranked_player_and_never_twice() -> None:
    """Round 2 of 5 players: the bye can't go back to round 1's; it goes to the lowest-ranked
    of the others (0 points, the worst tiebreakers)."""
    ev = event_with(5, rounds=3)
    ev.act(PairRound(seed=1))
    (first,) = ev.state.rounds[0].byes
    _report_rest(ev)
    eligible = [s.player for s in standings(ev.state) if s.player != first]
    ev.act(PairRound(seed=2))
    assert ev.state.rounds[1].byes == (eligible[-1],)


def test_no_pairing_is_possible_once_everyone_has_had_a_bye_or_met_everyone() -> None:
    """3 players, 3 rounds: each meets both others once and has one bye; a 4th round can't be paired."""
    ev = event_with(3, rounds=4)
    for r in range(3):
        ev.act(PairRound(seed=r))
        _report_rest(ev)
    byes = [b for r in ev.state.rounds for b in r.byes]
    assert sorted(byes) == ["p01", "p02", "p03"]
    assert refused(ev, PairRound(seed=4)) == "pairing_impossible"


# --- corrections and intentional draws ----------------------------------------------------------


def test_a_corrected_result_recomputes_the_standings_and_is_on_the_record() -> None:
    ev = event_with(4, rounds=2)
    ev.act(PairRound(seed=1))
    a, b = ev.state.rounds[0].tables[0].players
    ev.act(ReportResult(round=1, table=1, games=(2, 0)))
    _report_rest(ev)
    assert (line(ev, a).match_points, line(ev, b).match_points) == (3, 0)
    assert refused(ev, ReportResult(round=1, table=1, games=(0, 2))) == "match_already_reported"
    (fix,) = ev.act(CorrectResult(round=1, table=1, games=(1, 2), draws=0, reason="slip swapped", by="sk"))
    assert isinstance(fix, ResultCorrected) and (fix.reason, fix.by) == ("slip swapped", "sk")
    assert (line(ev, a).match_points, line(ev, b).match_points) == (0, 3)
    assert (line(ev, a).gwp, line(ev, b).gwp) == (F(1, 3), F(2, 3))
    assert ev.state.rounds[0].tables[0].corrections == 1
    assert tournament_state(ev.log) == ev.state
    assert (
        refused(ev, CorrectResult(round=1, table=1, games=(1, 2), draws=0, reason="again", by="sk"))
        == "correction_changes_nothing"
    )


def test_correcting_an_unreported_match_is_refused() -> None:
    ev = event_with(4, rounds=2)
    ev.act(PairRound(seed=1))
    assert refused(ev, CorrectResult(round=1, table=1, games=(2, 0), draws=0, reason="r", by="sk")) == (
        "match_not_reported"
    )


def test_mtr_2_4_an_intentional_draw_with_no_game_played_is_0_0_3() -> None:
    """Each player gets 1 match point and 3 of 9 game points (three drawn games)."""
    ev = event_with(4, rounds=2)
    ev.act(PairRound(seed=1))
    a, b = ev.state.rounds[0].tables[0].players
    (drawn,) = ev.act(ReportIntentionalDraw(round=1, table=1))
    assert (drawn.games, drawn.draws) == ([0, 0], 3)
    _report_rest(ev)
    for p in (a, b):
        mine = line(ev, p)
        assert (mine.match_points, mine.draws, mine.mwp, mine.gwp) == (1, 1, F(1, 3), F(1, 3))


def test_mtr_2_4_an_intentional_draw_records_the_games_played() -> None:
    ev = event_with(4, rounds=2)
    ev.act(PairRound(seed=1))
    (drawn,) = ev.act(ReportIntentionalDraw(round=1, table=1, games=(1, 1)))
    assert (drawn.games, drawn.draws) == ([1, 1], 0)
    assert refused(ev, ReportIntentionalDraw(round=1, table=2, games=(1, 0))) == "invalid_result"


# --- no-shows (MTR 2.10, IPG 3.1) ---------------------------------------------------------------


def test_a_no_show_loses_the_match_0_2_and_is_dropped() -> None:
    ev = event_with(4, rounds=3)
    ev.act(PairRound(seed=1))
    a, b = ev.state.rounds[0].tables[0].players
    events = ev.act(MarkNoShow(player=b))
    assert [type(e) for e in events] == [PlayerMarkedNoShow, ResultReported, PlayerDropped]
    assert (events[1].games, events[1].draws) == ([2, 0], 0)
    assert line(ev, a).match_points == 3 and line(ev, b).dropped
    _report_rest(ev)
    ev.act(PairRound(seed=2))
    assert all(b not in t.players for t in ev.state.rounds[1].tables)


# --- the top cut --------------------------------------------------------------------------------


def _cut_event() -> Event:
    ev = event_with(8, rounds=3, top_cut=4)
    play_swiss(ev, 3, seed=2)
    return ev


def test_the_top_cut_waits_for_the_swiss_rounds() -> None:
    ev = event_with(8, rounds=3, top_cut=4)
    play_swiss(ev, 2, seed=2)
    assert refused(ev, PairTopCut()) == "swiss_not_finished"


def test_mtr_2_4_no_draws_in_single_elimination() -> None:
    ev = _cut_event()
    ev.act(PairTopCut())
    number = ev.state.rounds[-1].number
    assert refused(ev, ReportResult(round=number, table=1, games=(1, 1), draws=1)) == "draw_in_single_elimination"
    assert refused(ev, ReportIntentionalDraw(round=number, table=1)) == "draw_in_single_elimination"


def test_a_top_4_is_1v4_2v3_and_its_winner_cant_change_once_the_final_is_paired() -> None:
    ev = _cut_event()
    seeds = [s.player for s in standings(ev.state)][:4]
    ev.act(PairTopCut())
    semis = ev.state.rounds[-1]
    assert [t.players for t in semis.tables] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    assert refused(ev, PairRound(seed=3)) == "swiss_finished"
    ev.act(ReportResult(round=semis.number, table=1, games=(2, 0)))
    ev.act(ReportResult(round=semis.number, table=2, games=(0, 2)))
    ev.act(PairTopCut())
    assert ev.state.rounds[-1].tables[0].players == (seeds[0], seeds[2])
    code = refused(ev, CorrectResult(round=semis.number, table=1, games=(0, 2), draws=0, reason="r", by="hj"))
    assert code == "bracket_moved_on"
    # The same winner with another score is still a correction the bracket can take.
    ev.act(CorrectResult(round=semis.number, table=1, games=(2, 1), draws=0, reason="score", by="hj"))


def test_mtr_2_10_a_player_who_dropped_before_the_cut_is_not_seeded() -> None:
    ev = _cut_event()
    leader = standings(ev.state)[0].player
    ev.act(DropPlayer(player=leader))
    (cut,) = ev.act(PairTopCut())
    assert leader not in cut.seeds
    assert cut.seeds == [s.player for s in standings(ev.state) if not s.dropped][:4]


# --- the round clock ----------------------------------------------------------------------------

T0 = datetime(2026, 12, 5, 10, 0, tzinfo=datetime.now().astimezone().tzinfo)


def _at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat()


def test_the_round_clock_runs_pauses_resumes_and_ends() -> None:
    ev = Event()
    ev.act(CreateEvent(name="Clocked", format="Modern", round_minutes=50))
    for p in ("a", "b"):
        ev.act(RegisterPlayer(player=p, name=p))
    ev.act(PairRound(seed=1))
    assert refused(ev, PauseRound(round=1, at=_at(1))) == "round_not_started"
    ev.act(StartRound(round=1, at=_at(0)))
    clock = ev.state.rounds[0].clock
    assert clock.remaining(T0 + timedelta(minutes=10)) == timedelta(minutes=40)
    assert refused(ev, StartRound(round=1, at=_at(1))) == "round_already_started"
    assert refused(ev, ResumeRound(round=1, at=_at(1))) == "clock_not_paused"
    ev.act(PauseRound(round=1, at=_at(10)))
    assert refused(ev, PauseRound(round=1, at=_at(11))) == "clock_already_paused"
    # Paused: the clock stands still at 40 minutes left.
    assert ev.state.rounds[0].clock.remaining(T0 + timedelta(minutes=30)) == timedelta(minutes=40)
    assert refused(ev, ResumeRound(round=1, at=_at(5))) == "clock_went_backwards"
    ev.act(ResumeRound(round=1, at=_at(15)))
    assert ev.state.rounds[0].clock.remaining(T0 + timedelta(minutes=20)) == timedelta(minutes=35)
    assert ev.state.rounds[0].clock.remaining(T0 + timedelta(minutes=60)) == timedelta(minutes=-5)
    ev.act(EndRound(round=1, at=_at(55)))
    assert ev.state.rounds[0].clock.remaining(T0 + timedelta(hours=5)) == timedelta(0)
    assert refused(ev, EndRound(round=1, at=_at(56))) == "round_already_ended"
    assert refused(ev, StartRound(round=2, at=_at(60))) == "unknown_round"
    assert tournament_state(ev.log) == ev.state


@pytest.mark.parametrize("at", ["2026-12-05T10:00:00", "noon", ""])
def test_clock_times_need_an_iso_8601_moment_with_an_offset(at: str) -> None:
    ev = event_with(2)
    ev.act(PairRound(seed=1))
    assert refused(ev, StartRound(round=1, at=at)) == "invalid_time"
