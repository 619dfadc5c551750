"""The pairing functions on their own: MTR Appendix E's round counts, determinism, rematch
avoidance at scale (the blocks of domain/tournament/pairing.py), and the bye."""

from __future__ import annotations

import random

import pytest

import domain.tournament.pairing as pairing_module
from domain.errors import GameError
from domain.tournament import PairRound, entrants, recommended_rounds, swiss_pairings
from domain.tournament.pairing import (
    BLOCK_MAX,
    Entrant,
    SwissPairing,
    _repair_seam,
    first_cut_pairings,
    next_cut_pairings,
)
from tests.tournament.helpers import event_with, play_swiss


@pytest.mark.parametrize(
    ("players", "rounds"),
    [
        (2, 1),
        (4, 2),
        (8, 3),
        (9, 5),
        (16, 5),
        (17, 5),
        (32, 5),
        (33, 6),
        (64, 6),
        (65, 7),
        (128, 7),
        (129, 8),
        (226, 8),
        (227, 9),
        (409, 9),
        (410, 10),
        (2000, 10),
    ],
)
def test_mtr_appendix_e_recommended_swiss_rounds(players: int, rounds: int) -> None:
    assert recommended_rounds(players) == rounds


def test_one_player_can_not_be_paired() -> None:
    with pytest.raises(GameError) as err:
        recommended_rounds(1)
    assert err.value.code == "not_enough_players"


def _field(n: int, points: int = 0) -> list[Entrant]:
    return [Entrant(key=f"p{i:04d}", points=points, rank=i + 1) for i in range(n)]


def test_the_same_seed_gives_the_same_pairing_whatever_the_input_order() -> None:
    field = _field(50)
    shuffled = list(field)
    random.Random(1).shuffle(shuffled)
    assert swiss_pairings(field, 7) == swiss_pairings(shuffled, 7)
    assert swiss_pairings(field, 7) != swiss_pairings(field, 8)


def test_first_round_partners_are_spread_over_the_whole_bracket() -> None:
    """Randomness within a bracket reaches across blocks: over many seeds, player 1 meets
    opponents from all over a bracket of three blocks, not only its neighbours."""
    field = _field(3 * BLOCK_MAX)
    partners = set()
    for seed in range(12):
        pairing = swiss_pairings(field, seed)
        partners.update(b if a == "p0000" else a for a, b in pairing.tables if "p0000" in (a, b))
    assert len(partners) >= 10
    assert max(int(p[1:]) for p in partners) >= 2 * BLOCK_MAX


def test_equal_points_meet_first() -> None:
    """A 2-point bracket of 6 and a 0-point bracket of 6: no pair-down needed, none made."""
    field = [Entrant(key=f"w{i}", points=3, rank=i + 1) for i in range(6)]
    field += [Entrant(key=f"l{i}", points=0, rank=i + 7) for i in range(6)]
    pairing = swiss_pairings(field, 3)
    assert all(a[0] == b[0] for a, b in pairing.tables)
    assert [a[0] for a, _ in pairing.tables] == ["w", "w", "w", "l", "l", "l"]  # table 1 is the top


def test_an_odd_bracket_sends_one_player_down() -> None:
    field = [Entrant(key=f"w{i}", points=3, rank=i + 1) for i in range(5)]
    field += [Entrant(key=f"l{i}", points=0, rank=i + 6) for i in range(5)]
    pairing = swiss_pairings(field, 3)
    assert sum(1 for a, b in pairing.tables if a[0] != b[0]) == 1


def test_the_bye_goes_to_the_lowest_ranked_without_one_even_up_the_standings() -> None:
    field = [Entrant(key=f"p{i}", points=9 - i, rank=i + 1, had_bye=i >= 3) for i in range(7)]
    assert swiss_pairings(field, 1).bye == "p2"


def test_a_block_that_cannot_avoid_rematches_is_merged_with_its_neighbour() -> None:
    """The BLOCK_MAX leaders (one bracket, so one block) have all met each other: no complete
    pairing exists inside their block, so it is merged with the next and each leader pairs down."""
    n = BLOCK_MAX * 3
    keys = [f"p{i:03d}" for i in range(n)]
    first = set(keys[:BLOCK_MAX])
    field = [
        Entrant(
            key=k,
            points=3 if k in first else 0,
            rank=i + 1,
            opponents=frozenset(first - {k}) if k in first else frozenset(),
        )
        for i, k in enumerate(keys)
    ]
    pairing = swiss_pairings(field, 5)
    assert len(pairing.tables) == n // 2
    for a, b in pairing.tables:
        assert not (a in first and b in first)
    assert sum(1 for a, b in pairing.tables if (a in first) != (b in first)) == BLOCK_MAX


def test_a_large_event_never_pairs_a_rematch() -> None:
    """300 players, 8 rounds (Appendix E: 227-409 play 9): blocks, merges, no rematch."""
    ev = event_with(300, rounds=8)
    play_swiss(ev, 8, seed=300)
    met: set[frozenset[str]] = set()
    for rnd in ev.state.rounds:
        for t in rnd.tables:
            assert frozenset(t.players) not in met
            met.add(frozenset(t.players))


def test_the_bracket_pairs_neighbouring_winners_higher_seed_first() -> None:
    seeds = [f"s{i}" for i in range(1, 9)]
    assert first_cut_pairings(seeds) == (("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6"))
    assert first_cut_pairings(seeds[:4]) == (("s1", "s4"), ("s2", "s3"))
    assert first_cut_pairings(seeds[:2]) == (("s1", "s2"),)
    assert next_cut_pairings(["s8", "s4", "s2", "s6"], seeds) == (("s4", "s8"), ("s2", "s6"))


def test_a_seam_between_blocks_is_paired_again() -> None:
    """Two blocks each ending/starting with a 3-v-0 pair-down: paired again across the seam
    they make 3-v-3 and 0-v-0 (cost 0 instead of 2 x 9), as one block would have."""
    upper = [Entrant(key=f"u{i}", points=3, rank=i + 1) for i in range(3)] + [Entrant(key="u3", points=0, rank=4)]
    lower = [Entrant(key="l0", points=3, rank=5)] + [Entrant(key=f"l{i}", points=0, rank=5 + i) for i in range(1, 4)]
    upper_pairs = [(upper[0], upper[1]), (upper[2], upper[3])]
    lower_pairs = [(lower[0], lower[1]), (lower[2], lower[3])]
    _repair_seam(upper, lower, upper_pairs, lower_pairs, random.Random(1))
    pairs = {frozenset((a.key, b.key)) for a, b in upper_pairs + lower_pairs}
    assert pairs == {frozenset(("u0", "u1")), frozenset(("u2", "l0")), frozenset(("u3", "l1")), frozenset(("l2", "l3"))}


def test_the_repair_passes_find_the_one_block_optimum_where_the_blocks_alone_miss_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A recorded case (100 players, round 4): rematches inside the blocks force pair-downs; the
    blocks alone make 4 (squared total 12), the pair-downs paired again with their brackets'
    tables make 3 (6), what one block of everyone makes (docs/tournaments.md, Pairings)."""
    ev = event_with(100, rounds=6)
    rng = random.Random(1)
    for _ in range(3):
        ev.act(PairRound(seed=rng.randrange(2**32)))
        ev.report_all(rng)
    field = entrants(ev.state)
    seed = rng.randrange(2**32)
    points = {e.key: e.points for e in field}

    def cost(pairing: SwissPairing) -> tuple[int, int]:
        gaps = [points[a] - points[b] for a, b in pairing.tables]
        return sum(1 for g in gaps if g), sum(g * g for g in gaps)

    repaired = cost(swiss_pairings(field, seed))
    with monkeypatch.context() as m:
        m.setattr(pairing_module, "_repair_seam", lambda *args, **kwargs: None)
        m.setattr(pairing_module, "_repair_pair_downs", lambda pairs, rng: pairs)
        blocks_alone = cost(swiss_pairings(field, seed))
    with monkeypatch.context() as m:
        m.setattr(pairing_module, "BLOCK_MIN", 10**6)
        m.setattr(pairing_module, "BLOCK_MAX", 10**6)
        one_block = cost(swiss_pairings(field, seed))
    assert (repaired, blocks_alone, one_block) == ((3, 6), (4, 12), (3, 6))
