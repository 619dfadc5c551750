"""Which reports need an opponent's acknowledgement (``domain.judging.acknowledgement``; issue 14,
issue 30 bug 2): a player token's own report that changes an opponent's side, named by name."""

from __future__ import annotations

from typing import Any

from domain.commands import parse_command
from domain.decide import run_as
from domain.events import Event
from domain.judging import acknowledgement, reported
from domain.permissions import Grant
from tests.domain.helpers import BEARS, CATALOG, Game, perm, player, two_headed_giant


def _game() -> Game:
    return Game(
        {
            "variant": "two_player",
            "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
            "players": [
                player("P1", name="Alice", hand=[{"name": "Shock", "type_line": "Instant"}]),
                player("P2", name="Bob"),
            ],
            "battlefield": [perm("bears", BEARS, "P2", counters={"+1/+1": 1}), perm("mine", BEARS, "P1")],
        }
    )


def _as(game: Game, pid: str, type_: str, **fields: Any) -> list[Event]:
    """One action by ``pid``'s player token, as the ledger runs it (``run_as``)."""
    grant = Grant(f"{pid}'s link", "player", "g1", pid)
    events, game.state = run_as(grant, game.state, parse_command({"type": type_, **fields}, CATALOG.resolve))
    game.events.extend(events)
    return events


def _report(events: list[Event]) -> Any:
    found = [e.payload for e in events if e.type == "ReportAwaitingAcknowledgement"]
    return found[0] if found else None


def test_damage_that_kills_an_opponents_creature_needs_its_controller_named_by_name() -> None:
    game = _game()
    _as(game, "P1", "remove_counters", target={"permanent": "bears"}, kind="+1/+1", amount=1)
    needed = _report(_as(game, "P1", "damage", target={"permanent": "bears"}, amount=2))
    assert needed is not None and needed.players == ["P2"]
    # Names, not ids: "Bob" for P2, the card's name for the permanent (the damage marked on it
    # is the report; its dying is the state-based action that follows, CR 704.5g).
    assert needed.summary == "Bob: permanents Grizzly Bears"


def test_changes_to_ones_own_side_need_nobody() -> None:
    game = _game()
    before = game.state
    events = [
        *_as(game, "P1", "add_counters", target={"permanent": "mine"}, kind="+1/+1", amount=2),
        *_as(game, "P1", "gain_life", player="P1", amount=3),
    ]
    assert _report(events) is None
    assert acknowledgement(before, events, game.state, "P1") is None


def test_countering_an_opponents_spell_needs_its_controller() -> None:
    game = _game()
    _as(game, "P1", "cast", player="P1", card={"name": "Shock", "type_line": "Instant"}, targets=[{"player": "P2"}])
    spell = game.state.stack[-1].id
    before = game.state
    events = _as(game, "P1", "counter", object=spell)
    # P1 countering P1's own spell: nobody else is affected.
    assert _report(events) is None
    # The same change reported by P2 (the spell is P1's): P1 must acknowledge it, named by the spell's card.
    needed = acknowledgement(before, events, game.state, "P2")
    assert needed is not None and needed.payload.players == ["P1"]  # type: ignore[attr-defined]
    assert needed.payload.summary == "Alice: stack objects Shock"  # type: ignore[attr-defined]


def test_a_player_without_a_name_of_their_own_is_named_by_id() -> None:
    game = Game(
        {
            "variant": "two_player",
            "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
            "players": [player("P1"), player("P2")],
        }
    )
    needed = _report(_as(game, "P1", "add_counters", target={"player": "P2"}, kind="poison", amount=2))
    assert needed.summary == "P2: poison counters 0 -> 2"  # the id is P2's only name


def test_several_permanents_of_one_name_are_counted() -> None:
    game = Game(
        {
            "variant": "two_player",
            "turn": {"number": 3, "active_player": "P1", "step": "precombat_main"},
            "players": [player("P1", name="Alice"), player("P2", name="Bob")],
            "battlefield": [perm("b1", BEARS, "P2"), perm("b2", BEARS, "P2"), perm("t", "Throne of Geth", "P2")],
        }
    )
    choose = [{"permanent": p} for p in ("b1", "b2", "t")]
    for p in ("b1", "b2", "t"):
        _as(game, "P1", "add_counters", target={"permanent": p}, kind="+1/+1", amount=1)
    needed = _report(_as(game, "P1", "proliferate", player="P1", choose=choose))
    assert needed.summary == "Bob: permanents Grizzly Bears (2), Throne of Geth"


def test_the_report_part_of_an_action_ends_where_the_server_takes_over() -> None:
    """An advance is turn-based actions from its first event (CR 500.1): it reports nothing."""
    game = _game()
    events = game.advance()
    assert events and reported(events) == []


def test_in_two_headed_giant_a_teammate_is_not_an_opponent() -> None:
    """One's own life loss is the team's (CR 810.9) and changes the teammate's total: no wait for
    them (CR 102.3: teammates are not opponents); damage to the other team waits for both of its
    players, whose life it is."""
    game = two_headed_giant()
    grant = Grant("A1's link", "player", "g1", "A1")

    def report(type_: str, **fields: Any) -> Any:
        events, game.state = run_as(grant, game.state, parse_command({"type": type_, **fields}, CATALOG.resolve))
        return _report(events)

    assert report("lose_life", player="A1", amount=2) is None
    damage = report("damage", target={"player": "B1"}, amount=3, source="Lightning Bolt")
    assert damage.players == ["B1", "B2"]
