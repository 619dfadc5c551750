"""Who may report, confirm or dispute a match result (issue 38): a player token of the event
acting as its own player. The player's event link is bound to ``_tournament/<id>``
(``domain.permissions.TOURNAMENT_BINDING``); a per-game link of one of the match's own games
(``<id>.r<round>.t<table>.g<n>``) is that player's too. Whether the player plays at the table
(``403 not_your_match``) and hasn't dropped (``403 report_by_dropped_player``) is checked on the
state the kernel decides on (``check_reporter``, called by ``domain.tournament.decide_reports``).

Staff (a scorekeeper, a judge) enter or correct the result instead (``403 forbidden`` here). Like
``domain.permissions`` (which holds the game seats' rules), this module decides 403s: the two
are the only places that do (``tests/api/test_one_facade.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import Code, Forbidden
from domain.permissions import TOURNAMENT_BINDING, Grant


def reporting_player(grant: Grant, tournament_id: str, round: int | None = None, table: int | None = None) -> str:
    """The player a token reports (confirms, disputes) as: ``403 forbidden`` for staff and
    spectators, ``403 wrong_game`` for a player token of another event or another match."""
    if grant.role != "player" or grant.player_id is None:
        raise Forbidden(
            "players report their own match from their event link; the scorekeeper enters the result "
            "(POST /v1/tournaments/{id}/rounds/{n}/tables/{t}/result)",
            Code.FORBIDDEN,
        )
    bound = grant.game_id or ""
    if bound == f"{TOURNAMENT_BINDING}{tournament_id}":
        return grant.player_id
    if round is not None and table is not None and bound.startswith(f"{tournament_id}.r{round}.t{table}.g"):
        return grant.player_id
    raise Forbidden(f"this player token is bound to {bound!r}, not to event {tournament_id!r}", Code.WRONG_GAME)


def may_read_report(grant: Grant, tournament_id: str, round: int, table: int) -> str | None:
    """Who reads a match's report form: staff (``None``: no player's view) or a player of the
    event (its player id; the form of another table is ``403 not_your_match`` by the caller)."""
    if grant.at_least("scorekeeper"):
        return None
    return reporting_player(grant, tournament_id, round, table)


def plays_in(player: str, players: Sequence[str], where: str) -> None:
    """``403 not_your_match`` unless ``player`` plays at the table ``where``."""
    if player not in players:
        raise Forbidden(f"player {player!r} does not play at {where} ({list(players)})", Code.NOT_YOUR_MATCH)


def check_reporter(player: str, players: Sequence[str], dropped_after: int | None, where: str) -> None:
    """A player reports (confirms, disputes) only their own match, and only while in the event:
    a dropped player's link reports nothing (the scorekeeper enters that result)."""
    plays_in(player, players, where)
    if dropped_after is not None:
        raise Forbidden(
            f"player {player!r} dropped after round {dropped_after}: the scorekeeper enters this result",
            Code.REPORT_BY_DROPPED_PLAYER,
        )
