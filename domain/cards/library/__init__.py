"""Every automated card module; importing this package registers them all."""

from domain.cards.library import (  # noqa: F401
    ezuri,
    feral_hydra,
    flame_rift,
    lands,
    llanowar_elves,
    merrow_wavebreakers,
    throne_of_geth,
    vault_12,
)
