"""Every automated card module; importing this package registers them all, once, and seals the
registry (``domain.decide`` imports it, so any use of the domain has every card)."""

from domain.cards.behaviour import seal_registry
from domain.cards.library import (  # noqa: F401
    acquired_mutation,
    ajani_goldmane,
    atraxa_grand_unifier,
    atraxa_praetors_voice,
    concordant_crossroads,
    contagion_clasp,
    doubling_season,
    evolution_sage,
    ezuri,
    feral_ghoul,
    feral_hydra,
    flame_rift,
    flux_channeler,
    glowing_one,
    grim_affliction,
    hangarback_walker,
    hardened_scales,
    ichorclaw_myr,
    infesting_radroach,
    lands,
    lightning_helix,
    llanowar_elves,
    mana_flare,
    merrow_wavebreakers,
    mind_stone,
    mirelurk_queen,
    nuclear_fallout,
    screeching_scorchbeast,
    soul_stair_expedition,
    strong,
    switcheroo,
    tezzerets_gambit,
    the_wise_mothman,
    throne_of_geth,
    vault_12,
    vexing_radgull,
)

seal_registry()
