"""Hardened Scales, and ordering several counter-placement replacements (CR 616.1)."""

from domain import events as ev
from tests.cards.support import BEAR, Game, of_type, permanent

HS = "Hardened Scales"
DS = "Doubling Season"


def test_one_more_plus_one_counter_on_your_creature() -> None:
    """ "If one or more +1/+1 counters would be put on a creature you control, that many plus one
    +1/+1 counters are put on it instead." Not other kinds, not an opponent's creature."""
    game = Game(battlefield=[permanent("hs", HS), permanent("bear", BEAR), permanent("obear", BEAR, "P2")])
    game.act({"type": "add_counters", "target": {"permanent": "bear"}, "kind": "+1/+1", "amount": 2})
    game.act({"type": "add_counters", "target": {"permanent": "bear"}, "kind": "-1/-1", "amount": 1})
    game.act({"type": "add_counters", "target": {"permanent": "obear"}, "kind": "+1/+1", "amount": 1})
    assert game.state.battlefield["bear"].counters == {"+1/+1": 2}  # 3, then 704.5q removed one pair
    assert game.counters("obear") == {"+1/+1": 1}


def test_entering_with_counters() -> None:
    """Ruling 2014-09-20: "If a creature would enter the battlefield with a number of +1/+1
    counters on it while you control Hardened Scales, it enters with that many counters plus
    one." Feral Hydra with X = 2 enters with three."""
    game = Game(players=[{"id": "P1", "hand": ["Feral Hydra"]}, {"id": "P2"}], battlefield=[permanent("hs", HS)])
    game.cast("P1", "Feral Hydra", x=2)
    game.resolve()
    (hydra,) = game.on_battlefield("Feral Hydra")
    assert game.counters(hydra) == {"+1/+1": 3}


def test_with_doubling_season_default_order_gives_the_most() -> None:
    """CR 616.1: the affected creature's controller orders the two replacement effects. Without a
    stated order the server applies Hardened Scales first: 1 -> 2 -> 4 (not 1 -> 2 -> 3)."""
    game = Game(battlefield=[permanent("ds", DS), permanent("hs", HS), permanent("bear", BEAR)])
    game.act({"type": "add_counters", "target": {"permanent": "bear"}, "kind": "+1/+1", "amount": 1})
    assert game.counters("bear") == {"+1/+1": 4}


def test_explicit_order_choice() -> None:
    """CR 616.1e-f: the controller may choose Doubling Season first: 1 -> 2 -> 3. The choice is
    ``replacement_order`` (source ids, first applied first) on the action or resolve choices."""
    game = Game(battlefield=[permanent("ds", DS), permanent("hs", HS), permanent("bear", BEAR)])
    game.act(
        {
            "type": "add_counters",
            "target": {"permanent": "bear"},
            "kind": "+1/+1",
            "amount": 1,
            "replacement_order": ["ds", "hs"],
        }
    )
    assert game.counters("bear") == {"+1/+1": 3}
    game.act({"type": "proliferate", "player": "P1", "choose": [{"permanent": "bear"}], "replacement_order": ["ds"]})
    assert game.counters("bear") == {"+1/+1": 6}  # DS then HS: 1 -> 2 -> 3


def test_order_choice_on_resolve_and_enter() -> None:
    """The order can be stated where the counters are put: on ``resolve`` (choices) and on
    ``enter`` (a creature entering with counters, 614.1c)."""
    game = Game(
        battlefield=[
            permanent("ds", DS),
            permanent("hs", HS),
            permanent("hydra", "Feral Hydra", counters={"+1/+1": 1}),
        ],
    )
    game.activate("P1", "hydra")
    events = game.resolve(replacement_order=["ds", "hs"])
    assert of_type(events, ev.CountersAdded.TYPE)[0].data["amount"] == 3
    game.enter("Feral Hydra", x=1, replacement_order=["ds", "hs"])
    (new,) = [p for p in game.on_battlefield("Feral Hydra") if p != "hydra"]
    assert game.counters(new) == {"+1/+1": 3}
