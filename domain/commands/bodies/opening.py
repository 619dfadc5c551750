"""Bodies of the actions of a game's opening, before its first turn (CR 103): choosing who plays
first (103.1), taking a mulligan and keeping a hand (103.5) (docs/api.md, Actions: Opening)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.commands.bodies.fields import Body, CardRef, Text, example
from domain.commands.vocabulary import CardResolver, ChooseFirstPlayer, KeepHand, Mulligan


class ChooseFirstPlayerBody(Body):
    """Who takes the first turn (CR 103.1): the named ``player``, or one picked at random by the
    server when ``player`` is left out. Only before any mulligan and the first turn-based action."""

    model_config = example({"type": "choose_first_player"})
    type: Literal["choose_first_player"]
    player: Text | None = Field(None, description="the player who plays first; left out: a random pick")

    def to_command(self, resolve: CardResolver) -> ChooseFirstPlayer:
        return ChooseFirstPlayer(self.player)


class MulliganBody(Body):
    """A player takes a mulligan (CR 103.5, London): their hand is shuffled into their library and
    they draw a new, unknown hand of seven."""

    model_config = example({"type": "mulligan", "player": "P1"})
    type: Literal["mulligan"]
    player: Text

    def to_command(self, resolve: CardResolver) -> Mulligan:
        return Mulligan(self.player)


class KeepHandBody(Body):
    """A player keeps their hand (CR 103.5) and puts one card on the bottom of their library for
    each mulligan taken (the first is free in a multiplayer game, CR 103.5c)."""

    model_config = example({"type": "keep_hand", "player": "P1"})
    type: Literal["keep_hand"]
    player: Text
    bottom: list[CardRef] | None = Field(
        None,
        description="the cards put on the bottom, if the table names them (at most as many as go there); "
        "cards not named go there unknown",
    )

    def to_command(self, resolve: CardResolver) -> KeepHand:
        bottom = None if self.bottom is None else tuple(resolve(c) for c in self.bottom)
        return KeepHand(self.player, bottom)
