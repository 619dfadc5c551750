"""The tournament part of the one facade: ``LedgerService`` inherits these methods, so the API
and tools call them as the facade's own (``tests/api/test_one_facade.py``), while the service's
module stays about games. Each write is one use case: a ``Submission`` (who, the
Idempotency-Key) handed to ``ledger.tournament_service.TournamentService``, whose decision goes
through the one writer; a pairing's games (typed ``MatchGame`` values the decision returned) are
run here, in one place (``Partitions.create_games``), never by a call back up the stack.

A round and its games are two saves (the games may live in other partitions than the
tournament): the round is stored first, then its games in batches. A crash between the two
leaves a round whose games are missing; every later use of the tournament completes it
(``complete_rounds``: creating a game that exists is skipped, so the step is idempotent), so the
event goes on without a scorekeeper's repair (docs/architecture.md, The path of a pairing).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from domain.tournament import CreateEvent
from domain.tournament.match_games import MatchGame
from ledger.clock import Now
from ledger.idempotency import IdempotencyRecords
from ledger.partitions import Partitions
from ledger.tokens import TokenRegistry
from ledger.tournament_service import TOURNAMENT_GRANT, GameRead, RoundMatches, TournamentService
from ledger.tournaments import TournamentLog
from ledger.write_path import Submission
from store.results import Actor, VerifyReport
from store.streams import Streams

RunGames = Callable[[Sequence[MatchGame], Actor], list[str]]
"""Creates the games a decision asked for, skipping those that exist (``Partitions.create_games``)."""


class TournamentFacade:
    """Tournaments: events, roster, pairings with their games, results, the clock, the reads."""

    tokens: TokenRegistry
    tournament_service: TournamentService
    partitions: Partitions
    create_game: Callable[..., Any]

    def open_tournaments(
        self,
        streams: Streams,
        idempotency: IdempotencyRecords,
        clock: Callable[[], datetime],
        now: Now,
        run_games: RunGames,
        matches: RoundMatches,
        game_read: GameRead,
    ) -> None:
        """Called once by ``LedgerService.__init__``: the tournaments live in the home partition."""
        log = TournamentLog(streams, idempotency, now)
        self.tournament_service = TournamentService(log, clock, matches, game_read)
        self._run_games = run_games
        self._complete: set[tuple[str, int]] = set()
        """Rounds whose games this process saw complete (a round's games are never removed)."""
        self._completing = threading.Lock()

    def complete_rounds(self, tournament_id: str, actor: Actor | None = None) -> int:
        """Create any game of a paired round that a crash between the round's save and its
        games' left unmade; the number created. Each round is checked once per process: a round
        whose last game in each partition exists is whole (its games are made in table order,
        in batches that are all or nothing); only a round that is not has its games built and
        run again (existing ones are skipped)."""
        made = 0
        for number, ids in self.tournament_service.round_game_ids(tournament_id):
            if (tournament_id, number) in self._complete:
                continue
            last_of: dict[int, str] = {}
            for game_id in ids:
                last_of[self.partitions.all.index(self.partitions.of(game_id))] = game_id
            whole = all(self.partitions.all[p].streams.exists(g) for p, g in last_of.items())
            if not whole:
                with self._completing:
                    games = self.tournament_service.games_of_round(tournament_id, number)
                    made += len(self._run_games(games, actor or Actor("ledger", "system")))
            self._complete.add((tournament_id, number))
        return made

    # -- writes ------------------------------------------------------------------------------
    def create_tournament(
        self, tournament_id: str, command: CreateEvent, actor: Actor, **key: str | None
    ) -> dict[str, Any]:
        """Announce a tournament (``409 tournament_already_created`` if the id is taken)."""
        return self.tournament_service.create(tournament_id, command, _by(actor, key))

    def register_player(
        self, tournament_id: str, name: str, wizards_id: str | None, actor: Actor, **key: str | None
    ) -> dict[str, Any]:
        """Register a player (a late entry once round 1 is paired); their ``player_id``."""
        return self.tournament_service.register(tournament_id, name, wizards_id, _by(actor, key))

    def register_players_csv(self, tournament_id: str, text: str, actor: Actor, **key: str | None) -> dict[str, Any]:
        """Register every row of a roster file in one atomic save."""
        return self.tournament_service.register_csv(tournament_id, text, _by(actor, key))

    def drop_player(
        self, tournament_id: str, player: str, reason: str, actor: Actor, **key: str | None
    ) -> dict[str, Any]:
        return self.tournament_service.drop(tournament_id, player, reason, _by(actor, key))

    def mark_no_show(self, tournament_id: str, player: str, actor: Actor, **key: str | None) -> dict[str, Any]:
        return self.tournament_service.no_show(tournament_id, player, _by(actor, key))

    def pair_round(self, tournament_id: str, seed: int | None, actor: Actor, **key: str | None) -> dict[str, Any]:
        """Pair the next Swiss round (seed from ``secrets`` unless given) and create its games."""
        self.complete_rounds(tournament_id, actor)
        paired = self.tournament_service.pair_round(tournament_id, seed, _by(actor, key))
        return self._open(tournament_id, paired.answer, paired.games, actor)

    def pair_top_cut(self, tournament_id: str, actor: Actor, **key: str | None) -> dict[str, Any]:
        self.complete_rounds(tournament_id, actor)
        paired = self.tournament_service.pair_top_cut(tournament_id, _by(actor, key))
        return self._open(tournament_id, paired.answer, paired.games, actor)

    def _open(
        self, tournament_id: str, answer: dict[str, Any], games: Sequence[MatchGame], actor: Actor
    ) -> dict[str, Any]:
        self._run_games(games, actor)
        if games:
            self._complete.add((tournament_id, int(answer["round"])))
        return answer

    def report_tournament_result(
        self,
        tournament_id: str,
        round: int,
        table: int,
        wins: Mapping[str, int],
        draws: int,
        actor: Actor,
        **key: str | None,
    ) -> dict[str, Any]:
        return self.tournament_service.report(tournament_id, round, table, wins, draws, _by(actor, key))

    def correct_tournament_result(
        self,
        tournament_id: str,
        round: int,
        table: int,
        wins: Mapping[str, int],
        draws: int,
        reason: str,
        actor: Actor,
        **key: str | None,
    ) -> dict[str, Any]:
        return self.tournament_service.correct(tournament_id, round, table, wins, draws, reason, _by(actor, key))

    def tournament_intentional_draw(
        self, tournament_id: str, round: int, table: int, actor: Actor, **key: str | None
    ) -> dict[str, Any]:
        return self.tournament_service.intentional_draw(tournament_id, round, table, _by(actor, key))

    def next_tournament_game(
        self, tournament_id: str, round: int, table: int, actor: Actor, **key: str | None
    ) -> dict[str, Any]:
        """Create the match's next game (refused once the match is over or while a game is on)."""
        self.complete_rounds(tournament_id, actor)
        game = self.tournament_service.next_game(tournament_id, round, table)
        by = _by(actor, key)
        self.create_game(
            game.body, actor, game.game_id, idempotency_key=by.idempotency_key, request_fingerprint=by.fingerprint
        )
        return self.tournament_service.next_game_answer(tournament_id, round, table, game)

    def feature_table(
        self, tournament_id: str, round: int, table: int, featured: bool, actor: Actor, **key: str | None
    ) -> dict[str, Any]:
        """Mark (or unmark) a table as featured: a ``TableFeatured`` event."""
        return self.tournament_service.feature(tournament_id, round, table, featured, _by(actor, key))

    def round_clock(
        self, tournament_id: str, round: int, action: str, actor: Actor, **key: str | None
    ) -> dict[str, Any]:
        """Start, pause, resume or end the round's clock at the ledger clock's time."""
        return self.tournament_service.clock(tournament_id, round, action, _by(actor, key))

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
        self.complete_rounds(tournament_id)
        return self.tournament_service.view(tournament_id)

    def tournament_standings(self, tournament_id: str) -> dict[str, Any]:
        return self.tournament_service.standings(tournament_id)

    def public_tournament(self, tournament_id: str) -> dict[str, Any]:
        self.complete_rounds(tournament_id)
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


def _by(actor: Actor, key: Mapping[str, str | None]) -> Submission:
    """A tournament write's submission: the caller and, from the HTTP edge, its
    Idempotency-Key (scoped) and the request's fingerprint."""
    unknown = set(key) - {"idempotency_key", "request_fingerprint"}
    if unknown:
        raise TypeError(f"unexpected keyword arguments {sorted(unknown)}")
    return Submission(actor, None, key.get("idempotency_key"), key.get("request_fingerprint"))
