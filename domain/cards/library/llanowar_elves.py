"""Llanowar Elves — "{T}: Add {G}." (a creature: summoning sickness applies, CR 302.6)."""

from domain.cards.behaviour import Behaviour, register, tap_for_mana

register(Behaviour(name="Llanowar Elves", abilities=(tap_for_mana("G"),)))
