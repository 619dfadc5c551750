"""The tournament part of the one facade: ``LedgerService`` inherits these methods, so the API
and tools call them as the facade's own (``tests/api/test_one_facade.py``), while the service's
module stays about games. Each is one call of ``ledger.tournament_service.TournamentService``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from domain.tournament import CreateEvent
from ledger.tokens import TokenRegistry
from ledger.tournament_service import TOURNAMENT_GRANT, CreateGame, GameRead, RoundMatches, TournamentService
from ledger.tournaments import TournamentLog
from store.application import LedgerApplication
from store.results import Actor, VerifyReport


class TournamentFacade:
    """Tournaments: events, roster, pairings with their games, results, the clock, the reads."""

    tokens: TokenRegistry
    tournament_service: TournamentService

    def open_tournaments(
        self,
        app: LedgerApplication,
        clock: Callable[[], datetime],
        now: Callable[[], str],
        create_game: CreateGame,
        matches: RoundMatches,
        game_read: GameRead,
    ) -> None:
        """Called once by ``LedgerService.__init__``: the tournaments live in the home partition."""
        self.tournament_service = TournamentService(TournamentLog(app, now), clock, create_game, matches, game_read)

    # -- writes ------------------------------------------------------------------------------
    def create_tournament(self, tournament_id: str, command: CreateEvent, actor: Actor) -> dict[str, Any]:
        """Announce a tournament (``409 tournament_already_created`` if the id is taken)."""
        return self.tournament_service.create(tournament_id, command, actor)

    def register_player(self, tournament_id: str, name: str, wizards_id: str | None, actor: Actor) -> dict[str, Any]:
        """Register a player (a late entry once round 1 is paired); their ``player_id``."""
        return self.tournament_service.register(tournament_id, name, wizards_id, actor)

    def register_players_csv(self, tournament_id: str, text: str, actor: Actor) -> dict[str, Any]:
        """Register every row of a roster file in one atomic save."""
        return self.tournament_service.register_csv(tournament_id, text, actor)

    def drop_player(self, tournament_id: str, player: str, reason: str, actor: Actor) -> dict[str, Any]:
        return self.tournament_service.drop(tournament_id, player, reason, actor)

    def mark_no_show(self, tournament_id: str, player: str, actor: Actor) -> dict[str, Any]:
        return self.tournament_service.no_show(tournament_id, player, actor)

    def pair_round(self, tournament_id: str, seed: int | None, actor: Actor) -> dict[str, Any]:
        """Pair the next Swiss round (seed from ``secrets`` unless given) and create its games."""
        return self.tournament_service.pair_round(tournament_id, seed, actor)

    def pair_top_cut(self, tournament_id: str, actor: Actor) -> dict[str, Any]:
        return self.tournament_service.pair_top_cut(tournament_id, actor)

    def report_tournament_result(
        self, tournament_id: str, round: int, table: int, wins: Mapping[str, int], draws: int, actor: Actor
    ) -> dict[str, Any]:
        return self.tournament_service.report(tournament_id, round, table, wins, draws, actor)

    def correct_tournament_result(
        self,
        tournament_id: str,
        round: int,
        table: int,
        wins: Mapping[str, int],
        draws: int,
        reason: str,
        actor: Actor,
    ) -> dict[str, Any]:
        return self.tournament_service.correct(tournament_id, round, table, wins, draws, reason, actor)

    def tournament_intentional_draw(self, tournament_id: str, round: int, table: int, actor: Actor) -> dict[str, Any]:
        return self.tournament_service.intentional_draw(tournament_id, round, table, actor)

    def next_tournament_game(self, tournament_id: str, round: int, table: int, actor: Actor) -> dict[str, Any]:
        """Create the match's next game (refused once the match is over or while a game is on)."""
        return self.tournament_service.next_game(tournament_id, round, table, actor)

    def feature_table(self, tournament_id: str, round: int, table: int, featured: bool, actor: Actor) -> dict[str, Any]:
        """Mark (or unmark) a table as featured: a ``TableFeatured`` event."""
        return self.tournament_service.feature(tournament_id, round, table, featured, actor)

    def round_clock(self, tournament_id: str, round: int, action: str, actor: Actor) -> dict[str, Any]:
        """Start, pause, resume or end the round's clock at the ledger clock's time."""
        return self.tournament_service.clock(tournament_id, round, action, actor)

    def tournament_player_link(self, tournament_id: str, player: str, actor: Actor) -> dict[str, Any]:
        """One player token for the whole event: it acts as ``player`` in every game of it."""
        entry = self.tournament_service.player(tournament_id, player)
        secret = self.tokens.create(
            f"{tournament_id} {entry['name']}", "player", f"{TOURNAMENT_GRANT}{tournament_id}", player
        )
        return {
            "url": f"/tournaments/{tournament_id}/public#token={secret}",
            "token": secret,
            "player_id": player,
            "name": entry["name"],
        }

    # -- reads -------------------------------------------------------------------------------
    def list_tournaments(self) -> list[dict[str, Any]]:
        return self.tournament_service.summaries()

    def tournament(self, tournament_id: str) -> dict[str, Any]:
        return self.tournament_service.view(tournament_id)

    def tournament_standings(self, tournament_id: str) -> dict[str, Any]:
        return self.tournament_service.standings(tournament_id)

    def public_tournament(self, tournament_id: str) -> dict[str, Any]:
        return self.tournament_service.public(tournament_id)

    def tournament_record(self, tournament_id: str) -> list[dict[str, Any]]:
        return self.tournament_service.record(tournament_id)

    def verify_tournament(self, tournament_id: str) -> VerifyReport:
        return self.tournament_service.verify(tournament_id)

    def tournament_players_csv(self, tournament_id: str) -> str:
        return self.tournament_service.players_csv(tournament_id)

    def tournament_standings_csv(self, tournament_id: str) -> str:
        return self.tournament_service.standings_csv(tournament_id)

    def tournament_results_csv(self, tournament_id: str) -> str:
        return self.tournament_service.results_csv(tournament_id)
