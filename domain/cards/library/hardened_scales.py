"""Hardened Scales {G}, Enchantment.

Oracle text (catalog.json): "If one or more +1/+1 counters would be put on a creature you
control, that many plus one +1/+1 counters are put on it instead."

Automated (CR 614.1a) for +1/+1 counters put on a creature its controller controls, including a
creature entering with +1/+1 counters (ruling 2014-09-20: Hangarback Walker with X = 1 enters
with two). Each Hardened Scales adds one. It doesn't say "effect", so it also applies to +1/+1
counters put as a cost. With Doubling Season the creature's controller chooses the order (616.1):
Scales first gives (n + 1) x 2, Doubling Season first gives 2n + 1; the server's default is the
larger, and ``replacement_order`` states another choice.
"""

from __future__ import annotations

from domain.cards.behaviour import Behaviour, register
from domain.state import GameState, Permanent

NAME = "Hardened Scales"


def _plus_one(source: Permanent, state: GameState, target: dict[str, str], kind: str, n: int, by_effect: bool) -> int:
    perm = state.battlefield.get(target.get("permanent", ""))
    if kind == "+1/+1" and perm is not None and perm.card.is_creature and perm.controller == source.controller:
        return n + 1
    return n


register(Behaviour(name=NAME, counter_modifier=_plus_one))
