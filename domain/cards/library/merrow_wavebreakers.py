"""Merrow Wavebreakers — "{1}{U}, {Q}: This creature gains flying until end of turn."

The {Q} cost is checked (CR 107.6, 302.6); the flying itself is not tracked by the server.
"""

from domain.cards.behaviour import ActivatedAbility, Behaviour, register

register(
    Behaviour(
        name="Merrow Wavebreakers",
        abilities=(
            ActivatedAbility(
                text="{1}{U}, {Q}: This creature gains flying until end of turn.",
                untap=True,
            ),
        ),
    )
)
