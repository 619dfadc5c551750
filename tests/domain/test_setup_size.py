"""Issue 11, finding 4: creating a game is linear in its size (a duplicate-id scan per player and
per permanent made 20,000 players take 30 s). The HTTP edge caps players at 64; the rules
themselves must not be the slow part for any size."""

from __future__ import annotations

import time

from domain.setup import game_started


def _resolve(card: object) -> object:
    raise AssertionError("no cards here")


def _seconds(n: int) -> float:
    """The best of three creations of a game of ``n`` players (CPU time of this thread: what
    the rest of the machine does counts less)."""
    players = [{"id": f"P{i}"} for i in range(n)]
    best = float("inf")
    for _ in range(3):
        started = time.thread_time()
        game_started({"variant": "multiplayer", "players": players}, "big", _resolve)  # type: ignore[arg-type]
        best = min(best, time.thread_time() - started)
    return best


def test_creation_grows_linearly_with_the_players() -> None:
    """Four times the players cost about four times as much (a scan per player made it sixteen):
    a ratio measured in one run, not a time, so a loaded machine doesn't fail it."""
    small, large = _seconds(2_500), _seconds(10_000)
    assert large < 8 * small, f"2,500 players: {small:.3f} s, 10,000: {large:.3f} s ({large / small:.1f}x)"
