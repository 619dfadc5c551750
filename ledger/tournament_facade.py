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

import dataclasses
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from domain.commands.bodies.text import fit_name
from domain.errors import InvalidCommand, NotFound
from domain.permissions import TOURNAMENT_BINDING, Grant, check_player_links, event_player
from domain.tournament.match_games import MatchGame
from ledger.clock import Now
from ledger.decklist_service import DecklistService, GameEvents
from ledger.idempotency import IdempotencyRecords
from ledger.match_bridge import bridged_match, bridged_row, tournament_table
from ledger.match_reports import MatchReports
from ledger.match_service import Matches
from ledger.partitions import Partitions
from ledger.tokens import TokenRegistry
from ledger.tournament_service import TOURNAMENT_GRANT, GameRead, Paired, RoundMatches, TournamentService
from ledger.tournament_use_cases import HANDLERS, UseCase
from ledger.tournaments import TournamentLog
from ledger.write_path import Submission
from projections.matches import match_out
from store.results import Actor, VerifyReport
from store.streams import Streams

G = TypeVar("G", bound=Grant)
RunGames = Callable[[Sequence[MatchGame], Actor], list[str]]
"""Creates the games a decision asked for, skipping those that exist (``Partitions.create_games``)."""


class TournamentFacade:
    """Tournaments: events, roster, pairings with their games, results, the clock, the reads."""

    tokens: TokenRegistry
    tournament_service: TournamentService
    match_reports: MatchReports
    matches: Matches
    decklist_service: DecklistService
    partitions: Partitions

    def open_tournaments(
        self,
        streams: Streams,
        idempotency: IdempotencyRecords,
        clock: Callable[[], datetime],
        now: Now,
        run_games: RunGames,
        matches: RoundMatches,
        game_read: GameRead,
        game_events: GameEvents,
    ) -> None:
        """Called once by ``LedgerService.__init__``: the tournaments live in the home partition."""
        log = TournamentLog(streams, idempotency, now)
        self.tournament_service = TournamentService(log, clock, matches, game_read)
        self.match_reports = MatchReports(log, game_read)
        self.decklist_service = DecklistService(log, clock, game_read, game_events)  # issue 42
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
        rounds = self.tournament_service.rounds_paired(tournament_id)
        if all((tournament_id, n) in self._complete for n in range(1, rounds + 1)):
            return 0  # a reader's usual case: no id built, no read
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

    # -- writes: one entry (``ledger.tournament_use_cases``) -----------------------------------
    def handle(
        self,
        use_case: UseCase,
        actor: Actor,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> dict[str, Any]:
        """Carry out one tournament use case as ``actor``; the Idempotency-Key (scoped by the
        caller) is claimed in the same atomic save as the write."""
        handler = HANDLERS.get(type(use_case))
        if handler is None:
            raise TypeError(f"not a tournament use case: {use_case!r}")
        return handler(self, use_case, Submission(actor, None, idempotency_key, request_fingerprint))

    def open_round(self, tournament_id: str, paired: Paired, by: Submission) -> dict[str, Any]:
        """Create the games a pairing's decision asked for (``Partitions.create_games``)."""
        self._run_games(paired.games, by.actor)
        if paired.games:
            self._complete.add((tournament_id, int(paired.answer["round"])))
        return paired.answer

    def start_match_game(self, game: MatchGame, by: Submission) -> None:
        """Create a match's next game in its partition (``409 game_exists`` if it is there)."""
        self.partitions.create_game(game.body, game.game_id, by)

    def tournament_player_link(self, tournament_id: str, player: str, grant: Grant) -> dict[str, Any]:
        """One player token for the whole event (its event link): it acts as ``player`` in the
        games where the player is seated (``seated``). Minted by the scorekeeper who created the
        event, a judge or an admin (``domain.permissions.check_player_links``: ``not_game_creator``)."""
        creator = self.tournament_service.creator(tournament_id)
        check_player_links(grant, tournament_id, (creator.name, creator.role, creator.token), what="event")
        entry = self.tournament_service.player(tournament_id, player)
        secret = self.tokens.create(
            fit_name(f"{tournament_id} {entry['name']}"), "player", f"{TOURNAMENT_GRANT}{tournament_id}", player
        )
        return {
            "url": f"/tournaments/{tournament_id}/me#token={secret}",
            "token": secret,
            "player_id": player,
            "name": entry["name"],
        }

    def seated(self, grant: G, game_id: str) -> G:
        """``grant`` with its seat in ``game_id`` when it is an event link (``Grant.seat``, looked
        up in the tournament's record as spectators read it: a drop is seen at once here, within
        ``ledger.tournaments.SPECTATOR_LAG`` by other processes); any other grant as it is.
        ``domain.permissions.seat_refusal`` decides on it."""
        bound = grant.game_id
        if grant.role != "player" or bound is None or not bound.startswith(TOURNAMENT_BINDING):
            return grant
        try:
            seat = self.tournament_service.seat(bound.removeprefix(TOURNAMENT_BINDING), grant.player_id, game_id)
        except (NotFound, InvalidCommand):
            seat = None  # the event is gone or never was: the link acts nowhere
        return dataclasses.replace(grant, seat=seat)

    # -- reads -------------------------------------------------------------------------------
    def tournament_me(self, tournament_id: str, grant: Grant) -> dict[str, Any]:
        """The event link's own view (``ledger.tournament_me``): for the event's own links only
        (``domain.permissions.event_player``), a dropped player's too (a read)."""
        player = event_player(grant, tournament_id)
        self.complete_rounds(tournament_id)
        return self.tournament_service.me(tournament_id, player)

    def list_tournaments(self, limit: int | None = None, after: str | None = None) -> dict[str, Any]:
        """``GET /v1/tournaments``: one page, newest first, and the next page's ``after``."""
        found, following = self.tournament_service.summaries(limit, after)
        return {"tournaments": found, "next": following}

    def tournament(self, tournament_id: str) -> dict[str, Any]:
        self.complete_rounds(tournament_id)
        return self.tournament_service.view(tournament_id)

    def tournament_standings(self, tournament_id: str) -> dict[str, Any]:
        return self.tournament_service.standings(tournament_id)

    def public_tournament(self, tournament_id: str) -> dict[str, Any]:
        self.complete_rounds(tournament_id)
        return self.tournament_service.public(tournament_id)

    def public_tournament_json(self, tournament_id: str) -> bytes:
        """``public_tournament`` as JSON bytes, rendered once per version (the clock per read)."""
        self.complete_rounds(tournament_id)
        return self.tournament_service.public_bytes(tournament_id)

    def tournament_standings_json(self, tournament_id: str) -> bytes:
        """``tournament_standings`` as JSON bytes, rendered once per version."""
        return self.tournament_service.standings_bytes(tournament_id)

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

    def match_report(self, tournament_id: str, round: int, table: int, viewer: str | None = None) -> dict[str, Any]:
        """A match's report form: state, report waiting, result, prefill from its games."""
        self.complete_rounds(tournament_id)
        return self.match_reports.view(tournament_id, round, table, viewer)

    def my_match_report(self, tournament_id: str, player: str) -> dict[str, Any]:
        """The player's match of the latest round, as ``match_report`` shows it."""
        self.complete_rounds(tournament_id)
        return self.match_reports.mine(tournament_id, player)

    # -- the older matches model, answering a tournament's match from its one result -------------
    def event_is_tournament(self, event: str) -> bool:
        return self.match_reports.state_of(event) is not None

    def event_match(self, event: str, round: str, table: str) -> dict[str, Any]:
        """``GET /v1/events/{e}/rounds/{r}/tables/{t}`` (``ledger.match_bridge``)."""
        doc = self.matches.get(event, round, table)
        state = self.match_reports.state_of(event)
        return match_out(doc) if state is None else bridged_match(doc, tournament_table(state, round, table))

    def event_round(self, event: str, round: str) -> dict[str, Any]:
        """``GET /v1/events/{e}/rounds/{r}``: a tournament's tables show its results."""
        answer = self.matches.round(event, round)
        state = self.match_reports.state_of(event)
        if state is not None:
            answer["tables"] = [
                bridged_match(
                    self.matches.get(event, round, str(m["table"])), tournament_table(state, round, str(m["table"]))
                )
                for m in answer["tables"]
            ]
        return answer

    def event_round_results(self, event: str, round: str) -> list[dict[str, Any]]:
        """The v1 results export of a round: a tournament's rows are its results."""
        rows = self.matches.results(event, round)
        state = self.match_reports.state_of(event)
        if state is None:
            return rows
        return [
            bridged_row(
                self.matches.get(event, round, str(r["table"])), tournament_table(state, round, str(r["table"]))
            )
            for r in rows
        ]

    def waiting_match_reports(self, tournament_id: str) -> dict[str, Any]:
        """The players' reports waiting for a confirmation or disputed (the scorekeeper's list)."""
        return self.match_reports.waiting(tournament_id)
