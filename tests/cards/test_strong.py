"""Strong, the Brutish Thespian: enrage, and gaining life rather than losing it from radiation."""

from domain import events as ev
from tests.cards.support import BEAR, BOLT, FOREST, Game, of_type, permanent

STRONG = "Strong, the Brutish Thespian"


def test_enrage_three_rad_and_three_counters() -> None:
    """ "Enrage — Whenever Strong is dealt damage, you get three rad counters and put three +1/+1
    counters on Strong." Any damage (here 2, not combat) triggers it once."""
    game = Game(battlefield=[permanent("strong", STRONG)])
    game.damage({"permanent": "strong"}, 2, source="Shock")
    game.resolve()
    assert game.rad("P1") == 3
    assert game.counters("strong") == {"+1/+1": 3}
    assert game.perm("strong")["damage"] == 2


def test_enrage_when_strong_died_still_gives_rad() -> None:
    """Enrage when the damage was lethal: the trigger resolves, P1 gets three rad counters, and
    the +1/+1 counters have nowhere to go (CR 608.2h / 400.7)."""
    game = Game(battlefield=[permanent("strong", STRONG)])
    game.damage({"permanent": "strong"}, 7, source="Hill Giant")
    assert game.on_battlefield(STRONG) == []
    game.resolve()
    assert game.rad("P1") == 3


def test_gain_life_rather_than_lose_life_from_radiation() -> None:
    """ "You gain life rather than lose life from radiation." (CR 728.1a) The rad trigger's life
    loss becomes a gain; the rad counters are still removed."""
    game = Game(
        turn={"number": 3, "active_player": "P1", "step": "draw"},
        players=[{"id": "P1", "counters": {"rad": 3}, "library": [BOLT, FOREST, BEAR]}, {"id": "P2"}],
        battlefield=[permanent("strong", STRONG)],
    )
    game.advance("precombat_main")
    events = game.resolve()
    assert game.life("P1") == 22
    assert game.rad("P1") == 1
    assert of_type(events, ev.LifeLost.TYPE) == []
    assert of_type(events, ev.LifeGained.TYPE)[0].rule == "CR 728.1a"


def test_only_its_controllers_radiation() -> None:
    """ "You gain life rather than lose life from radiation" — "you": the opponent's radiation
    life loss is unchanged; ordinary life loss is not from radiation either."""
    game = Game(
        turn={"number": 3, "active_player": "P2", "step": "draw"},
        players=[{"id": "P1"}, {"id": "P2", "counters": {"rad": 1}, "library": [BOLT]}],
        battlefield=[permanent("strong", STRONG)],
    )
    game.advance("precombat_main")
    game.resolve()
    assert game.life("P2") == 19
    game.act({"type": "lose_life", "player": "P1", "amount": 2})
    assert game.life("P1") == 18
