"""Ajani Goldmane {2}{W}{W}, Legendary Planeswalker — Ajani, loyalty 4.

It enters with four loyalty counters (CR 306.5b; Doubling Season: eight). Its loyalty abilities
are activated with ``activate`` (ability 0, 1, 2): only by its controller, in a main phase of
their turn with an empty stack, one loyalty ability of it per turn (606.3); the loyalty cost is
paid at once (+1 puts a counter, −N needs and removes N, 606.4, 606.6). At 0 loyalty it goes to
the graveyard (704.5i) while the ability still resolves.

Oracle text (catalog.json):

- "+1: You gain 2 life." Automated.
- "−1: Put a +1/+1 counter on each creature you control. Those creatures gain vigilance until
  end of turn." Automated: the counters, on each creature its controller controls on resolution.
  The vigilance is not tracked (an ``attack`` taps them: report ``untap`` for those).
- "−6: Create a white Avatar creature token. It has "This token's power and toughness are each
  equal to your life total."" Automated: the token (*/* — its characteristic-defining ability is
  not computed; Doubling Season makes two).
"""

from __future__ import annotations

from domain.builder import Builder
from domain.cards.behaviour import ActivatedAbility, Behaviour, register
from domain.cards.tokens import AVATAR
from domain.commands import Choices
from domain.rules.counters import add_counters
from domain.rules.effects import effect
from domain.rules.life import gain_life
from domain.rules.zones import create_tokens
from domain.state import StackObject

NAME = "Ajani Goldmane"


@effect("ajani.gain")
def _gain(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    gain_life(b, obj.controller, 2, NAME)
    return None


@effect("ajani.counters")
def _counters(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    for perm in list(b.state.battlefield.values()):
        if perm.controller == obj.controller and perm.card.is_creature:
            add_counters(b, {"permanent": perm.id}, "+1/+1", 1, NAME)
    return "vigilance until end of turn is not tracked"


@effect("ajani.avatar")
def _avatar(b: Builder, obj: StackObject, choices: Choices) -> str | None:
    create_tokens(b, obj.controller, AVATAR, 1, NAME)
    return None


register(
    Behaviour(
        name=NAME,
        abilities=(
            ActivatedAbility(text="+1: You gain 2 life.", loyalty=+1, effect="ajani.gain"),
            ActivatedAbility(
                text="−1: Put a +1/+1 counter on each creature you control. Those creatures gain vigilance until end "
                "of turn.",
                loyalty=-1,
                effect="ajani.counters",
            ),
            ActivatedAbility(
                text="−6: Create a white Avatar creature token. It has \"This token's power and toughness are each "
                'equal to your life total."',
                loyalty=-6,
                effect="ajani.avatar",
            ),
        ),
    )
)
