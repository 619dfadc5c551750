"""Mana abilities: fixed, any colour, "a type a land could produce" (CR 106.7), undefined type
(106.5), a triggered mana ability (605.4a: Mana Flare), "tapped for mana" (106.12)."""

from domain import events as ev
from tests.cards.support import Game, of_type, permanent

POOL = "Reflecting Pool"
ORCHARD = "Exotic Orchard"


def _pool(game: Game, player: str) -> dict[str, int]:
    return {k: n for k, n in game.player(player)["mana_pool"].items() if n}


def test_mind_stone_tap_for_colorless() -> None:
    """Mind Stone: "{T}: Add {C}." A mana ability resolves at once, without the stack (CR 605.3b);
    an artifact isn't affected by summoning sickness (302.6)."""
    game = Game(battlefield=[permanent("stone", "Mind Stone", entered_this_turn=True)])
    game.activate("P1", "stone", 0)
    assert _pool(game, "P1") == {"C": 1}
    assert game.stack() == []


def test_mind_stone_sacrifice_draw() -> None:
    """Mind Stone: "{1}, {T}, Sacrifice this artifact: Draw a card." {T} and the sacrifice are paid
    on activation (CR 602.2b, 701.21a); the draw happens on resolution."""
    game = Game(
        players=[{"id": "P1", "library": ["Forest"]}, {"id": "P2"}], battlefield=[permanent("stone", "Mind Stone")]
    )
    game.activate("P1", "stone", 1)
    assert game.on_battlefield("Mind Stone") == []
    game.resolve()
    assert game.player("P1")["hand_size"] == 1


def test_exotic_orchard_colours_of_opponents_lands() -> None:
    """Exotic Orchard: "{T}: Add one mana of any color that a land an opponent controls could
    produce." Ruling 2009-02-01: colours only — an opponent's Wastes ({C}) adds nothing; its own
    controller's lands don't count; a tapped land still could produce (costs are ignored, 106.7)."""
    game = Game(
        battlefield=[
            permanent("orchard", ORCHARD),
            permanent("myforest", "Forest"),
            permanent("wastes", "Wastes", "P2"),
            permanent("island", "Island", "P2", tapped=True),
            permanent("mountain", "Mountain", "P2"),
        ],
    )
    game.refused({"type": "activate", "player": "P1", "permanent": "orchard"}, "choice_required")
    game.refused({"type": "activate", "player": "P1", "permanent": "orchard", "mana": "G"}, "illegal_choice")
    game.refused({"type": "activate", "player": "P1", "permanent": "orchard", "mana": "C"}, "illegal_choice")
    game.activate("P1", "orchard", mana="U")
    assert _pool(game, "P1") == {"U": 1}


def test_two_exotic_orchards_facing_each_other_produce_nothing() -> None:
    """CR 106.7 example: two Exotic Orchards and no other lands: neither could produce anything, so
    each, tapped for mana, adds nothing (106.5). The activation is still legal: {T} is paid."""
    game = Game(battlefield=[permanent("o1", ORCHARD), permanent("o2", ORCHARD, "P2")])
    events = game.activate("P1", "o1")
    assert of_type(events, ev.ManaAdded.TYPE) == []
    assert game.perm("o1")["tapped"] is True


def test_exotic_orchards_with_a_forest() -> None:
    """CR 106.7: with a Forest beside one Orchard, each Orchard could produce {G} — the opponent's
    Orchard sees the Forest, and the first sees the opponent's Orchard."""
    game = Game(battlefield=[permanent("o1", ORCHARD), permanent("forest", "Forest"), permanent("o2", ORCHARD, "P2")])
    game.activate("P2", "o2")
    game.activate("P1", "o1")
    assert _pool(game, "P1") == {"G": 1} and _pool(game, "P2") == {"G": 1}


def test_reflecting_pool_types_your_lands_could_produce() -> None:
    """Reflecting Pool: "{T}: Add one mana of any type that a land you control could produce." Types
    include colorless (106.7); an opponent's land doesn't count; alone it produces nothing."""
    game = Game(
        battlefield=[
            permanent("pool", POOL),
            permanent("wastes", "Wastes"),
            permanent("crater", "Meteor Crater"),
            permanent("swamp", "Swamp", "P2"),
        ],
    )
    game.refused({"type": "activate", "player": "P1", "permanent": "pool", "mana": "B"}, "illegal_choice")
    game.activate("P1", "pool", mana="C")
    assert _pool(game, "P1") == {"C": 1}
    alone = Game(battlefield=[permanent("pool", POOL), permanent("pool2", POOL)])
    assert of_type(alone.activate("P1", "pool"), ev.ManaAdded.TYPE) == []


def test_mana_flare_adds_one_more_of_the_type_produced() -> None:
    """Mana Flare: "Whenever a player taps a land for mana, that player adds one mana of any type
    that land produced." A triggered mana ability: it resolves at once (CR 605.4a), for any
    player's land; Reflecting Pool's choice is the type that land produced."""
    game = Game(
        battlefield=[
            permanent("flare", "Mana Flare", "P2"),
            permanent("forest", "Forest"),
            permanent("pool", POOL),
            permanent("stone", "Mind Stone"),
        ],
    )
    events = game.activate("P1", "forest")
    added = of_type(events, ev.ManaAdded.TYPE)
    assert [e.data["mana"] for e in added] == [{"G": 1}, {"G": 1}]
    assert added[1].rule == "CR 605.4a" and added[1].data["source"] == "flare"
    game.activate("P1", "pool", mana="G")
    game.activate("P1", "stone")  # an artifact, not a land: no extra mana
    assert _pool(game, "P1") == {"G": 4, "C": 1}
    assert game.stack() == []


def test_mana_flare_only_when_mana_was_produced() -> None:
    """CR 106.12a: a "tapped for mana" trigger fires only if the ability produced mana; Meteor
    Crater with no coloured permanent produces none (106.5), so Mana Flare adds nothing."""
    game = Game(battlefield=[permanent("flare", "Mana Flare", "P2"), permanent("crater", "Meteor Crater")])
    events = game.activate("P1", "crater")
    assert of_type(events, ev.ManaAdded.TYPE) == []


def test_reflecting_pool_ignores_mana_flare() -> None:
    """What a land "could produce" counts its mana abilities (and replacement effects), not
    triggered mana abilities (106.7): with only a Forest and Mana Flare, Reflecting Pool offers {G}
    only; tapped for {G} it gets Mana Flare's extra {G}."""
    game = Game(battlefield=[permanent("flare", "Mana Flare"), permanent("forest", "Forest"), permanent("pool", POOL)])
    game.refused({"type": "activate", "player": "P1", "permanent": "pool", "mana": "R"}, "illegal_choice")
    game.activate("P1", "pool")
    assert _pool(game, "P1") == {"G": 2}


def test_dryad_arbor_is_a_land_creature() -> None:
    """Dryad Arbor: "(This land isn't a spell, it's affected by summoning sickness, and it has "{T}:
    Add {G}.")" Played as a land (305.1), summoning sick the turn it enters (302.6), green (Meteor
    Crater can make {G} from it), a land for Mana Flare, and landfall sees it."""
    game = Game(
        players=[{"id": "P1", "hand": ["Dryad Arbor"]}, {"id": "P2"}],
        battlefield=[permanent("sage", "Evolution Sage")],
    )
    game.refused({"type": "cast", "player": "P1", "card": "Dryad Arbor"}, "cannot_cast_land")
    game.act({"type": "play_land", "player": "P1", "card": "Dryad Arbor"})
    assert len(game.stack()) == 1  # Evolution Sage's landfall
    game.resolve(proliferate=[])
    (arbor,) = game.on_battlefield("Dryad Arbor")
    assert game.perm(arbor)["summoning_sick"] is True
    game.refused({"type": "activate", "player": "P1", "permanent": arbor}, "summoning_sick")
    later = Game(
        battlefield=[
            permanent("arbor", "Dryad Arbor"),
            permanent("flare", "Mana Flare", "P2"),
            permanent("crater", "Meteor Crater"),
        ]
    )
    later.activate("P1", "arbor")
    assert _pool(later, "P1") == {"G": 2}
    later.activate("P1", "crater")  # the only coloured permanent P1 controls is the Arbor
    assert _pool(later, "P1") == {"G": 4}


def test_concordant_crossroads_all_creatures_have_haste() -> None:
    """Concordant Crossroads: "All creatures have haste." Haste lets a creature use {T} abilities
    and attack the turn it comes under its controller's control (CR 702.10b, 302.6): Llanowar
    Elves and Dryad Arbor tap for mana at once; without it, they can't."""
    game = Game(
        battlefield=[
            permanent("cc", "Concordant Crossroads", "P2"),
            permanent("elf", "Llanowar Elves", entered_this_turn=True),
            permanent("arbor", "Dryad Arbor", entered_this_turn=True),
        ],
    )
    assert game.perm("elf")["summoning_sick"] is False
    game.activate("P1", "elf")
    game.activate("P1", "arbor")
    assert _pool(game, "P1") == {"G": 2}
    game.act({"type": "sacrifice", "permanent": "cc"})
    game.enter("Llanowar Elves")
    (new,) = [p for p in game.on_battlefield("Llanowar Elves") if p != "elf"]
    game.refused({"type": "activate", "player": "P1", "permanent": new}, "summoning_sick")
