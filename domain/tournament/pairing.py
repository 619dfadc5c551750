"""Pairing: Swiss rounds, Commander pods, the top-cut bracket and the number of rounds.

Swiss (MTR 10.4 names the algorithm and leaves its details to practice; the WotC scorekeeper
aid "Swiss-Style Pairing System Basics" pairs players "with the same match points against each
other randomly", pairs an odd one out with the next group down, and gives the player left at
the bottom the bye; tiebreakers are not used for pairing). Here that is one weighted matching
(networkx ``max_weight_matching`` with ``maxcardinality=True``) that minimises, in order:

1. rematches: a rematch has no edge, and everybody is paired (maximum cardinality), so there is
   none whenever a rematch-free pairing exists (otherwise ``pairing_impossible``);
2. the bye's place (odd player count): to the lowest-ranked player who has not had one;
3. the number of pair-downs (tables of unequal match points), issue 38: an odd bracket's odd
   one out meets the next odd bracket's rather than starting a chain of pair-downs through the
   even brackets between (so it may go farther down than the WotC aid's "next group");
4. their size: the sum of the squared match-point differences;
5. a seeded random jitter, below one point squared summed over all tables, so it only chooses
   among otherwise equal pairings: "paired at random within the bracket".

The weights are integers, each level's unit larger than the most all tables together can reach
at every level below it, so the order is strict (tests/tournament/test_pairing_downs.py checks
it against every perfect matching of small events). The blossom algorithm is cubic (a
2,000-player complete graph would take minutes), so a large event is split into blocks of
players in (points, random) order whose separate optima add up to the field's when no rematch
is in the way (``_blocks``: cut only where the players above are even in number; an odd
bracket's tail waits for the next odd bracket's head). A block that can't be paired completely
(rematches) is merged with its neighbour and solved again, up to the whole field. Then each
seam is paired again (the lower half of a block with the upper half of the next), and so are
all the pair-down tables with a few tables of each bracket they touch, where rematches inside
a block forced a pair-down that another block's players would take away; both only ever
improve. Events of fewer than ``2 x BLOCK_MIN`` players are one block: the exact optimum.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]  # networkx ships no type information

from domain.errors import Code as TC
from domain.tournament.errors import refuse

BLOCK_MIN = 16
"""Players in a pairing block before it may be cut at a bracket boundary (even)."""
BLOCK_MAX = 24
"""Players at which a block is cut even inside a bracket (even)."""
REPAIR_TABLES = 4
"""Equal-point tables of each bracket a pair-down touches, paired again with the pair-downs."""
JITTER_BITS = 10
_JITTER = 1 << JITTER_BITS

BRACKETS: dict[int, tuple[int, ...]] = {8: (1, 8, 4, 5, 2, 7, 3, 6), 4: (1, 4, 2, 3), 2: (1, 2)}
"""Top-cut seed order, two seeds a match: 1v8, 4v5, 2v7, 3v6, so 1 and 2 meet only in the final."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player to pair, as the standings see them before the round."""

    key: str
    points: int
    """Match points so far."""
    rank: int
    """Standings position before the round (1 first): the bye goes to the largest."""
    opponents: frozenset[str] = frozenset()
    """Players already met in this event's Swiss rounds."""
    had_bye: bool = False


@dataclass(frozen=True, slots=True)
class SwissPairing:
    """A paired Swiss round: the tables (higher-placed player first), table 1 first, and the bye."""

    tables: tuple[tuple[str, str], ...]
    bye: str | None


def recommended_rounds(players: int) -> int:
    """Swiss rounds for a player count, from MTR Appendix E (Recommended Number of Rounds in
    Swiss Tournaments): 9-32 players 5 rounds (9-16 is 4 only for a Limited event with a booster
    draft in the playoffs, which this does not model), 33-64 6, 65-128 7, 129-226 8, 227-409 9,
    410+ 10. Appendix E runs 5-8 players as 3 single-elimination rounds; a Swiss event of that
    size plays the same 3 rounds (2 for 3-4 players, 1 for 2)."""
    if players < 2:
        raise refuse(f"a Swiss event needs at least 2 players, got {players}", TC.NOT_ENOUGH_PLAYERS)
    for most, rounds in ((2, 1), (4, 2), (8, 3), (32, 5), (64, 6), (128, 7), (226, 8), (409, 9)):
        if players <= most:
            return rounds
    return 10


def swiss_pairings(entrants: Sequence[Entrant], seed: int) -> SwissPairing:
    """Pair a Swiss round; the same entrants and seed always give the same pairing.

    an ``IllegalAction`` ``pairing_impossible`` when no pairing avoids every rematch or no player
    may take the bye (each has had one)."""
    if len(entrants) < 2:
        raise refuse(f"pairing needs at least 2 players, got {len(entrants)}", TC.NOT_ENOUGH_PLAYERS)
    rng = random.Random(seed)
    # Random keys are drawn in key order so that the pairing doesn't depend on the input order.
    shuffle = {e.key: rng.random() for e in sorted(entrants, key=lambda e: e.key)}
    order = sorted(entrants, key=lambda e: (-e.points, shuffle[e.key]))
    odd = len(order) % 2 == 1
    if odd:
        eligible = [e for e in order if not e.had_bye]
        if not eligible:
            raise refuse("every player has had a bye: no one can take this round's", TC.PAIRING_IMPOSSIBLE)
        # The lowest-ranked candidate joins the last block, the one solved with the bye.
        candidate = max(eligible, key=lambda e: e.rank)
        order.remove(candidate)
    blocks = _blocks(order)
    if odd:
        blocks[-1].append(candidate)
    solved: list[tuple[list[tuple[Entrant, Entrant]], Entrant | None]] = []
    i = 0
    while i < len(blocks):
        last = i == len(blocks) - 1
        solution = _solve(blocks[i], with_bye=last and odd, rng=rng)
        if solution is not None:
            solved.append(solution)
            i += 1
            continue
        if len(blocks) == 1:
            raise refuse(
                f"no pairing of the {len(order)} players avoids every rematch"
                + (" with a bye for a player who has had none" if odd else ""),
                TC.PAIRING_IMPOSSIBLE,
            )
        if last:
            # Merge the last block upwards; the block above must be solved again with it.
            blocks[i - 1 : i + 1] = [blocks[i - 1] + blocks[i]]
            solved.pop()
            i -= 1
        else:
            blocks[i : i + 2] = [blocks[i] + blocks[i + 1]]
    for seam in range(len(blocks) - 1):
        _repair_seam(blocks[seam], blocks[seam + 1], solved[seam][0], solved[seam + 1][0], rng)
    pairs = [pair for block_pairs, _ in solved for pair in block_pairs]
    if len(blocks) > 1:
        pairs = _repair_pair_downs(pairs, rng)
    byes = [bye for _, bye in solved if bye is not None]
    pairs.sort(key=lambda p: (-p[0].points, p[0].rank, p[1].rank))
    return SwissPairing(tables=tuple((a.key, b.key) for a, b in pairs), bye=byes[0].key if byes else None)


def _repair_seam(
    upper: list[Entrant],
    lower: list[Entrant],
    upper_pairs: list[tuple[Entrant, Entrant]],
    lower_pairs: list[tuple[Entrant, Entrant]],
    rng: random.Random,
) -> None:
    """Pair again, together, the lower half of one block and the upper half of the next (the
    tables wholly inside those halves): a cut between blocks can't then keep two players apart
    whose meeting would pair closer. Their current tables are one complete pairing of them, so
    the optimum found is never worse; both blocks' lists are updated in place."""
    low_half = {e.key for e in upper[len(upper) // 2 :]}
    high_half = {e.key for e in lower[: len(lower) // 2]}
    moving_up = [p for p in upper_pairs if p[0].key in low_half and p[1].key in low_half]
    moving_down = [p for p in lower_pairs if p[0].key in high_half and p[1].key in high_half]
    players = [e for pair in moving_up + moving_down for e in pair]
    if not moving_up or not moving_down:
        return
    solution = _solve(players, with_bye=False, rng=rng)
    assert solution is not None  # the current tables are a complete pairing of these players
    kept_up = [p for p in upper_pairs if p not in moving_up]
    kept_down = [p for p in lower_pairs if p not in moving_down]
    upper_pairs[:] = kept_up + solution[0]
    lower_pairs[:] = kept_down


def _repair_pair_downs(pairs: list[tuple[Entrant, Entrant]], rng: random.Random) -> list[tuple[Entrant, Entrant]]:
    """Pair again, as one block, every pair-down table with up to ``REPAIR_TABLES`` tables of each
    bracket they touch: rematches inside one block can force pair-downs that players of the
    same brackets in other blocks would have taken away (two 3-v-0 tables in two blocks are a
    3-v-3 and a 0-v-0 together). The current tables are a complete pairing of these players, so
    the optimum found is never worse."""
    downs = [p for p in pairs if p[0].points != p[1].points]
    if not downs:
        return pairs
    touched = {e.points for pair in downs for e in pair}
    taken: dict[int, int] = {}
    chosen = list(downs)
    for pair in pairs:
        points = pair[0].points
        if pair[1].points == points and points in touched and taken.get(points, 0) < REPAIR_TABLES:
            taken[points] = taken.get(points, 0) + 1
            chosen.append(pair)
    solution = _solve([e for pair in chosen for e in pair], with_bye=False, rng=rng)
    assert solution is not None  # the current tables are a complete pairing of these players
    kept = set(map(id, chosen))
    return [p for p in pairs if id(p) not in kept] + solution[0]


def _groups(order: list[Entrant]) -> list[list[Entrant]]:
    """The runs of equal points in ``order`` (its brackets)."""
    groups: list[list[Entrant]] = []
    for entrant in order:
        if groups and groups[-1][-1].points == entrant.points:
            groups[-1].append(entrant)
        else:
            groups.append([entrant])
    return groups


def _blocks(order: list[Entrant]) -> list[list[Entrant]]:
    """Blocks whose separate optima add up to the whole field's when no rematch is in the way.

    Fewest pair-downs pairs each odd bracket's odd one out with the next odd bracket's (the
    even brackets between pair inside themselves), so a block is cut only where the players above
    are even in number, and an odd bracket's tail block stays open (taking even brackets while it
    is small) until the next odd bracket's head joins it. ``order`` is even in number."""
    if len(order) < 2 * BLOCK_MIN:
        return [order]
    blocks: list[list[Entrant]] = []
    current: list[Entrant] = []  # even in number between brackets
    waiting: list[Entrant] | None = None  # an odd bracket's tail, odd in number

    def fill(players: list[Entrant]) -> None:
        nonlocal current
        for entrant in players:
            current.append(entrant)
            if len(current) >= BLOCK_MAX and len(current) % 2 == 0:  # even above the cut
                blocks.append(current)
                current = []

    for group in _groups(order):
        if waiting is not None and len(group) % 2 == 1:
            take = max(1, BLOCK_MIN - len(waiting)) | 1  # odd: the bracket's rest is even
            waiting.extend(group[:take])
            blocks.append(waiting)
            waiting = None
            fill(group[take:])
        elif waiting is not None and len(waiting) + len(group) <= BLOCK_MAX:
            waiting.extend(group)
        elif waiting is not None:
            fill(group)
        else:
            fill(group)
            if len(group) % 2 == 1:
                waiting, current = current, []
        if len(current) >= BLOCK_MIN:
            blocks.append(current)
            current = []
    assert waiting is None  # an even field has an even number of odd brackets
    if current:
        if blocks and len(current) < BLOCK_MIN:
            blocks[-1].extend(current)
        else:
            blocks.append(current)
    return blocks


def _solve(
    block: list[Entrant], *, with_bye: bool, rng: random.Random
) -> tuple[list[tuple[Entrant, Entrant]], Entrant | None] | None:
    """The best complete pairing of one block (plus the bye), or ``None`` if none is complete."""
    nodes = len(block) + (1 if with_bye else 0)
    tables = nodes // 2 + 1
    spread = max(e.points for e in block) - min(e.points for e in block)
    # Each unit outweighs the most that all tables together can reach at every level below it.
    square_unit = _JITTER * tables  # one point squared > every table's jitter summed
    down_unit = tables * spread * spread * square_unit + square_unit  # one pair-down > every square
    pair_cap = down_unit + spread * spread * square_unit + _JITTER  # the most one table can cost
    bye_unit = tables * pair_cap + 1  # one place up the standings outweighs every pair cost
    top = bye_unit * (len(block) + 1) + pair_cap + 1  # keeps every weight positive
    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    for (i, a), (j, b) in itertools.combinations(enumerate(block), 2):
        if b.key in a.opponents:
            continue
        d = a.points - b.points
        cost = (down_unit if d else 0) + d * d * square_unit
        graph.add_edge(i, j, weight=top - cost + rng.getrandbits(JITTER_BITS))
    if with_bye:
        bye_node = len(block)
        candidates = sorted((i for i, e in enumerate(block) if not e.had_bye), key=lambda i: -block[i].rank)
        for place, i in enumerate(candidates):
            graph.add_edge(i, bye_node, weight=top - place * bye_unit)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != nodes:
        return None
    pairs: list[tuple[Entrant, Entrant]] = []
    bye: Entrant | None = None
    for u, v in matching:
        i, j = sorted((u, v))
        if with_bye and j == len(block):
            bye = block[i]
            continue
        a, b = block[i], block[j]
        # The higher-placed player takes the first seat (and, below, the lower table number).
        pairs.append((a, b) if (-a.points, a.rank) <= (-b.points, b.rank) else (b, a))
    return pairs, bye


# --- Commander pods -----------------------------------------------------------------------------


def pod_sizes(players: int) -> tuple[int, ...]:
    """Pods of 4; when the count doesn't divide by 4, pods of 3 take up the rest (1 left over:
    three pods of 3; 2: two; 3: one), and 5 players make one pod of 5, since 5 can't be split
    into 3s and 4s. Pods of 3 rather than 5: a five-player game runs far longer than a round,
    and no one sits out (Commander events here have no byes)."""
    if players < 3:
        raise refuse(f"a Commander pod needs at least 3 players, got {players}", TC.NOT_ENOUGH_PLAYERS)
    if players == 5:
        return (5,)
    threes = {0: 0, 3: 1, 2: 2, 1: 3}[players % 4]
    return (4,) * ((players - 3 * threes) // 4) + (3,) * threes


def pod_pairings(entrants: Sequence[Entrant], seed: int) -> tuple[tuple[str, ...], ...]:
    """Seat the players in pods, best first: in (points, seeded random) order cut into the pod
    sizes (the pods of 3 at the bottom, as the bye is in Swiss), then players of equal points
    swapped between nearby pods while that lowers the number of players meeting again (a repeat
    can't always be avoided in pods: a 4-player event meets itself every round)."""
    sizes = pod_sizes(len(entrants))
    rng = random.Random(seed)
    shuffle = {e.key: rng.random() for e in sorted(entrants, key=lambda e: e.key)}
    order = sorted(entrants, key=lambda e: (-e.points, shuffle[e.key]))
    pods: list[list[Entrant]] = []
    start = 0
    for size in sizes:
        pods.append(order[start : start + size])
        start += size
    for _ in range(len(pods) + 1):  # each pass lowers the repeats; bounded all the same
        if not _improve(pods):
            break
    return tuple(tuple(e.key for e in pod) for pod in pods)


def _repeats(pod: Sequence[Entrant]) -> int:
    return sum(1 for a, b in itertools.combinations(pod, 2) if b.key in a.opponents)


def _improve(pods: list[list[Entrant]]) -> bool:
    improved = False
    for i, j in itertools.combinations(range(len(pods)), 2):
        if j - i > 3:  # equal points sit in neighbouring pods; far pods rarely share a bracket
            continue
        for x, y in itertools.product(range(len(pods[i])), range(len(pods[j]))):
            a, b = pods[i][x], pods[j][y]
            if a.points != b.points:
                continue
            before = _repeats(pods[i]) + _repeats(pods[j])
            pods[i][x], pods[j][y] = b, a
            if _repeats(pods[i]) + _repeats(pods[j]) < before:
                improved = True
            else:
                pods[i][x], pods[j][y] = a, b
    return improved


# --- top cut ------------------------------------------------------------------------------------


def first_cut_pairings(seeds: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The first playoff round of a top 8, 4 or 2 from the players in seed order: 1v8, 4v5,
    2v7, 3v6 (top 4: 1v4, 2v3), higher seed first."""
    order = BRACKETS[len(seeds)]
    return tuple((seeds[order[k] - 1], seeds[order[k + 1] - 1]) for k in range(0, len(order), 2))


def next_cut_pairings(winners: Sequence[str], seeds: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The next playoff round: the winners of neighbouring matches, in bracket order, the
    higher seed (earlier in ``seeds``) first."""
    place = {key: i for i, key in enumerate(seeds)}
    pairs = ((winners[k], winners[k + 1]) for k in range(0, len(winners), 2))
    return tuple((a, b) if place[a] < place[b] else (b, a) for a, b in pairs)
