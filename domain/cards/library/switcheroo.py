"""Switcheroo {4}{U}, Sorcery.

Oracle text (catalog.json): "Exchange control of two target creatures."

Automated: cast with two distinct creature targets (``targets: [{"permanent": a},
{"permanent": b}]``), checked on casting. On resolution, if both are still creatures on the
battlefield under different controllers, each controller gains control of the other's creature
(two ``ControlChanged`` events; CR 701.12b). If one target is illegal the exchange can't be
completed, so nothing happens (701.12a); if the same player controls both, nothing happens
(701.12b). A creature that changes control can't attack or use {T} abilities until its new
controller's next turn (302.6) unless it has haste.
"""

from __future__ import annotations

from domain import events as ev
from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.behaviour import Behaviour, register
from domain.commands import Choices
from domain.rules.effects import effect
from domain.state import StackObject

NAME = "Switcheroo"


@effect("switcheroo")
def _exchange(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    legal = tg.still_legal(b.state, obj.controller, obj.params.get("targets"), "creature")
    if len(legal) < 2:
        return "no exchange: a target is illegal, so the exchange can't be completed (CR 701.12a)"
    first, second = (b.state.battlefield[t["permanent"]] for t in legal[:2])
    if first.controller == second.controller:
        return "no exchange: both creatures have the same controller (CR 701.12b)"
    for perm, new in ((first, second.controller), (second, first.controller)):
        b.emit(ev.ControlChanged(permanent=perm.id, controller=new, cause=NAME), "CR 701.12b")
    return None


register(Behaviour(name=NAME, spell_effect="switcheroo", spell_targets=tg.checker("creature", 2, 2)))
