"""A Swiss result corrected once the top cut is paired (issue 38 item 8): the bracket is paired
from the Swiss standings (MTR 10.4: the cut is the top players after the Swiss rounds) and its
pairings stand, so a correction that would change who made the cut or their seeds is refused
(``bracket_moved_on``, as a bracket correction past its next round is); one that changes
neither is recorded."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.errors import GameError
from domain.tournament import CorrectResult, DropPlayer, PairTopCut, evolve
from domain.tournament.events import ResultCorrected
from domain.tournament.standings import standings
from domain.tournament.state import TournamentState
from tests.tournament.helpers import Event, event_with, play_swiss

CUT = 4


def _paired_cut() -> Event:
    ev = event_with(8, rounds=3, top_cut=CUT)
    play_swiss(ev, 3, seed=2)
    ev.act(PairTopCut())
    return ev


def _corrections(state: TournamentState) -> Iterator[tuple[CorrectResult, list[str]]]:
    """Every other best-of-three score of every Swiss table, with the top 4 it would make."""
    scores = [(2, 0), (2, 1), (1, 2), (0, 2), (1, 1)]
    for rnd in state.swiss_rounds:
        for table in rnd.tables:
            assert table.result is not None
            for games in scores:
                if games == table.result.games:
                    continue
                draws = 1 if games == (1, 1) else 0
                after = evolve(
                    state,
                    ResultCorrected(
                        round=rnd.number, table=table.number, games=list(games), draws=draws, reason="r", by="sk"
                    ),
                )
                top = [line.player for line in standings(after)][:CUT]
                command = CorrectResult(
                    round=rnd.number, table=table.number, games=games, draws=draws, reason="slip", by="sk"
                )
                yield command, top


def test_a_swiss_correction_that_would_change_the_cut_or_its_seeds_is_refused() -> None:
    """Computed by hand from the standings: each correction that would seat another top 4, or
    the same four in another order, is refused and records nothing."""
    ev = _paired_cut()
    seeds = list(ev.state.cut_seeds)
    moving = [(c, top) for c, top in _corrections(ev.state) if top != seeds]
    assert any(set(top) != set(seeds) for _, top in moving)  # someone else in the cut
    assert any(set(top) == set(seeds) for _, top in moving)  # the same four, reseeded
    for command, _ in moving:
        before, log = ev.state, list(ev.log)
        with pytest.raises(GameError) as err:
            ev.act(command)
        assert err.value.code == "bracket_moved_on"
        assert ev.state == before and ev.log == log


def test_a_swiss_correction_that_keeps_the_cut_and_its_seeds_is_recorded() -> None:
    ev = _paired_cut()
    seeds = list(ev.state.cut_seeds)
    command = next(c for c, top in _corrections(ev.state) if top == seeds)
    ev.act(command)
    table = ev.state.rounds[command.round - 1].tables[command.table - 1]
    assert table.result is not None and table.result.games == command.games and table.corrections == 1
    assert list(ev.state.cut_seeds) == seeds


def test_a_player_who_drops_inside_the_bracket_keeps_their_seed() -> None:
    """MTR 2.10 leaves out of the cut only players who dropped before it: a seed who drops in
    the bracket is still that seed, so a harmless Swiss correction is still recorded."""
    ev = _paired_cut()
    seeds = list(ev.state.cut_seeds)
    command = next(c for c, top in _corrections(ev.state) if top == seeds)
    ev.act(DropPlayer(player=seeds[0], reason="left", by="sk"))
    ev.act(command)
    assert list(ev.state.cut_seeds) == seeds
