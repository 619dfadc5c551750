"""Issue 11, finding 4: creating a game is linear in its size (a duplicate-id scan per player and
per permanent made 20,000 players take 30 s). The HTTP edge caps players at 64; the rules
themselves must not be the slow part for any size."""

from __future__ import annotations

import time

from domain.setup import game_started


def _resolve(card: object) -> object:
    raise AssertionError("no cards here")


def test_twenty_thousand_players_take_well_under_a_second() -> None:
    n = 20_000
    players = [{"id": f"P{i}"} for i in range(n)]
    started = time.perf_counter()
    game_started({"variant": "multiplayer", "players": players}, "big", _resolve)  # type: ignore[arg-type]
    assert time.perf_counter() - started < 3.0
