"""Targets of automated spells and abilities (CR 115): how they are named, and legality.

A target is named as ``{"player": id}``, ``{"permanent": id}`` or, for a card in a graveyard,
``{"card": name}`` (a bare name string also means a card). Spells and activated abilities name
their targets when cast or activated (``targets``, checked then: 601.2c, 602.2b); triggered
abilities name them in ``resolve``'s ``choices.targets`` (the API has no step between a trigger
going on the stack and its resolution). On resolution a spell or ability whose targets are all
illegal now does nothing (608.2b); an illegal one among several is left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.cards.behaviour import TargetCheck
from domain.errors import Code, IllegalAction
from domain.state import GameState, Permanent

#: What a target may be: ``creature``, ``player``, ``any`` (creature, player, planeswalker or
#: battle: "any target", 115.4), ``creature_card_in_your_graveyard``.
Kind = str


def parse(raw: Any, where: str) -> dict[str, str]:
    """One named target."""
    if isinstance(raw, str) and raw:
        return {"card": raw}
    if isinstance(raw, Mapping):
        keys = [k for k in ("player", "permanent", "card") if k in raw]
        if len(keys) == 1 and isinstance(raw[keys[0]], str) and raw[keys[0]]:
            return {keys[0]: raw[keys[0]]}
    raise IllegalAction(
        f'{where}: a target must be {{"player": id}}, {{"permanent": id}} or {{"card": name}}, got {raw!r}',
        Code.ILLEGAL_TARGET,
    )


def parse_all(raw: Sequence[Any] | None, where: str) -> list[dict[str, str]]:
    return [parse(item, f"{where}[{i}]") for i, item in enumerate(raw or ())]


def _permanent(state: GameState, target: Mapping[str, str]) -> Permanent | None:
    pid = target.get("permanent")
    return state.battlefield.get(pid) if pid else None


def is_legal(state: GameState, controller: str, target: Mapping[str, str], kind: Kind) -> bool:
    """Whether the target is legal for ``kind`` now (601.2c on casting, 608.2b on resolution)."""
    if kind == "player":
        pid = target.get("player")
        return pid is not None and pid in state.players and not state.players[pid].lost
    perm = _permanent(state, target)
    if kind == "creature":
        return perm is not None and perm.card.is_creature
    if kind == "any":
        if "player" in target:
            return is_legal(state, controller, target, "player")
        return perm is not None and bool({"Creature", "Planeswalker", "Battle"} & perm.card.types)
    if kind == "creature_card_in_your_graveyard":
        name = target.get("card")
        return name is not None and any(c.name == name and c.is_creature for c in state.players[controller].graveyard)
    raise ValueError(f"unknown target kind {kind!r}")


def describe(kind: Kind) -> str:
    return {
        "player": "a player in the game",
        "creature": "a creature on the battlefield",
        "any": "a creature, player, planeswalker or battle (any target)",
        "creature_card_in_your_graveyard": "a creature card in your graveyard",
    }[kind]


def check(
    state: GameState, controller: str, raw: Sequence[Any] | None, kind: Kind, least: int, most: int
) -> list[dict[str, str]]:
    """Parse and check ``least``..``most`` distinct targets of one kind (115.3: the same object
    can't be chosen twice for one "target" word; cards in a graveyard count by copies)."""
    targets = parse_all(raw, "targets")
    if not least <= len(targets) <= most:
        wanted = f"exactly {least}" if least == most else f"{least} to {most}"
        raise IllegalAction(f"name {wanted} target(s), each {describe(kind)}; got {len(targets)}", Code.ILLEGAL_TARGET)
    seen: list[tuple[str, str]] = []
    for target in targets:
        key = next(iter(target.items()))
        if key[0] != "card" and key in seen:
            raise IllegalAction(f"the target {target!r} is named twice (CR 115.3)", Code.ILLEGAL_TARGET)
        seen.append(key)
        if not is_legal(state, controller, target, kind):
            raise IllegalAction(f"illegal target {target!r}: it must be {describe(kind)} (CR 115)", Code.ILLEGAL_TARGET)
    if kind == "creature_card_in_your_graveyard":
        for name in {t["card"] for t in targets}:
            copies = sum(1 for c in state.players[controller].graveyard if c.name == name)
            if sum(1 for t in targets if t["card"] == name) > copies:
                raise IllegalAction(f"{controller!r}'s graveyard holds only {copies} {name!r}", Code.ILLEGAL_TARGET)
    return targets


def checker(kind: Kind, least: int = 1, most: int = 1) -> TargetCheck:
    """A ``TargetCheck`` for ``least``..``most`` targets of one kind."""

    def run(state: GameState, controller: str, raw: Sequence[Any]) -> None:
        check(state, controller, raw, kind, least, most)

    return run


def still_legal(state: GameState, controller: str, raw: Sequence[Any] | None, kind: Kind) -> list[dict[str, str]]:
    """The targets that are still legal on resolution (608.2b)."""
    return [t for t in parse_all(raw, "targets") if is_legal(state, controller, t, kind)]
