"""An 8-player, 3-round event whose standings were worked out on paper (MTR 3.1, Appendix C).

The pairings are written into the log by hand (``RoundPaired`` as the pairing would record it);
results, the intentional draw and the drop go through ``decide``.

    Round 1: A-B 2-0 | C-D 2-1 | E-F intentional draw, no game played: 0-0-3 (MTR 2.4) | G-H 2-0
    Round 2: A-C 2-1 | G-E 0-2 | F-D 1-1-1 (a draw)  | B-H 0-2
    H drops after round 2 (MTR 2.10). 7 players: the bye goes to B, the lowest-ranked (0 points).
    Round 3: A-E 1-2 | C-F 2-0 | G-D 2-0 | B bye (a 2-0 win: 3 match points, 6 game points)

    player  record                  MP  rounds  MWP                 game points    GWP
    A       W 2-0, W 2-1, L 1-2      6   3      6/9 = 2/3           6+6+3 / 24     15/24 = 5/8
    B       L 0-2, L 0-2, bye        3   3      3/9 = 1/3 (> 0.33)  0+0+6 / 18     1/3
    C       W 2-1, L 1-2, W 2-0      6   3      2/3                 6+3+6 / 24     5/8
    D       L 1-2, D 1-1-1, L 0-2    1   3      1/9 -> 0.33         3+4+0 / 24     7/24 -> 0.33
    E       ID 0-0-3, W 2-0, W 2-1   7   3      7/9                 3+6+6 / 24     5/8
    F       ID 0-0-3, D 1-1-1, L 0-2 2   3      2/9 -> 0.33         3+4+0 / 24     7/24 -> 0.33
    G       W 2-0, L 0-2, W 2-0      6   3      2/3                 6+0+6 / 18     2/3
    H       L 0-2, W 2-0, dropped    3   2      3/6 = 1/2           0+6 / 12       1/2

    OMW% and OGW% average the opponents faced (B's bye is no opponent; H, dropped, still counts):
    A  (B, C, E)  OMW (1/3 + 2/3 + 7/9)/3      = 16/27        OGW (1/3 + 5/8 + 5/8)/3    = 19/36
    B  (A, H)     OMW (2/3 + 1/2)/2            = 7/12         OGW (5/8 + 1/2)/2          = 9/16
    C  (D, A, F)  OMW (0.33 + 2/3 + 0.33)/3    = 199/450      OGW (0.33 + 5/8 + 0.33)/3  = 257/600
    D  (C, F, G)  OMW (2/3 + 0.33 + 2/3)/3     = 499/900      OGW (5/8 + 0.33 + 2/3)/3   = 973/1800
    E  (F, G, A)  OMW (0.33 + 2/3 + 2/3)/3     = 499/900      OGW (0.33 + 2/3 + 5/8)/3   = 973/1800
    F  (E, D, C)  OMW (7/9 + 0.33 + 2/3)/3     = 1597/2700    OGW (5/8 + 0.33 + 5/8)/3   = 79/150
    G  (H, E, D)  OMW (1/2 + 7/9 + 0.33)/3     = 1447/2700    OGW (1/2 + 5/8 + 0.33)/3   = 97/200
    H  (G, B)     OMW (2/3 + 1/3)/2            = 1/2          OGW (2/3 + 1/3)/2          = 1/2

    Standings: 1 E (7); the 6-point players by OMW%: 2 A (0.5926), 3 G (0.5359), 4 C (0.4422);
    the 3-point players: 5 B (0.5833), 6 H (0.5); 7 F (2); 8 D (1).

The floor is 0.33, not 1/3: with 1/3, C's OMW% would be 4/9 (0.4444), not 199/450 (0.4422).
B's bye counts in B's own MWP (Appendix C's example: 3-2-0 with a bye is 9/(5x3) = 0.60), so
A's OMW% has 1/3 for B, not 0.33.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from domain.tournament import (
    CreateEvent,
    DropPlayer,
    PairRound,
    RegisterPlayer,
    ReportIntentionalDraw,
    ReportResult,
    RoundPaired,
    Standing,
    decide,
    evolve,
    standings,
    tournament_state,
)
from domain.tournament.events import PairingJson
from tests.tournament.helpers import Event

F33 = F(33, 100)


def _round(ev: Event, number: int, tables: list[tuple[str, str]], byes: list[str]) -> None:
    pairings: list[PairingJson] = [{"table": i + 1, "players": list(t)} for i, t in enumerate(tables)]
    event = RoundPaired(round=number, seed=0, pairings=pairings, byes=byes)
    ev.state = evolve(ev.state, event)
    ev.log.append(event)


def _report(ev: Event, number: int, table: int, games: tuple[int, int], draws: int = 0) -> None:
    ev.act(ReportResult(round=number, table=table, games=games, draws=draws))


@pytest.fixture(scope="module")
def paper() -> Event:
    ev = Event()
    ev.act(CreateEvent(name="Paper", format="Pauper", rounds=3))
    for p in "ABCDEFGH":
        ev.act(RegisterPlayer(player=p, name=f"Player {p}"))
    _round(ev, 1, [("A", "B"), ("C", "D"), ("E", "F"), ("G", "H")], [])
    _report(ev, 1, 1, (2, 0))
    _report(ev, 1, 2, (2, 1))
    ev.act(ReportIntentionalDraw(round=1, table=3))
    _report(ev, 1, 4, (2, 0))
    _round(ev, 2, [("A", "C"), ("G", "E"), ("F", "D"), ("B", "H")], [])
    _report(ev, 2, 1, (2, 1))
    _report(ev, 2, 2, (0, 2))
    _report(ev, 2, 3, (1, 1), draws=1)
    _report(ev, 2, 4, (0, 2))
    ev.act(DropPlayer(player="H"))
    _round(ev, 3, [("A", "E"), ("C", "F"), ("G", "D")], ["B"])
    _report(ev, 3, 1, (1, 2))
    _report(ev, 3, 2, (2, 0))
    _report(ev, 3, 3, (2, 0))
    return ev


def _line(table: tuple[Standing, ...], player: str) -> Standing:
    return next(s for s in table if s.player == player)


def test_the_order_is_points_then_omw_then_gw_then_ogw(paper: Event) -> None:
    """MTR 3.1: match points, OMW%, GW%, OGW% (computed on paper in the module docstring)."""
    table = standings(paper.state)
    assert [(s.rank, s.player, s.match_points) for s in table] == [
        (1, "E", 7),
        (2, "A", 6),
        (3, "G", 6),
        (4, "C", 6),
        (5, "B", 3),
        (6, "H", 3),
        (7, "F", 2),
        (8, "D", 1),
    ]


@pytest.mark.parametrize(
    ("player", "mwp", "gwp", "omwp", "ogwp"),
    [
        ("A", F(2, 3), F(5, 8), F(16, 27), F(19, 36)),
        ("B", F(1, 3), F(1, 3), F(7, 12), F(9, 16)),
        ("C", F(2, 3), F(5, 8), F(199, 450), F(257, 600)),
        ("D", F33, F33, F(499, 900), F(973, 1800)),
        ("E", F(7, 9), F(5, 8), F(499, 900), F(973, 1800)),
        ("F", F33, F33, F(1597, 2700), F(79, 150)),
        ("G", F(2, 3), F(2, 3), F(1447, 2700), F(97, 200)),
        ("H", F(1, 2), F(1, 2), F(1, 2), F(1, 2)),
    ],
)
def test_appendix_c_percentages_are_exactly_the_paper_ones(
    paper: Event, player: str, mwp: F, gwp: F, omwp: F, ogwp: F
) -> None:
    """MTR Appendix C: MWP and GWP floored at 0.33; OMW%/OGW% averaged over opponents faced."""
    line = _line(standings(paper.state), player)
    assert (line.mwp, line.gwp, line.omwp, line.ogwp) == (mwp, gwp, omwp, ogwp)


def test_the_records_count_byes_as_wins_and_the_dropped_player_stays(paper: Event) -> None:
    """Appendix C: a bye is a won match; MTR 2.10: a player who dropped after playing stays in
    the standings (flagged) and is not paired again."""
    table = standings(paper.state)
    b, h = _line(table, "B"), _line(table, "H")
    assert (b.wins, b.losses, b.draws, b.byes, b.rounds) == (1, 2, 0, 1, 3)
    assert (h.wins, h.losses, h.dropped, h.rounds) == (1, 1, True, 2)
    assert all("H" not in t.players for t in paper.state.rounds[2].tables)


def test_the_pairing_gives_the_round_3_bye_to_b_and_leaves_h_out(paper: Event) -> None:
    """With 7 players left the bye goes to B, lowest-ranked without one; H (dropped) isn't paired."""
    third = next(i for i, e in enumerate(paper.log) if isinstance(e, RoundPaired) and e.round == 3)
    (paired,) = decide(tournament_state(paper.log[:third]), PairRound(seed=31))
    assert isinstance(paired, RoundPaired)
    assert paired.byes == ["B"]
    seated = [p for t in paired.pairings for p in t["players"]]
    assert sorted(seated) == ["A", "C", "D", "E", "F", "G"]
