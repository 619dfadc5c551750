"""Ichorclaw Myr {2}, Artifact Creature — Phyrexian Myr 1/1.

Oracle text (catalog.json):

- "Infect (This creature deals damage to creatures in the form of -1/-1 counters and to players
  in the form of poison counters.)" Automated: damage reported with ``"source": <its id>`` is
  infect damage (CR 702.90b/c): poison counters for a player, -1/-1 counters for a creature.
- "Whenever this creature becomes blocked, it gets +2/+2 until end of turn." Not automated: the
  server doesn't track blocks; the table applies the +2/+2 (and reports damage accordingly).
"""

from domain.cards.behaviour import Behaviour, register

register(Behaviour(name="Ichorclaw Myr"))
