"""Small helpers shared by the resolution routines of card modules."""

from __future__ import annotations

from collections.abc import Sequence

from domain import events as ev
from domain.builder import Builder
from domain.cards import targets as tg
from domain.cards.model import Card
from domain.commands import Choices
from domain.errors import Code, IllegalAction
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.rules.proliferate import proliferate
from domain.state import Permanent, StackObject


def source_permanent(b: Builder, obj: StackObject) -> Permanent | None:
    """The object's source if it is still on the battlefield (else "this creature" is gone and
    an effect on it does nothing, CR 608.2h / 400.7)."""
    return b.state.battlefield.get(obj.source) if obj.source else None


def players_get(b: Builder, players: Sequence[str], kind: str, n: int, cause: str) -> None:
    """ "<players> get N <kind> counters" (CR 122.6), in turn order, players still in the game."""
    if n <= 0:
        return
    for pid in players:
        if pid in b.state.players and not b.state.players[pid].lost:
            add_counters(b, {"player": pid}, kind, n, cause)


def each_player(b: Builder) -> list[str]:
    return [p.id for p in b.state.in_game()]


def proliferate_round(choices: Choices, index: int) -> tuple[dict[str, str], ...]:
    """The choices for the ``index``-th proliferate of one effect (``proliferate: [[...], [...]]``);
    a single list is used for every round."""
    if choices.proliferate_rounds is not None:
        if index >= len(choices.proliferate_rounds):
            raise IllegalAction(
                f"this effect proliferates {index + 1} times: give one list per proliferate in "
                f"choices.proliferate, got {len(choices.proliferate_rounds)}",
                Code.CHOICE_REQUIRED,
            )
        return choices.proliferate_rounds[index]
    return choices.proliferate or ()


def chosen_target(b: Builder, obj: StackObject, choices: Choices, kind: tg.Kind) -> dict[str, str] | None:
    """The one target of a triggered ability, named on resolution. With no legal target at all the
    ability is removed from the stack (603.3d): ``None``; otherwise exactly one must be named."""
    if not choices.targets:
        if kind == "player" or any(p.card.is_creature for p in b.state.battlefield.values()):
            raise IllegalAction(
                f"resolving {obj.id} ({obj.description}) needs one target in choices.targets, {tg.describe(kind)}",
                Code.CHOICE_REQUIRED,
            )
        return None
    return tg.check(b.state, obj.controller, choices.targets, kind, 1, 1)[0]


def move_cards(
    b: Builder, player_id: str, cards: Sequence[Card], origin: str, to: str, cause: str, *, random_order: bool = False
) -> None:
    """Record cards moving between non-battlefield zones (``CardsMoved``), if there are any."""
    if not cards:
        return
    b.emit(
        ev.CardsMoved(
            player=player_id,
            cards=[c.to_json() for c in cards],
            from_zone=origin,
            to=to,
            cause=cause,
            random_order=random_order,
        )
    )


def take_from_graveyard(b: Builder, player_id: str, names: Sequence[str]) -> list[Card]:
    """The cards of these names still in the player's graveyard (one per name given, as many
    copies as are there)."""
    left = list(b.state.players[player_id].graveyard)
    taken = []
    for name in names:
        for i, card in enumerate(left):
            if card.name == name:
                taken.append(left.pop(i))
                break
    return taken


def proliferate_effect(key: str, name: str) -> None:
    """Register the routine of an ability whose whole effect is "proliferate" (CR 701.34a), the
    choices made on resolution and the card named as the cause."""

    @effect(key)
    def _proliferate(b: Builder, obj: StackObject, choices: Choices) -> str | None:
        proliferate(b, obj.controller, choices.proliferate or (), name)
        return None
