"""Bodies of the actions that move the game along: advance, resolve, order_triggers, concede,
counter and note (docs/api.md, Actions: Flow)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, WithJsonSchema

from domain.commands.bodies.fields import (
    CHOICE_SCHEMA,
    MAX_NOTE,
    AdvanceTo,
    Body,
    CardRef,
    CustomKind,
    NonNegative,
    ReplacementOrder,
    Text,
    check_choice,
    example,
    refuse,
    shown,
)
from domain.commands.vocabulary import (
    Advance,
    CardResolver,
    Choices,
    Concede,
    CounterObject,
    Note,
    OrderTriggers,
    Resolve,
)
from domain.counter_kinds import canonical_kind


class AdvanceBody(Body):
    """End the current step and begin the next, or move on to ``to`` (CR 500.1): turn-based
    actions happen on the way and the move stops where something went on the stack."""

    model_config = example({"type": "advance", "to": "precombat_main"})
    type: Literal["advance"]
    to: AdvanceTo | None = Field(None, description="a step name, or `next_turn`")

    def to_command(self, resolve: CardResolver) -> Advance:
        return Advance(self.to)


def _choices(value: Any) -> list[Any]:
    """One list of proliferate choices, or one list per proliferate (``[[...], [...]]``)."""
    if not isinstance(value, list):
        raise refuse("invalid_field", f"must be a list, got {shown(value)}")
    if value and all(isinstance(item, list) for item in value):
        return [[check_choice(c) for c in round_] for round_ in value]
    return [check_choice(c) for c in value]


ProliferateChoices = Annotated[
    list[Any],
    PlainValidator(_choices),
    WithJsonSchema(
        {
            "description": "one list of choices, or one list per proliferate when the effect proliferates "
            "more than once",
            "anyOf": [
                {"type": "array", "items": CHOICE_SCHEMA},
                {"type": "array", "items": {"type": "array", "items": CHOICE_SCHEMA}},
            ],
        }
    ),
]


class ResolveChoices(Body):
    """Choices carried by ``resolve`` for the top of the stack (CR 608.2)."""

    cards: list[CardRef] | None = Field(None, description="the cards revealed, for a mill from an unknown library")
    proliferate: ProliferateChoices | None = None
    targets: list[Any] | None = None
    x: NonNegative | None = None
    mode: Any = None
    may: bool | None = Field(None, description='the answer to a "you may"')
    replacement_order: ReplacementOrder = None
    room: Text | None = Field(None, description="the room a venture moves into, where there are two (CR 701.49b)")
    nonland_count: NonNegative | None = Field(
        None,
        description="instead of `cards`, for a mill from an unknown library the table doesn't name: how many "
        "of the milled cards were nonland (the rad trigger, CR 728.1)",
    )


class ResolveBody(Body):
    """All players passed: the top of the stack resolves (CR 608)."""

    model_config = example({"type": "resolve", "choices": {"proliferate": [{"player": "P2"}, {"permanent": "hydra"}]}})
    type: Literal["resolve"]
    choices: ResolveChoices | None = None
    custom_kind: CustomKind = False

    def _kinds(self, choices: list[Mapping[str, str]]) -> tuple[dict[str, str], ...]:
        out = []
        for choice in choices:
            chosen = dict(choice)
            if "kind" in chosen:
                where = "resolve: 'choices.proliferate'"
                chosen["kind"] = canonical_kind(chosen["kind"], custom=self.custom_kind, where=where)
            out.append(chosen)
        return tuple(out)

    def to_command(self, resolve: CardResolver) -> Resolve:
        given = self.choices
        if given is None:
            return Resolve()
        proliferate: tuple[dict[str, str], ...] | None = None
        rounds: tuple[tuple[dict[str, str], ...], ...] | None = None
        if given.proliferate is not None:
            if given.proliferate and isinstance(given.proliferate[0], list):
                rounds = tuple(self._kinds(r) for r in given.proliferate)
                proliferate = rounds[0]
            else:
                proliferate = self._kinds(given.proliferate)
        return Resolve(
            Choices(
                cards=None if given.cards is None else tuple(resolve(c) for c in given.cards),
                proliferate=proliferate,
                targets=None if given.targets is None else tuple(given.targets),
                x=given.x,
                mode=given.mode,
                may=given.may,
                proliferate_rounds=rounds,
                replacement_order=tuple(given.replacement_order or ()),
                room=given.room,
                nonland_count=given.nonland_count,
            )
        )


class OrderTriggersBody(Body):
    """The order of the pending triggers, first to resolve first (CR 603.3b)."""

    model_config = example({"type": "order_triggers", "resolve_first": ["s3", "s2"]})
    type: Literal["order_triggers"]
    resolve_first: list[Text] = Field(min_length=1, description="ids of the pending triggers")

    def to_command(self, resolve: CardResolver) -> OrderTriggers:
        return OrderTriggers(tuple(self.resolve_first))


class ConcedeBody(Body):
    """A player concedes (CR 104.3a): allowed at any time."""

    model_config = example({"type": "concede", "player": "P2"})
    type: Literal["concede"]
    player: Text

    def to_command(self, resolve: CardResolver) -> Concede:
        return Concede(self.player)


class CounterBody(Body):
    """A spell or ability is countered (CR 701.6a): it leaves the stack without resolving."""

    model_config = example({"type": "counter", "object": "s4", "source": "Counterspell"})
    type: Literal["counter"]
    object: Text = Field(description="the stack object's id")
    source: Text | None = None

    def to_command(self, resolve: CardResolver) -> CounterObject:
        return CounterObject(self.object, self.source)


NoteText = Annotated[str, Field(min_length=1, max_length=MAX_NOTE)]


class NoteBody(Body):
    """A judge's remark on the record."""

    model_config = example({"type": "note", "text": "L2 ruling: Bolt was cast before the trigger resolved"})
    type: Literal["note"]
    text: NoteText

    def to_command(self, resolve: CardResolver) -> Note:
        return Note(self.text)
