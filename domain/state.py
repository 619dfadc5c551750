"""Immutable game-state values.

``GameState`` is what the fold of a game's events gives. Every value is frozen; mappings are
never mutated after construction (a change builds a new mapping), so an old state stays valid
for replay and for undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.game_objects import EMPTY_POOL, MANA_TYPES, PendingGroup, Permanent, Player, Result, StackObject, Team, Turn
from domain.values import Counts, forget_object, object_memory, replace, with_count

Variant = Literal["two_player", "multiplayer", "two_headed_giant", "archenemy", "commander"]
VARIANTS: tuple[Variant, ...] = ("two_player", "multiplayer", "two_headed_giant", "archenemy", "commander")
TEAM_VARIANTS = frozenset({"two_headed_giant", "archenemy"})

#: Steps in turn order (CR 500.1); the two main phases have no steps and count as one here.
STEPS: tuple[str, ...] = (
    "untap",
    "upkeep",
    "draw",
    "precombat_main",
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "combat_damage",
    "end_of_combat",
    "postcombat_main",
    "end",
    "cleanup",
)
#: The current Comprehensive Rules edition this server implements (effective date).
CURRENT_EDITION = "2026-04-17"
#: War of the Spark's release: proliferate gives one counter of each kind from here on.
PROLIFERATE_EACH_KIND_SINCE = "2019-05-03"


@dataclass(frozen=True, slots=True)
class Judging:
    """The judge records of a game (``domain.events.judging``): never reverted by a backup, so a
    revert's restored state keeps the head's (``domain.judging.with_judging``). Each record is
    its event's JSON data."""

    calls: tuple[Mapping[str, Any], ...] = ()
    """Judge calls, oldest first, each with ``open`` and, once answered, ``ruling``."""
    penalties: tuple[Mapping[str, Any], ...] = ()
    time_extensions: tuple[Mapping[str, Any], ...] = ()
    deck_checks: tuple[Mapping[str, Any], ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.calls or self.penalties or self.time_extensions or self.deck_checks)


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole state of one game at one version."""

    game_id: str
    variant: Variant
    rules_edition: str
    tournament: Mapping[str, Any] | None
    players: Mapping[str, Player]
    """Players in seating (and turn) order."""
    teams: Mapping[str, Team]
    battlefield: Mapping[str, Permanent]
    turn: Turn
    stack: tuple[StackObject, ...] = ()
    """Bottom first; the last object is the top."""
    pending: tuple[PendingGroup, ...] = ()
    """Trigger groups waiting for an order, in APNAP order; the first one is asked now."""
    status: Literal["in_progress", "finished"] = "in_progress"
    result: Result | None = None
    next_seq: int = 1
    """Next number for server-chosen object ids (stack objects, tokens)."""
    judging: Judging = Judging()
    """Judge calls, penalties, time extensions and deck checks (never reverted, IPG 1.4)."""
    reports: tuple[Mapping[str, Any], ...] = ()
    """Players' reports still unacknowledged by an affected player (``domain.judging``)."""
    turn_memory: frozenset[str] = frozenset()
    """What happened this turn that "only once each turn" abilities ask about; emptied as each
    turn begins. Keys about one object are ``object_memory`` keys, forgotten when it leaves."""
    monarch: str | None = None
    """The player who is the monarch (CR 725), if any."""
    initiative: str | None = None
    """The player who has the initiative (CR 726), if any."""
    day_night: Literal["day", "night"] | None = None
    """``day`` or ``night`` once the game has one of them (CR 731.1), else ``None``."""
    spells_last_turn: Counts = field(default_factory=dict)
    """Spells each active player of the previous turn cast during it (CR 731.2)."""
    first_player: Mapping[str, str] | None = None
    """``{player, method}`` once the player who takes the first turn was chosen (CR 103.1), else
    ``None`` (the body's ``turn.active_player``, or the first player seated, goes first)."""

    # -- small read helpers used across the rules ------------------------------------------
    @property
    def shares_life(self) -> bool:
        """Two-Headed Giant: one life total and one poison count per team (CR 810.9, 810.10)."""
        return self.variant == "two_headed_giant"

    @property
    def shared_turns(self) -> bool:
        """Team variants take shared team turns (CR 805.4)."""
        return self.variant in TEAM_VARIANTS

    def player(self, player_id: str) -> Player:
        return self.players[player_id]

    def commander_key(self, perm: Permanent) -> str | None:
        """``OWNER:Name`` when ``perm`` is a commander (its owner's commander card, CR 903.3;
        a token copy is not), else ``None``: the key of ``Player.commander_damage``."""
        owner = self.players.get(perm.owner)
        if perm.token or owner is None or perm.card.name not in owner.commanders:
            return None
        return f"{perm.owner}:{perm.card.name}"

    def in_game(self) -> list[Player]:
        """Players who have not lost or left, in turn order."""
        return [p for p in self.players.values() if not p.lost]

    def life_of(self, player_id: str) -> int:
        """The life total rules read for a player (the team's in Two-Headed Giant)."""
        player = self.players[player_id]
        if self.shares_life and player.team is not None:
            team_life = self.teams[player.team].life
            if team_life is not None:
                return team_life
        return player.life

    def counters_of_player(self, player_id: str) -> dict[str, int]:
        """Counters a player has, including shared team counters (CR 810.10d)."""
        player = self.players[player_id]
        counts = dict(player.counters)
        if self.shares_life and player.team is not None:
            for kind, n in self.teams[player.team].counters.items():
                counts[kind] = counts.get(kind, 0) + n
        return counts

    def active_players(self) -> list[str]:
        """The active player, or every player of the active team in shared team turns."""
        if self.turn.active_team is not None:
            return [pid for pid in self.teams[self.turn.active_team].players if not self.players[pid].lost]
        if self.players[self.turn.active_player].lost:
            return []  # 800.4j: the turn of a player who left goes on without an active player
        return [self.turn.active_player]

    def apnap_sides(self) -> list[str]:
        """Sides in APNAP order (CR 101.4): players, or teams in shared team turns (805.7)."""
        if self.shared_turns:
            order = list(self.teams)
            start = order.index(self.turn.active_team) if self.turn.active_team in order else 0
            return order[start:] + order[:start]
        order = list(self.players)
        start = order.index(self.turn.active_player)
        return order[start:] + order[:start]

    def side_of(self, player_id: str) -> str:
        """The side a player's triggers are grouped under when ordering (805.7)."""
        team = self.players[player_id].team
        return team if self.shared_turns and team is not None else player_id

    @property
    def in_opening(self) -> bool:
        """Before the game's first turn-based action (CR 103): turn 1, still in the untap step the
        game was created in (the first ``advance`` begins the upkeep). Mulligans (103.5) and the
        choice of the first player (103.1) happen here."""
        return self.status == "in_progress" and self.turn.number == 1 and self.turn.step == "untap"

    @property
    def began_multiplayer(self) -> bool:
        """A multiplayer game is one that begins with more than two players (CR 100.1b); players
        who left are still seated in ``players``."""
        return len(self.players) > 2

    @property
    def edition_before_war(self) -> bool:
        """Pinned to an edition before War of the Spark: proliferate chooses one kind."""
        return self.rules_edition < PROLIFERATE_EACH_KIND_SINCE


__all__ = [
    "CURRENT_EDITION",
    "EMPTY_POOL",
    "MANA_TYPES",
    "PROLIFERATE_EACH_KIND_SINCE",
    "STEPS",
    "TEAM_VARIANTS",
    "VARIANTS",
    "Counts",
    "GameState",
    "PendingGroup",
    "Permanent",
    "Player",
    "Result",
    "StackObject",
    "Team",
    "Turn",
    "Variant",
    "forget_object",
    "object_memory",
    "replace",
    "with_count",
]
