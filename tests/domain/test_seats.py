"""Issue 38: an event link's rights in a game are decided by its seat there, in one pure place
(``domain.permissions.seat_refusal``), from the seat the tournament's state gives
(``domain.tournament.seats.seat_of``): only a game of the event at the player's own table, and
nothing once the player has dropped."""

from __future__ import annotations

import dataclasses

import pytest

from domain.commands import ChangeLife
from domain.errors import Forbidden
from domain.permissions import Grant, check_command, check_game, event_player, in_game
from domain.tournament.seats import seat_of
from domain.tournament.state import PlayerEntry, Round, Table, TournamentState

PLAYERS = {k: PlayerEntry(k, k.upper(), None, i) for i, k in enumerate(("p1", "p2", "p3", "p4"))}
STATE = TournamentState(
    players=PLAYERS,
    rounds=(Round(1, "swiss", (Table(1, ("p1", "p2")), Table(2, ("p3", "p4")))),),
)
LINK = Grant("E p1", "player", "_tournament/E", "p1", token_id="0123456789abcdef")


def _seated(game_id: str, state: TournamentState = STATE) -> Grant:
    return dataclasses.replace(LINK, seat=seat_of("E", state, "p1", game_id))


def test_a_seat_only_at_the_players_own_table_of_the_event() -> None:
    assert seat_of("E", STATE, "p1", "E.r1.t1.g2") is not None
    for game in ("E.r1.t2.g1", "E.x", "E.r1.t1.g01", "E.r01.t1.g1", "E.r2.t1.g1", "E.r1.t1.g6", "F.r1.t1.g1"):
        assert seat_of("E", STATE, "p1", game) is None, game


def test_the_check_refuses_without_a_seat_for_that_game() -> None:
    check_game(_seated("E.r1.t1.g1"), "E.r1.t1.g1")
    assert not in_game(LINK, "E.r1.t1.g1")  # no seat looked up: nowhere
    assert not in_game(_seated("E.r1.t1.g1"), "E.r1.t1.g2")  # a seat for another game
    with pytest.raises(Forbidden) as refused:
        check_game(_seated("E.r1.t2.g1"), "E.r1.t2.g1")
    assert refused.value.code == "wrong_game"


def test_a_dropped_player_acts_nowhere_but_reads_their_own_view() -> None:
    dropped = dataclasses.replace(STATE, players={**PLAYERS, "p1": dataclasses.replace(PLAYERS["p1"], dropped_after=1)})
    with pytest.raises(Forbidden) as refused:
        check_command(_seated("E.r1.t1.g1", dropped), "E.r1.t1.g1", ChangeLife("lose", "p1", 1))
    assert refused.value.code == "player_dropped"
    assert event_player(LINK, "E") == "p1"
    with pytest.raises(Forbidden) as other:
        event_player(LINK, "F")
    assert other.value.code == "wrong_game"
