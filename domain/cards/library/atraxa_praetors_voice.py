"""Atraxa, Praetors' Voice {G}{W}{U}{B}, Legendary Creature — Phyrexian Angel Horror 4/4.

Oracle text (catalog.json):

- "Flying, vigilance, deathtouch, lifelink" — vigilance is automated for ``attack`` (it doesn't
  tap); deathtouch and lifelink for damage reported with ``"source": <its id>`` (CR 702.2b: a
  creature it damages is destroyed; 702.15b: its controller gains that much life). Flying is
  not tracked.
- "At the beginning of your end step, proliferate. (...)" Automated: triggers as its
  controller's end step begins (``advance`` into ``end``); ``choices.proliferate`` on resolution.
"""

from __future__ import annotations

from domain.cards.behaviour import Behaviour, register
from domain.cards.helpers import proliferate_effect
from domain.cards.watchers import trigger, your_end_step

NAME = "Atraxa, Praetors' Voice"


proliferate_effect("atraxa_pv.end_step", NAME)


register(
    Behaviour(
        name=NAME,
        watchers=(
            trigger(
                your_end_step,
                "atraxa_pv.end_step",
                "at the beginning of your end step, proliferate",
                needs=("proliferate",),
            ),
        ),
    )
)
