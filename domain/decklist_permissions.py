"""Who may submit and who may read a decklist (issue 42), beside ``domain.permissions``' ladder.

A player's event link is a player token bound to ``_tournament/<id>`` whose player is the
tournament's player id (``domain.permissions.TOURNAMENT_BINDING``)."""

from __future__ import annotations

from domain.permissions import TOURNAMENT_BINDING, Grant, require_role


def own_event_link(grant: Grant, tournament_id: str, player: str) -> bool:
    """Whether ``grant`` is ``player``'s event link for ``tournament_id``."""
    return grant.role == "player" and grant.game_id == TOURNAMENT_BINDING + tournament_id and grant.player_id == player


def check_decklist_submitter(grant: Grant, tournament_id: str, player: str) -> None:
    """The player's own event link or a scorekeeper (and above); else ``403 forbidden``."""
    if not own_event_link(grant, tournament_id, player):
        require_role(grant, "scorekeeper")  # the 403 is decided in domain.permissions


def sees_decklist(grant: Grant, tournament_id: str, player: str, published: bool) -> bool:
    """Before publication a list is seen by its player, the scorekeeper and judges only."""
    return published or grant.at_least("scorekeeper") or own_event_link(grant, tournament_id, player)
