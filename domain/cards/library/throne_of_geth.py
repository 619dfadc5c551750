"""Throne of Geth — "{T}, Sacrifice an artifact: Proliferate."""

from domain.cards.behaviour import ActivatedAbility, Behaviour, register

register(
    Behaviour(
        name="Throne of Geth",
        abilities=(
            ActivatedAbility(
                text="{T}, Sacrifice an artifact: Proliferate.",
                tap=True,
                sacrifice_artifact=1,
                effect="proliferate",  # choices are made on resolution (CR 701.34a)
                needs=("proliferate",),
            ),
        ),
    )
)
