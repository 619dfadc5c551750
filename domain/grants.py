"""The values ``domain.permissions`` decides on: the role ladder, a token's ``Grant`` and the
facts of a player's quick undo (``QuickUndo``). Plain values, no decision: every 403 is
``domain.permissions``'s (``tests/api/test_one_facade.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from domain.seats import Seat

Role = Literal["spectator", "player", "scorekeeper", "judge", "head_judge", "admin"]
ROLES: tuple[Role, ...] = ("spectator", "player", "scorekeeper", "judge", "head_judge", "admin")
"""The roles, least powerful first."""
RANK: dict[str, int] = {role: i for i, role in enumerate(ROLES)}


@dataclass(frozen=True, slots=True)
class Grant:
    """What a caller's token grants: its name and role and, for a player token, its game and player."""

    name: str
    """The token's name (what events record as their actor's name)."""
    role: Role
    """Its place on the ladder (``ROLES``)."""
    game_id: str | None = None
    """The game a player token is bound to (``None`` for the other roles)."""
    player_id: str | None = None
    """The player a player token acts as (``None`` for the other roles)."""
    token_id: str | None = None
    """The stored token's public id: who recorded an action (``None``: the environment's admin token)."""
    seat: Seat | None = None
    """An event link's seat in the game the request names, as the ledger looked it up
    (``LedgerService.seated``); ``None``: not seated there (or not an event link)."""

    def at_least(self, role: Role) -> bool:
        """Whether the grant's role is ``role`` or above on the ladder."""
        return RANK[self.role] >= RANK[role]


@dataclass(frozen=True, slots=True)
class QuickUndo:
    """What a player token's undo would take back (``domain.undo.quick_undo_facts``)."""

    single: bool
    """Whether the undo asks for one action only (``{"actions": 1}``)."""
    first: int
    last: int
    """The versions of the action it would take back."""
    actor: tuple[str, str] | None
    """Who recorded that action: (token name, role), for the message."""
    reporters: frozenset[str]
    """The players whose reports the action holds (``ReportAwaitingAcknowledgement``)."""
    head: int
    age: timedelta | None
    """How long ago the action was recorded (``None``: unknown)."""
    window: timedelta
    """How long a player may take its own action back."""
    actor_token: str | None = None
    """The recording token's public id (``None``: a record from before ids were recorded)."""
