"""The cross-check of a game's record against the registered lists (issue 42,
``domain/tournament/decklists_crosscheck.py``): which events name whose cards, the sideboard from
game 2 on (MTR 2.x: sideboarding between games), tokens never, each card once per game at the
first version that showed it."""

from __future__ import annotations

from domain.tournament.decklists_crosscheck import cards_named, check_event, game_number
from domain.tournament.decklists_state import Decklist
from domain.tournament.decklists_text import Entry

REGISTERED = Decklist(
    player="p1",
    main=(Entry(4, "Lightning Bolt"), Entry(56, "Mountain")),
    sideboard=(Entry(2, "Duress"),),
    commander=(),
    at="2026-12-06T10:00:00+00:00",
    by="p1",
    version=3,
)
LIST = REGISTERED.names(with_sideboard=False)
WITH_SIDEBOARD = REGISTERED.names(with_sideboard=True)


def _cast(player: str, name: str) -> dict[str, object]:
    return {"player": player, "object": {"kind": "spell", "card": {"name": name}}, "from": "hand", "seq": 3}


def test_the_events_that_name_a_players_cards() -> None:
    assert [(n.player, n.name, n.what) for n in cards_named("SpellCast", _cast("p1", "Duress"))] == [
        ("p1", "Duress", "cast")
    ]
    entered = {"permanent": {"card": {"name": "Goblin Guide"}, "owner": "p2", "token": False}}
    assert [n.player for n in cards_named("PermanentEntered", entered)] == ["p2"]
    token = {"permanent": {"card": {"name": "Goblin"}, "owner": "p2", "token": True}}
    assert cards_named("PermanentEntered", token) == []  # a token is on no list
    milled = {"player": "p1", "cards": [{"name": "Duress"}, {"name": "Mountain"}]}
    assert [n.name for n in cards_named("CardsMilled", milled)] == ["Duress", "Mountain"]
    assert cards_named("LifeLost", {"player": "p1", "amount": 3}) == []


def test_the_sideboard_counts_from_game_2_and_each_card_is_reported_once() -> None:
    assert game_number("E.r1.t2.g1") == 1 and game_number("E.r1.t2.g3") == 3
    assert sorted(LIST) == ["lightning bolt", "mountain"]
    assert sorted(WITH_SIDEBOARD) == ["duress", "lightning bolt", "mountain"]
    seen: set[tuple[str, str]] = set()
    found = check_event("E.r1.t1.g1", 7, "SpellCast", _cast("p1", "Duress"), {"p1": LIST}, seen)
    assert [(m.version, m.card, m.what) for m in found] == [(7, "Duress", "cast")]
    assert check_event("E.r1.t1.g1", 9, "SpellCast", _cast("p1", "Duress"), {"p1": LIST}, seen) == []
    game2: set[tuple[str, str]] = set()
    assert check_event("E.r1.t1.g2", 4, "SpellCast", _cast("p1", "Duress"), {"p1": WITH_SIDEBOARD}, game2) == []
    # A player with no registered list is not checked.
    assert check_event("E.r1.t1.g1", 5, "SpellCast", _cast("p2", "Duress"), {"p1": LIST}, set()) == []
