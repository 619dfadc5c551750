"""Ichorclaw Myr: infect from damage reported with the Myr as source."""

from domain import events as ev
from tests.cards.support import BEAR, Game, of_type, permanent


def test_infect_damage_to_a_player_gives_poison() -> None:
    """ "Infect (This creature deals damage to creatures in the form of -1/-1 counters and to
    players in the form of poison counters.)" CR 702.90b: damage from a source with infect to a
    player gives that many poison counters, not life loss; the source is named by permanent id."""
    game = Game(battlefield=[permanent("myr", "Ichorclaw Myr")])
    events = game.damage({"player": "P2"}, 1, source="myr", combat=True)
    assert game.player("P2")["counters"] == {"poison": 1}
    assert game.life("P2") == 20
    assert of_type(events, ev.DamageDealt.TYPE)[0].data["infect"] is True


def test_infect_damage_to_a_creature_gives_minus_counters() -> None:
    """Infect: damage to a creature is -1/-1 counters (CR 702.90c, 120.3d), not marked damage."""
    game = Game(battlefield=[permanent("myr", "Ichorclaw Myr"), permanent("bear", BEAR, "P2")])
    game.damage({"permanent": "bear"}, 1, source="myr")
    assert game.counters("bear") == {"-1/-1": 1}
    assert game.perm("bear")["damage"] == 0


def test_becomes_blocked_is_not_tracked() -> None:
    """ "Whenever this creature becomes blocked, it gets +2/+2 until end of turn." The server has
    no blocks; an attack alone triggers nothing for the Myr (reported by hand)."""
    game = Game(battlefield=[permanent("myr", "Ichorclaw Myr")])
    game.advance("declare_attackers")
    game.act({"type": "attack", "player": "P1", "attackers": [{"permanent": "myr", "attacks": {"player": "P2"}}]})
    assert game.stack() == []
    assert game.perm("myr")["tapped"] is True
