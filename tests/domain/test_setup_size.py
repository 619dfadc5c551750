"""Issue 11, finding 4: creating a game is linear in its size (a duplicate-id scan per player and
per permanent made 20,000 players take 30 s). The HTTP edge caps players at 64; the rules
themselves must not be the slow part for any size.

Measured as work, not time (issue 43: a ratio of CPU times flaked at 8.8-10.3x run alone, the
garbage collector and the machine's load in it): the Python bytecode instructions that parsing
the body and building the ``GameStarted`` event execute, counted by a trace function with the
collector off. The count is the same on every run and machine for a given interpreter, so the
bound can be tight. A scan done in C (``pid in a_list``) executes no bytecode of its own, so the
players' ids are given as ``CountedId``, a ``str`` whose ``==`` is Python code: every comparison
a scan makes, in Python or in C, is counted too.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

from domain.commands.bodies.create import GameCreateBody
from domain.commands.parse import parse_create_body
from domain.setup import game_started

T = TypeVar("T")


def _resolve(card: object) -> object:
    raise AssertionError("no cards here")


class CountedId(str):
    """A player id whose comparisons execute bytecode (a plain ``str``'s run in C, uncounted)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return str.__ne__(self, other)

    __hash__ = str.__hash__


def _bytecodes(work: Callable[[], T]) -> tuple[int, T]:
    """The bytecode instructions ``work`` executes (every frame it runs), and its result.

    The collector is off meanwhile: a collection could run finalizers of other tests' garbage
    inside the count, and its own cost grows with the whole heap, not with this game."""
    executed = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal executed
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            executed += 1
        return trace

    previous = sys.gettrace()
    enabled = gc.isenabled()
    gc.disable()
    sys.settrace(trace)
    try:
        result = work()
    finally:
        sys.settrace(previous)
        if enabled:
            gc.enable()
    return executed, result


def _work(n: int) -> int:
    """Bytecodes to create a game of ``n`` players: parsing the body, then the game rules."""
    players = [{"id": f"P{i}"} for i in range(n)]
    parsing, body = _bytecodes(lambda: parse_create_body({"variant": "multiplayer", "players": players}))
    counted: GameCreateBody = body.model_copy(
        update={"players": [p.model_copy(update={"id": CountedId(p.id)}) for p in body.players]}
    )
    setting_up, event = _bytecodes(lambda: game_started(counted, "big", _resolve))
    assert len(event.data["players"]) == n
    return parsing + setting_up


def test_creation_grows_linearly_with_the_players() -> None:
    """Four times the players cost four times the work, give or take the fixed part (a scan per
    player made it about sixteen)."""
    _work(8)  # first-call costs (imports, caches) are not the game's
    small, large = _work(500), _work(2_000)
    assert small > 0
    assert large <= 4.2 * small, f"500 players: {small:,} bytecodes, 2,000: {large:,} ({large / small:.2f}x)"


def test_the_count_is_the_same_every_time() -> None:
    """What makes the bound above safe to keep tight: the measure has no noise."""
    assert _work(100) == _work(100)
