"""Life: loss, gain and payment (CR 119), shared team life in Two-Headed Giant (CR 810.9)."""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.errors import Code, IllegalAction
from domain.rules import lookup


def lose_life(
    b: Builder, player_id: str, amount: int, cause: str, rule: str | None = None, *, paid: bool = False
) -> None:
    """Lose life (119.3); in Two-Headed Giant it comes off the team's total (810.9)."""
    lookup.player(b.state, player_id)
    if amount <= 0:
        return  # no zero-amount life events
    after = b.state.life_of(player_id) - amount
    b.emit(ev.LifeLost(player=player_id, amount=amount, cause=cause, life_after=after, paid=paid), rule)


def gain_life(b: Builder, player_id: str, amount: int, cause: str, rule: str | None = None) -> None:
    """Gain life (119.3); shared by the team in Two-Headed Giant (810.9)."""
    lookup.player(b.state, player_id)
    if amount <= 0:
        return
    after = b.state.life_of(player_id) + amount
    b.emit(ev.LifeGained(player=player_id, amount=amount, cause=cause, life_after=after), rule)


def pay_life(b: Builder, player_id: str, amount: int, cause: str) -> None:
    """Pay life: only with a life total >= the amount; paying 0 is always allowed (CR 119.4).

    In Two-Headed Giant the team's life total is the one compared (CR 810.9a... via 119.4).
    """
    life = b.state.life_of(player_id)
    if amount > 0 and amount > life:  # 0 can be paid even with a life total below 0 (119.4)
        raise IllegalAction(
            f"player {player_id!r} can't pay {amount} life with a life total of {life} (CR 119.4)",
            Code.INSUFFICIENT_LIFE,
        )
    lose_life(b, player_id, amount, cause, "CR 119.4", paid=True)
