"""Bodies of played objects and combat (docs/api.md, Actions: Played objects): cast, play_land,
activate and attack."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from domain.commands.bodies.fields import (
    Body,
    CardRef,
    CastFrom,
    CounterMap,
    CustomKind,
    NonNegative,
    Target,
    Text,
    counters_of,
    example,
)
from domain.commands.vocabulary import Activate, ActivateCosts, Attack, CardResolver, Cast, PlayLand


class CastBody(Body):
    """Cast a spell (CR 601): automated cards put their effects on the stack with it."""

    model_config = example({"type": "cast", "player": "P1", "card": "Feral Hydra", "x": 4})
    type: Literal["cast"]
    player: Text
    card: CardRef
    x: NonNegative = 0
    targets: list[Any] | None = None
    from_: CastFrom = Field("hand", alias="from", description="the zone it is cast from")

    def to_command(self, resolve: CardResolver) -> Cast:
        return Cast(self.player, resolve(self.card), self.x, tuple(self.targets or ()), self.from_)


class PlayLandBody(Body):
    """Play a land (CR 305): once a turn, in a main phase with an empty stack."""

    model_config = example({"type": "play_land", "player": "P1", "card": "Forest"})
    type: Literal["play_land"]
    player: Text
    card: CardRef

    def to_command(self, resolve: CardResolver) -> PlayLand:
        return PlayLand(self.player, resolve(self.card))


class ActivateCostsBody(Body):
    """Costs the operator names for an ability the server doesn't automate (CR 118)."""

    tap: bool = Field(False, description="{T} (CR 107.5)")
    untap: bool = Field(False, description="{Q} (CR 107.6)")
    sacrifice: list[Text] = Field([], description="ids of the permanents sacrificed")
    remove_counters: CounterMap = Field({}, description="counters removed from the permanent, by kind")
    pay_life: NonNegative = 0


class ActivateBody(Body):
    """Activate an ability of a permanent (CR 602); {T}, {Q} and summoning sickness are checked
    (CR 107.5, 107.6, 302.6) and a mana ability resolves at once (CR 605.3b)."""

    model_config = example(
        {"type": "activate", "player": "P1", "permanent": "throne", "ability": 0, "costs": {"sacrifice": ["thopter"]}}
    )
    type: Literal["activate"]
    player: Text
    permanent: Text
    ability: NonNegative = Field(0, description="the ability's index among the card's activated abilities")
    x: NonNegative = 0
    costs: ActivateCostsBody | None = None
    targets: list[Any] | None = None
    mana: Text | None = Field(None, description="the mana type chosen, for an ability that adds one of several")
    custom_kind: CustomKind = False

    def to_command(self, resolve: CardResolver) -> Activate:
        given = self.costs or ActivateCostsBody()
        costs = ActivateCosts(
            tap=given.tap,
            untap=given.untap,
            sacrifice=tuple(given.sacrifice),
            remove_counters=counters_of(
                given.remove_counters, custom=self.custom_kind, where="activate: 'costs.remove_counters'"
            ),
            pay_life=given.pay_life,
        )
        return Activate(
            player=self.player,
            permanent=self.permanent,
            ability=self.ability,
            x=self.x,
            costs=costs,
            targets=tuple(self.targets or ()),
            mana=self.mana,
        )


class AttackerBody(Body):
    """One attacking creature and what it attacks."""

    permanent: Text
    attacks: Target


class AttackBody(Body):
    """Declared attackers (CR 508.1): triggers "whenever ... attacks" of automated cards."""

    model_config = example(
        {"type": "attack", "player": "P1", "attackers": [{"permanent": "moth", "attacks": {"player": "P2"}}]}
    )
    type: Literal["attack"]
    player: Text
    attackers: list[AttackerBody] = Field(min_length=1)

    def to_command(self, resolve: CardResolver) -> Attack:
        return Attack(self.player, tuple((a.permanent, a.attacks) for a in self.attackers))
