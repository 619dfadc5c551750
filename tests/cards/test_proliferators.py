"""Flux Channeler, Tezzeret's Gambit, Evolution Sage and Atraxa, Praetors' Voice: proliferate
from a cast trigger, a sorcery, landfall and "at the beginning of your end step"."""

from domain import events as ev
from tests.cards.support import BOLT, FOREST, Game, of_type, permanent

HYDRA = {"name": "Feral Hydra"}


def test_flux_channeler_noncreature_spell() -> None:
    """Flux Channeler: "Whenever you cast a noncreature spell, proliferate." It triggers on the
    cast (CR 601.2i) and resolves first; a creature spell or an opponent's spell doesn't trigger it."""
    game = Game(
        players=[{"id": "P1", "hand": ["Lightning Bolt", "Grizzly Bears"]}, {"id": "P2", "counters": {"poison": 1}}],
        battlefield=[permanent("flux", "Flux Channeler")],
    )
    game.cast("P1", {"name": "Grizzly Bears", "type_line": "Creature — Bear", "power": "2", "toughness": "2"})
    assert len(game.stack()) == 1
    game.resolve()
    game.cast("P1", "Lightning Bolt")
    assert [o["kind"] for o in game.stack()] == ["spell", "trigger"]
    game.resolve(proliferate=[{"player": "P2"}])
    assert game.player("P2")["counters"] == {"poison": 2}


def test_tezzerets_gambit_draw_two_then_proliferate() -> None:
    """Tezzeret's Gambit: "Draw two cards, then proliferate.\""""
    game = Game(
        players=[{"id": "P1", "hand": ["Tezzeret's Gambit"], "library": [BOLT, FOREST, BOLT]}, {"id": "P2"}],
        battlefield=[permanent("hydra", HYDRA, counters={"+1/+1": 2})],
    )
    game.cast("P1", "Tezzeret's Gambit")
    assert game.top()["needs"] == ["proliferate"]
    events = game.resolve(proliferate=[{"permanent": "hydra"}])
    assert [e.type for e in events].index(ev.CardsDrawn.TYPE) < [e.type for e in events].index(ev.Proliferated.TYPE)
    assert game.player("P1")["hand_size"] == 2
    assert game.counters("hydra") == {"+1/+1": 3}


def test_evolution_sage_landfall_proliferate() -> None:
    """Evolution Sage: "Landfall — Whenever a land you control enters, proliferate.\""""
    game = Game(
        players=[{"id": "P1", "hand": ["Forest"]}, {"id": "P2"}],
        battlefield=[permanent("sage", "Evolution Sage"), permanent("hydra", HYDRA, counters={"+1/+1": 1})],
    )
    game.act({"type": "play_land", "player": "P1", "card": "Forest"})
    assert game.top()["needs"] == ["proliferate"]
    game.resolve(proliferate=[{"permanent": "hydra"}])
    assert game.counters("hydra") == {"+1/+1": 2}


def test_atraxa_end_step_proliferate_only_on_your_turn() -> None:
    """Atraxa, Praetors' Voice: "At the beginning of your end step, proliferate." (CR 513.1, 603.2)
    Not at the beginning of an opponent's end step."""
    game = Game(
        players=[{"id": "P1", "counters": {"poison": 1}}, {"id": "P2", "counters": {"poison": 1}}],
        battlefield=[permanent("atraxa", "Atraxa, Praetors' Voice", "P2")],
    )
    game.advance("end")  # P1's end step: not Atraxa's controller's
    assert game.stack() == []
    game2 = Game(
        turn={"number": 4, "active_player": "P2", "step": "postcombat_main"},
        players=[{"id": "P1", "counters": {"poison": 1}}, {"id": "P2"}],
        battlefield=[permanent("atraxa", "Atraxa, Praetors' Voice", "P2")],
    )
    events = game2.advance("end")
    assert of_type(events, ev.TriggerPutOnStack.TYPE)
    game2.resolve(proliferate=[{"player": "P1"}])
    assert game2.player("P1")["counters"] == {"poison": 2}


def test_atraxa_lifelink_and_deathtouch() -> None:
    """Atraxa, Praetors' Voice: "Flying, vigilance, deathtouch, lifelink" — damage it deals gains
    its controller that much life (CR 702.15b); a creature it damages is destroyed (702.2b)."""
    game = Game(
        battlefield=[
            permanent("atraxa", "Atraxa, Praetors' Voice"),
            permanent("giant", {"name": "Big", "type_line": "Creature — Beast", "power": "9", "toughness": "9"}, "P2"),
        ],
    )
    game.damage({"player": "P2"}, 4, source="atraxa", combat=True)
    assert (game.life("P1"), game.life("P2")) == (24, 16)
    game.damage({"permanent": "giant"}, 1, source="atraxa")
    assert game.on_battlefield("Big") == []
