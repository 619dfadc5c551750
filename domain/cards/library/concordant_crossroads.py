"""Concordant Crossroads {G}, World Enchantment.

Oracle text (catalog.json): "All creatures have haste."

Automated: while it is on the battlefield, every creature (any controller's) has haste, so
summoning sickness (CR 302.6) doesn't stop {T}/{Q} abilities (Llanowar Elves, Dryad Arbor,
Hangarback Walker) or attacking; the state's ``summoning_sick`` shows false. The world rule
(704.5k: only the newest world permanent stays) is not automated.
"""

from domain.cards.behaviour import Behaviour, register

register(Behaviour(name="Concordant Crossroads", creatures_have_haste=True))
