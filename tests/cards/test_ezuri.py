"""Ezuri, Stalker of Spheres: "you may pay {3}. If you do, proliferate twice" and "whenever you
proliferate, draw a card"."""

from domain import events as ev
from tests.cards.support import Game, of_type, permanent

EZURI = "Ezuri, Stalker of Spheres"
HYDRA = {"name": "Feral Hydra"}


def _game() -> Game:
    return Game(
        players=[
            {"id": "P1", "hand": [EZURI], "library": ["Forest", "Island", "Swamp"]},
            {"id": "P2", "counters": {"poison": 1}},
        ],
        battlefield=[permanent("hydra", HYDRA, counters={"+1/+1": 1})],
    )


def test_pay_and_proliferate_twice_with_separate_choices() -> None:
    """ "When Ezuri enters, you may pay {3}. If you do, proliferate twice." Each proliferate has its
    own choices (``proliferate: [[...], [...]]``)."""
    game = _game()
    game.cast("P1", EZURI)
    game.resolve()
    assert game.top()["needs"] == ["may"]
    events = game.resolve(may=True, proliferate=[[{"permanent": "hydra"}], [{"player": "P2"}]])
    assert len(of_type(events, ev.Proliferated.TYPE)) == 2
    assert game.counters("hydra") == {"+1/+1": 2}
    assert game.player("P2")["counters"] == {"poison": 2}


def test_whenever_you_proliferate_draw() -> None:
    """ "Whenever you proliferate, draw a card." Two proliferates, two draws (the identical triggers
    go on the stack without asking for an order); it triggers even with nothing chosen (701.34a)."""
    game = _game()
    game.cast("P1", EZURI)
    game.resolve()
    game.resolve(may=True, proliferate=[])
    assert len(game.stack()) == 2
    game.resolve_all()
    assert game.player("P1")["hand_size"] == 2


def test_declined_no_proliferate() -> None:
    """ "you may pay {3}" — not paying: no proliferate, no draw."""
    game = _game()
    game.cast("P1", EZURI)
    game.resolve()
    events = game.resolve(may=False)
    assert of_type(events, ev.Proliferated.TYPE) == []
    assert game.stack() == []


def test_opponents_proliferate_doesnt_draw() -> None:
    """ "Whenever you proliferate" — an opponent's proliferate doesn't trigger it."""
    game = Game(battlefield=[permanent("ezuri", EZURI)])
    game.act({"type": "proliferate", "player": "P2", "choose": []})
    assert game.stack() == []
    game.act({"type": "proliferate", "player": "P1", "choose": []})
    assert len(game.stack()) == 1
