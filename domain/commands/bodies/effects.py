"""Bodies of the direct effects a judge or scorekeeper reports (docs/api.md, Actions: Direct effects):
counters, life, damage, mill, draw, proliferate, move, sacrifice, tap, untap, enter."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from domain.commands.bodies.fields import (
    Body,
    CardRef,
    Choice,
    CounterMap,
    CustomKind,
    Kind,
    MoveFrom,
    NonNegative,
    Positive,
    ReplacementOrder,
    Target,
    Text,
    ZoneTo,
    counters_of,
    example,
    refuse,
)
from domain.commands.vocabulary import (
    AddCounters,
    CardResolver,
    ChangeLife,
    Damage,
    Designate,
    Draw,
    Enter,
    Mill,
    Move,
    Proliferate,
    RemoveCounters,
    Sacrifice,
    Tap,
)
from domain.counter_kinds import canonical_kind

Source = Text | None
"""A card name or note saying what caused it (recorded as the event's cause)."""


class AddCountersBody(Body):
    """Put counters on a player or permanent (CR 122.6); replacement effects of automated cards
    apply. ``kind`` is matched case-insensitively against the known kinds (CR 122)."""

    model_config = example({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 2})
    type: Literal["add_counters"]
    target: Target
    kind: Kind
    amount: Positive
    source: Source = None
    replacement_order: ReplacementOrder = None
    custom_kind: CustomKind = False

    def to_command(self, resolve: CardResolver) -> AddCounters:
        kind = canonical_kind(self.kind, custom=self.custom_kind, where="add_counters: 'kind'")
        return AddCounters(self.target, kind, self.amount, self.source, tuple(self.replacement_order or ()))


class RemoveCountersBody(Body):
    """Remove counters; ``not_enough_counters`` if fewer are there, unless ``up_to``."""

    model_config = example({"type": "remove_counters", "target": {"permanent": "hydra"}, "kind": "+1/+1", "amount": 1})
    type: Literal["remove_counters"]
    target: Target
    kind: Kind
    amount: Positive
    up_to: bool = Field(False, description="remove as many as there are, up to amount")
    source: Source = None
    custom_kind: CustomKind = False

    def to_command(self, resolve: CardResolver) -> RemoveCounters:
        kind = canonical_kind(self.kind, custom=self.custom_kind, where="remove_counters: 'kind'")
        return RemoveCounters(self.target, kind, self.amount, self.up_to, self.source)


class LoseLifeBody(Body):
    """A player loses life (CR 119.3)."""

    model_config = example({"type": "lose_life", "player": "P1", "amount": 3, "source": "Lightning Bolt"})
    type: Literal["lose_life"]
    player: Text
    amount: Positive
    source: Source = None

    def to_command(self, resolve: CardResolver) -> ChangeLife:
        return ChangeLife(self.type, self.player, self.amount, self.source)


class GainLifeBody(Body):
    """A player gains life (CR 119.3)."""

    model_config = example({"type": "gain_life", "player": "P1", "amount": 3})
    type: Literal["gain_life"]
    player: Text
    amount: Positive
    source: Source = None

    def to_command(self, resolve: CardResolver) -> ChangeLife:
        return ChangeLife(self.type, self.player, self.amount, self.source)


class PayLifeBody(Body):
    """A player pays life: only with at least that much; paying 0 is always allowed (CR 119.4)."""

    model_config = example({"type": "pay_life", "player": "P1", "amount": 2})
    type: Literal["pay_life"]
    player: Text
    amount: NonNegative
    source: Source = None

    def to_command(self, resolve: CardResolver) -> ChangeLife:
        return ChangeLife(self.type, self.player, self.amount, self.source)


class DamageBody(Body):
    """Damage to a player or permanent (CR 120); infect and toxic give poison (CR 702.90, 702.164)."""

    model_config = example({"type": "damage", "target": {"player": "P2"}, "amount": 2, "infect": True})
    type: Literal["damage"]
    target: Target
    amount: Positive
    source: Source = Field(
        None, description="a card name or note, or the id of the permanent dealing the damage (its keywords apply)"
    )
    infect: bool = False
    toxic: NonNegative = 0
    combat: bool = Field(False, description="combat damage: 'deals combat damage' abilities trigger (CR 510)")

    def to_command(self, resolve: CardResolver) -> Damage:
        return Damage(self.target, self.amount, self.source, self.infect, self.toxic, self.combat)


class MillBody(Body):
    """Mill ``count`` cards, as many as possible (CR 701.17)."""

    model_config = example({"type": "mill", "player": "P1", "count": 3})
    type: Literal["mill"]
    player: Text
    count: Positive
    cards: list[CardRef] | None = Field(None, description="the cards milled, for an unknown library")
    nonland_count: NonNegative | None = Field(
        None,
        description="for an unknown library whose milled cards are not named: how many of them were nonland",
    )
    source: Source = None

    def to_command(self, resolve: CardResolver) -> Mill:
        cards = None if self.cards is None else tuple(resolve(c) for c in self.cards)
        return Mill(self.player, self.count, cards, self.source, self.nonland_count)


class DrawBody(Body):
    """Draw ``count`` cards (CR 121); drawing from an empty library loses (CR 704.5b)."""

    model_config = example({"type": "draw", "player": "P1", "count": 1})
    type: Literal["draw"]
    player: Text
    count: Positive = 1
    cards: list[CardRef] | None = Field(None, description="the cards drawn, for an unknown library")
    source: Source = None

    def to_command(self, resolve: CardResolver) -> Draw:
        cards = None if self.cards is None else tuple(resolve(c) for c in self.cards)
        return Draw(self.player, self.count, cards, self.source)


class ProliferateBody(Body):
    """Proliferate (CR 701.34): each chosen player or permanent gets one more counter of each kind
    it has (of the chosen ``kind`` in games pinned before 2019-05-03)."""

    model_config = example(
        {"type": "proliferate", "player": "P1", "choose": [{"player": "P2"}, {"permanent": "hydra"}]}
    )
    type: Literal["proliferate"]
    player: Text
    choose: list[Choice] = Field(default_factory=list)
    source: Source = None
    replacement_order: ReplacementOrder = None
    custom_kind: CustomKind = False

    def to_command(self, resolve: CardResolver) -> Proliferate:
        chosen = []
        for choice in self.choose:
            if "kind" in choice:
                kind = canonical_kind(choice["kind"], custom=self.custom_kind, where="proliferate: 'choose'")
                choice = {**choice, "kind": kind}
            chosen.append(choice)
        return Proliferate(self.player, tuple(chosen), self.source, tuple(self.replacement_order or ()))


class MoveBody(Body):
    """Move a permanent to another zone; its counters cease to exist (CR 122.2, 400.7). Or, with
    ``player``, ``card`` and ``from`` instead of ``permanent``: that player's commander card moves
    from their graveyard or exile to the command zone (CR 903.9a)."""

    model_config = example({"type": "move", "permanent": "hydra", "to": "graveyard"})
    type: Literal["move"]
    permanent: Text | None = Field(None, description="the permanent's id")
    to: ZoneTo
    player: Text | None = Field(None, description="a commander card's owner (with `card` and `from`)")
    card: Text | None = Field(None, description="the commander card's name")
    from_: MoveFrom | None = Field(None, alias="from", description="`graveyard` or `exile`")

    @model_validator(mode="after")
    def _one_thing_moved(self) -> MoveBody:
        card_fields = (self.player, self.card, self.from_)
        if self.permanent is not None:
            if any(f is not None for f in card_fields):
                raise refuse("invalid_field", "move: give 'permanent', or 'player', 'card' and 'from', not both")
        elif any(f is None for f in card_fields):
            missing = [n for n, f in zip(("player", "card", "from"), card_fields, strict=True) if f is None]
            raise refuse(
                "missing_field", f"move: 'permanent' is missing (or 'player', 'card' and 'from'; missing {missing})"
            )
        elif self.to != "command":
            raise refuse(
                "invalid_zone",
                f"move: a card from the {self.from_} goes only 'to': 'command' (CR 903.9a), got {self.to!r}",
            )
        return self

    def to_command(self, resolve: CardResolver) -> Move:
        return Move(self.permanent, self.to, self.player, self.card, self.from_)


class SacrificeBody(Body):
    """Sacrifice a permanent (CR 701.21)."""

    model_config = example({"type": "sacrifice", "permanent": "thopter"})
    type: Literal["sacrifice"]
    permanent: Text

    def to_command(self, resolve: CardResolver) -> Sacrifice:
        return Sacrifice(self.permanent)


class TapBody(Body):
    """Tap a permanent (CR 701.26)."""

    model_config = example({"type": "tap", "permanent": "hydra"})
    type: Literal["tap"]
    permanent: Text

    def to_command(self, resolve: CardResolver) -> Tap:
        return Tap(self.permanent)


class UntapBody(Body):
    """Untap a permanent (CR 701.26)."""

    model_config = example({"type": "untap", "permanent": "hydra"})
    type: Literal["untap"]
    permanent: Text

    def to_command(self, resolve: CardResolver) -> Tap:
        return Tap(self.permanent, untap=True)


class EnterBody(Body):
    """Put a permanent onto the battlefield; replacement effects apply (CR 614.12, 122.6)."""

    model_config = example({"type": "enter", "card": "Feral Hydra", "controller": "P1", "x": 3})
    type: Literal["enter"]
    id: Text | None = Field(None, description="the permanent's id; the server picks one if none is given")
    card: CardRef
    controller: Text
    counters: CounterMap | None = Field(None, description="counters it enters with")
    tapped: bool = False
    token: bool = False
    x: NonNegative = 0
    replacement_order: ReplacementOrder = None
    custom_kind: CustomKind = False

    def to_command(self, resolve: CardResolver) -> Enter:
        return Enter(
            card=resolve(self.card),
            controller=self.controller,
            id=self.id,
            counters=counters_of(self.counters, custom=self.custom_kind, where="enter: 'counters'"),
            tapped=self.tapped,
            token=self.token,
            x=self.x,
            replacement_order=tuple(self.replacement_order or ()),
        )


DESIGNATIONS = ("monarch", "initiative", "city_blessing", "day", "night")
"""What ``designate`` names: a player's designation, or ``day`` / ``night`` (the game's)."""
PLAYER_DESIGNATIONS = ("monarch", "initiative", "city_blessing")


class DesignateBody(Body):
    """A player becomes the monarch (CR 725), takes the initiative (CR 726) or gets the city's
    blessing (CR 702.131), or it becomes day or night (CR 731); ``player`` for the first three."""

    model_config = example({"type": "designate", "designation": "monarch", "player": "P1"})
    type: Literal["designate"]
    designation: Literal["monarch", "initiative", "city_blessing", "day", "night"]
    player: Text | None = Field(None, description="who gets it: required for monarch, initiative and city_blessing")

    @model_validator(mode="after")
    def _player_as_needed(self) -> DesignateBody:
        if self.designation in PLAYER_DESIGNATIONS and self.player is None:
            raise refuse("missing_field", f"designate: {self.designation!r} needs the 'player' who gets it")
        if self.designation not in PLAYER_DESIGNATIONS and self.player is not None:
            raise refuse(
                "invalid_field", f"designate: {self.designation!r} is the game's, not a player's: give no 'player'"
            )
        return self

    def to_command(self, resolve: CardResolver) -> Designate:
        return Designate(self.designation, self.player)
