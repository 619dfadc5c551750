"""Mana Flare {2}{R}, Enchantment.

Oracle text (catalog.json): "Whenever a player taps a land for mana, that player adds one mana
of any type that land produced."

Automated as a triggered mana ability (CR 605.1b): when any player activates a mana ability
with {T} in its cost of a land (Dryad Arbor and Reflecting Pool included) and it produces
mana (106.12a), that player gets one more mana of the type it produced, at once, without the
stack (605.4a): a second ``ManaAdded`` event whose ``source`` is the Mana Flare. A land that
produced no mana (Meteor Crater with no coloured permanent, 106.5) doesn't trigger it. If the
land produced more than one type, the activation's ``mana`` names the type. Mana Flare is a
triggered ability, not a replacement effect, so it doesn't change what a land "could produce"
(106.7) for Reflecting Pool or Exotic Orchard.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.cards.behaviour import Behaviour, register
from domain.errors import Code, IllegalAction
from domain.state import GameState, Permanent

NAME = "Mana Flare"


def _flare(
    source: Permanent, land: Permanent, state: GameState, produced: Mapping[str, int], choice: str | None
) -> Mapping[str, int]:
    types = sorted(produced)
    if len(types) == 1:
        return {types[0]: 1}
    if choice is not None and choice in produced:
        return {choice: 1}
    raise IllegalAction(
        f"{NAME}: {land.card.name} produced {types}; name the type Mana Flare adds with 'mana'", Code.CHOICE_REQUIRED
    )


register(Behaviour(name=NAME, mana_triggers=(_flare,)))
