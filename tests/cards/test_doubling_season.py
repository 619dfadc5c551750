"""Doubling Season: tokens and counters doubled, with the rulings' exceptions."""

from tests.cards.support import BEAR, Game, permanent

DS = "Doubling Season"
GIANT = {"name": "Hill Giant", "type_line": "Creature — Giant", "power": "3", "toughness": "3"}
VAULT = "Vault 12: The Necropolis"


def test_tokens_doubled() -> None:
    """ "If an effect would create one or more tokens under your control, it creates twice that
    many of those tokens instead." Vault 12 chapter II with X = 2 creates four tokens."""
    game = Game(
        turn={"number": 5, "active_player": "P1", "step": "draw"},
        players=[{"id": "P1", "counters": {"rad": 1}, "library": ["Forest"]}, {"id": "P2", "counters": {"rad": 1}}],
        battlefield=[permanent("ds", DS), permanent("vault", VAULT, counters={"lore": 1})],
    )
    game.advance("precombat_main")
    pending = game.view()["pending_order"]
    chapter = next(t["id"] for t in pending["triggers"] if "chapter II" in t["description"])
    rad = next(t["id"] for t in pending["triggers"] if "Rad" in t["description"])
    game.act({"type": "order_triggers", "resolve_first": [chapter, rad]})
    game.resolve()
    assert len(game.on_battlefield("Zombie Mutant")) == 4


def test_two_doubling_seasons_quadruple() -> None:
    """Ruling 2024-08-07: "If there are two Doubling Seasons on the battlefield, then the number of
    tokens or counters is four times the original number.\""""
    game = Game(battlefield=[permanent("ds", DS), permanent("ds2", DS), permanent("bear", BEAR)])
    game.act({"type": "add_counters", "target": {"permanent": "bear"}, "kind": "+1/+1", "amount": 1})
    assert game.counters("bear") == {"+1/+1": 4}


def test_counters_on_your_permanents_doubled_not_opponents_nor_players() -> None:
    """ "If an effect would put one or more counters on a permanent you control, it puts twice that
    many of those counters on that permanent instead." Not an opponent's permanent, not a player."""
    game = Game(
        players=[{"id": "P1", "counters": {"rad": 1}}, {"id": "P2"}],
        battlefield=[permanent("ds", DS), permanent("bear", GIANT), permanent("obear", BEAR, "P2")],
    )
    game.act({"type": "add_counters", "target": {"permanent": "bear"}, "kind": "-1/-1", "amount": 1})
    game.act({"type": "add_counters", "target": {"permanent": "obear"}, "kind": "+1/+1", "amount": 1})
    game.act({"type": "add_counters", "target": {"player": "P1"}, "kind": "rad", "amount": 2})
    assert game.counters("bear") == {"-1/-1": 2}
    assert game.counters("obear") == {"+1/+1": 1}
    assert game.rad("P1") == 3


def test_proliferated_counters_doubled() -> None:
    """Proliferate is an effect putting counters (RULES.md: counter-placement replacements apply to
    proliferated counters): one +1/+1 counter becomes two."""
    game = Game(battlefield=[permanent("ds", DS), permanent("bear", BEAR, counters={"+1/+1": 1})])
    game.act({"type": "proliferate", "player": "P1", "choose": [{"permanent": "bear"}]})
    assert game.counters("bear") == {"+1/+1": 3}


def test_planeswalker_enters_with_double_loyalty_but_costs_not_doubled() -> None:
    """Ruling 2024-08-07: "Planeswalkers will enter the battlefield with double the normal number of
    loyalty counters. However, if you activate an ability whose cost has you put loyalty counters
    on a planeswalker, the number you put on isn't doubled.\""""
    game = Game(players=[{"id": "P1", "hand": ["Ajani Goldmane"]}, {"id": "P2"}], battlefield=[permanent("ds", DS)])
    game.cast("P1", "Ajani Goldmane")
    game.resolve()
    (ajani,) = game.on_battlefield("Ajani Goldmane")
    assert game.counters(ajani) == {"loyalty": 8}
    game.activate("P1", ajani, 0)
    assert game.counters(ajani) == {"loyalty": 9}


def test_saga_lore_counters_not_doubled() -> None:
    """A Saga's lore counters are put by rules, not effects (714.3a as it enters, 714.3c after the
    draw step): Doubling Season leaves them at one (WotC rules manager, see docs/rules.md)."""
    game = Game(
        turn={"number": 5, "active_player": "P1", "step": "draw"},
        players=[{"id": "P1", "library": ["Forest"]}, {"id": "P2"}],
        battlefield=[permanent("ds", DS)],
    )
    game.enter(VAULT)
    (vault,) = game.on_battlefield(VAULT)
    assert game.counters(vault) == {"lore": 1}
    game.resolve()
    game.advance("precombat_main")
    assert game.counters(vault) == {"lore": 2}
