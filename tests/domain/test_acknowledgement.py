"""Which reports need an opponent's acknowledgement (domain.judging.acknowledgement; issue 14)."""

from __future__ import annotations

from domain.judging import acknowledgement
from tests.domain.helpers import BEARS, Game, perm, player


def _game() -> Game:
    return Game(
        {
            "variant": "two_player",
            "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
            "players": [player("P1", hand=[{"name": "Shock", "type_line": "Instant"}]), player("P2")],
            "battlefield": [perm("bears", BEARS, "P2", counters={"+1/+1": 1}), perm("mine", BEARS, "P1")],
        }
    )


def test_removing_counters_that_kill_an_opponents_creature_needs_its_controller() -> None:
    game = _game()
    before = game.state
    game.act("remove_counters", target={"permanent": "bears"}, kind="+1/+1", amount=1)
    game.act("damage", target={"permanent": "bears"}, amount=2)
    needed = acknowledgement(before, game.state, "P1")
    assert needed is not None
    assert needed.payload.players == ["P2"]  # type: ignore[attr-defined]
    assert "permanents bears" in needed.payload.summary  # type: ignore[attr-defined]


def test_changes_to_ones_own_side_need_nobody() -> None:
    game = _game()
    before = game.state
    game.act("add_counters", target={"permanent": "mine"}, kind="+1/+1", amount=2)
    game.act("gain_life", player="P1", amount=3)
    assert acknowledgement(before, game.state, "P1") is None


def test_countering_an_opponents_spell_needs_its_controller() -> None:
    game = _game()
    game.act("cast", player="P1", card={"name": "Shock", "type_line": "Instant"}, targets=[{"player": "P2"}])
    spell = game.state.stack[-1].id
    before = game.state
    game.act("counter", object=spell)
    # P1 countering P1's own spell: nobody else is affected.
    assert acknowledgement(before, game.state, "P1") is None
    # The same change reported by P2 (the spell is P1's): P1 must acknowledge it.
    needed = acknowledgement(before, game.state, "P2")
    assert needed is not None and needed.payload.players == ["P1"]  # type: ignore[attr-defined]
    assert "stack objects" in needed.payload.summary  # type: ignore[attr-defined]
