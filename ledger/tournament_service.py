"""The tournament service: roster, pairings, results, the clock and the reads, each a write of
``ledger.tournaments.TournamentLog`` (the one writer) or a read of its cached head.

A pairing's decision says which games its tables need (``domain.tournament.match_games``:
typed ``MatchGame`` values); this service returns them beside its answer and the facade runs
them (``ledger.partitions.Partitions.create_games``): nothing here calls back up the stack.

Results are reported to the tournament (by a scorekeeper, or a judge), keyed by player id: the
games of a match are where the players play and judges record; the tournament's result is the
scorekeeper's entry (docs/tournaments.md, Results). A registered player is one player id (``p1``,
``p2``, ... in registration order) across the event: the games of a round are created with the
tournament's player ids as the games' player ids and their names, whatever seat each gets, and one
player token (bound to ``_tournament/<id>`` and the player id, ``domain.permissions``) acts as
that player in every game of the event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.errors import Code, IllegalAction, InvalidCommand, NotFound
from domain.seats import Seat
from domain.state import GameState
from domain.tournament import (
    CorrectResult,
    CreateEvent,
    DropPlayer,
    EndRound,
    FeatureTable,
    MarkNoShow,
    PairRound,
    PairTopCut,
    PauseRound,
    RegisterPlayer,
    ReportIntentionalDraw,
    ReportResult,
    ResumeRound,
    StartRound,
    TournamentCommand,
    TournamentState,
)
from domain.tournament.decide_clock import click_time
from domain.tournament.decide_tables import GameSoFar, next_game_number
from domain.tournament.match_games import MAX_GAMES, MatchGame, game_id_of, match_game, round_games
from domain.tournament.seats import seat_of
from domain.tournament.state import Round
from ledger.tournament_exports import (
    RESULTS_COLUMNS,
    ROSTER_COLUMNS,
    STANDINGS_COLUMNS,
    parse_roster,
    results_rows,
    roster_rows,
    standings_rows,
    to_csv,
)
from ledger.tournament_final import page_of
from ledger.tournament_me import me_json
from ledger.tournament_views import (
    RoundExtras,
    TableExtras,
    clock_json,
    player_json,
    public_json,
    round_json,
    standings_json,
    summary_json,
    tournament_json,
)
from ledger.tournaments import STREAM_PREFIX, TournamentHead, TournamentLog, Written, new_seed, record_json
from ledger.write_path import Submission
from store import fast_json
from store.results import Actor, VerifyReport

RoundMatches = Callable[[str, str], Mapping[str, Any]]
"""The facade's ``round(event, round)``: the matches read model's view of a round."""
GameRead = Callable[[str], tuple[int, GameState]]
"""The facade's ``state_at(game_id)``: a game's head state (``NotFound(unknown_game)``)."""
TOURNAMENT_GRANT = "_tournament/"
"""A player token bound to a whole event has ``game_id`` ``_tournament/<id>``: no game id can
start with ``_``, so it never names a game."""
CLOCK_COMMANDS: dict[str, type[StartRound | PauseRound | ResumeRound | EndRound]] = {
    "start": StartRound,
    "pause": PauseRound,
    "resume": ResumeRound,
    "end": EndRound,
}


@dataclass(frozen=True, slots=True)
class Paired:
    """A pairing's answer and the games its tables need (run by the facade)."""

    answer: dict[str, Any]
    games: tuple[MatchGame, ...]


class TournamentService:
    """Every tournament operation of the facade (``ledger.tournament_facade``)."""

    def __init__(
        self,
        log: TournamentLog,
        clock: Callable[[], datetime],
        matches: RoundMatches,
        game_read: GameRead,
    ) -> None:
        self._log = log
        self._clock = clock
        self._matches = matches
        self._game_read = game_read

    # -- the event and its roster --------------------------------------------------------------
    def create(self, tournament_id: str, command: CreateEvent, by: Submission) -> dict[str, Any]:
        self._log.create(tournament_id, command, by)
        return self.view(tournament_id)

    def summaries(self, limit: int | None = None, after: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """One page of the tournaments, newest first (``tournament_final.page_of``)."""
        page, following = page_of(self._log.ids()[::-1], limit, after)
        return [summary_json(tid, self._log.load(tid).state) for tid in page], following

    def register(self, tournament_id: str, name: str, wizards_id: str | None, by: Submission) -> dict[str, Any]:
        def decision(state: TournamentState) -> list[TournamentCommand]:
            return [RegisterPlayer(player=_next_key(state, 0), name=name, wizards_id=wizards_id)]

        written = self._log.write(tournament_id, decision, by)
        key = _next_key(written.state, -1)
        return {**player_json(written.state, key), "version": written.version}

    def register_csv(self, tournament_id: str, text: str, by: Submission) -> dict[str, Any]:
        rows = parse_roster(text)

        def decision(state: TournamentState) -> list[TournamentCommand]:
            return [
                RegisterPlayer(player=_next_key(state, i), name=name, wizards_id=wid)
                for i, (name, wid) in enumerate(rows)
            ]

        written = self._log.write(tournament_id, decision, by)
        return {"registered": len(written.events), "version": written.version}

    def drop(self, tournament_id: str, player: str, reason: str, by: Submission) -> dict[str, Any]:
        written = self._log.write(
            tournament_id, lambda s: [DropPlayer(player=player, reason=reason, by=by.actor.name)], by
        )
        return {**player_json(written.state, player), "version": written.version}

    def no_show(self, tournament_id: str, player: str, by: Submission) -> dict[str, Any]:
        written = self._log.write(tournament_id, lambda s: [MarkNoShow(player=player)], by)
        return {**player_json(written.state, player), "version": written.version}

    # -- pairings ------------------------------------------------------------------------------
    def pair_round(self, tournament_id: str, seed: int | None, by: Submission) -> Paired:
        """Pair the next Swiss round (seed from ``secrets`` unless given): the answer and the
        games its tables need."""
        chosen = new_seed() if seed is None else seed
        return self._paired(tournament_id, self._log.write(tournament_id, lambda s: [PairRound(seed=chosen)], by))

    def pair_top_cut(self, tournament_id: str, by: Submission) -> Paired:
        return self._paired(tournament_id, self._log.write(tournament_id, lambda s: [PairTopCut()], by))

    def _paired(self, tournament_id: str, written: Written) -> Paired:
        state = written.state
        rnd = state.rounds[-1]
        extras = {t.number: TableExtras(games=(game_id_of(tournament_id, rnd.number, t.number),)) for t in rnd.tables}
        answer = {**round_json(state, rnd, RoundExtras(extras)), "version": state.version}
        return Paired(answer, round_games(tournament_id, state, rnd.number))

    def rounds_paired(self, tournament_id: str) -> int:
        """How many rounds (Swiss and top cut) the tournament has paired (a recent head)."""
        return len(self._log.recent(tournament_id).state.rounds)

    def round_game_ids(self, tournament_id: str) -> list[tuple[int, list[str]]]:
        """Every round's first games' ids, in table order."""
        state = self._log.load(tournament_id).state
        return [(r.number, [game_id_of(tournament_id, r.number, t.number) for t in r.tables]) for r in state.rounds]

    def games_of_round(self, tournament_id: str, round: int) -> tuple[MatchGame, ...]:
        """The first games of a round's tables (``ledger.tournament_facade.complete_rounds``)."""
        return round_games(tournament_id, self._log.load(tournament_id).state, round)

    def next_game(self, tournament_id: str, round: int, table: int) -> MatchGame:
        """The match's next game (same players, names and tournament tag), once its latest game
        has finished and the match is still undecided (MTR 2.1): the facade creates it. Two
        clicks at once both get this number; the second finds the game and is refused with
        ``409 game_exists``, storing nothing."""
        state = self._log.load(tournament_id).state
        number = next_game_number(state, round, table, self._games_so_far(tournament_id, round, table))
        rnd = state.rounds[round - 1]
        return match_game(tournament_id, state, rnd, rnd.tables[table - 1], number)

    def next_game_answer(self, tournament_id: str, round: int, table: int, game: MatchGame) -> dict[str, Any]:
        """The answer to ``next_game`` once its game exists."""
        state = self._log.load(tournament_id).state
        rnd = state.rounds[round - 1]
        tables = dict(self._extras(tournament_id, rnd).tables)
        known = tables.get(table, TableExtras())
        if game.game_id not in known.games:  # the read model trails the new game by a moment
            tables[table] = TableExtras(games=(*known.games, game.game_id), extension_minutes=known.extension_minutes)
        found = next(t for t in round_json(state, rnd, RoundExtras(tables))["tables"] if t["table"] == table)
        number = int(game.game_id.rsplit(".g", 1)[1])
        return {"round": round, **found, "game_id": game.game_id, "game": number, "version": state.version}

    def _games_so_far(self, tournament_id: str, round: int, table: int) -> list[GameSoFar]:
        # The games' own logs, not the matches read model (which may trail a game's end): the
        # games of a match are numbered 1, 2, ... with no gaps.
        games: list[GameSoFar] = []
        for number in range(1, MAX_GAMES + 1):
            try:
                _, game = self._game_read(game_id_of(tournament_id, round, table, number))
            except NotFound:
                break
            winners = tuple(game.result.winners) if game.result is not None else ()
            games.append(GameSoFar(finished=game.status == "finished", winners=winners))
        return games

    def feature(self, tournament_id: str, round: int, table: int, featured: bool, by: Submission) -> dict[str, Any]:
        return self._table_write(
            tournament_id,
            round,
            table,
            lambda s: [FeatureTable(round=round, table=table, featured=featured)],
            by,
        )

    # -- results -------------------------------------------------------------------------------
    def report(
        self,
        tournament_id: str,
        round: int,
        table: int,
        wins: Mapping[str, int],
        draws: int,
        by: Submission,
        reason: str | None = None,
    ) -> dict[str, Any]:
        def decision(state: TournamentState) -> list[TournamentCommand]:
            games = _seat_games(state, round, table, wins)
            return [ReportResult(round=round, table=table, games=games, draws=draws, by=by.actor.name, reason=reason)]

        return self._table_write(tournament_id, round, table, decision, by)

    def correct(
        self,
        tournament_id: str,
        round: int,
        table: int,
        wins: Mapping[str, int],
        draws: int,
        reason: str,
        by: Submission,
    ) -> dict[str, Any]:
        def decision(state: TournamentState) -> list[TournamentCommand]:
            games = _seat_games(state, round, table, wins)
            return [CorrectResult(round=round, table=table, games=games, draws=draws, reason=reason, by=by.actor.name)]

        return self._table_write(tournament_id, round, table, decision, by)

    def intentional_draw(self, tournament_id: str, round: int, table: int, by: Submission) -> dict[str, Any]:
        # MTR 2.4: players may agree to a draw until the match is over; a match whose games
        # already decided it is over (the matches read model), whatever the tournament knows.
        match = self._match(tournament_id, round, table)
        if match is not None and match["result"]["complete"] and not match["result"]["draw"]:
            raise IllegalAction(
                f"round {round} table {table} is over ({match['result']['score']}): an intentional draw is too late "
                "(MTR 2.4); report its result",
                Code.MATCH_ALREADY_REPORTED,
            )
        return self._table_write(
            tournament_id,
            round,
            table,
            lambda s: [ReportIntentionalDraw(round=round, table=table, by=by.actor.name)],
            by,
        )

    def _table_write(
        self,
        tournament_id: str,
        round: int,
        table: int,
        decision: Callable[[TournamentState], Sequence[TournamentCommand]],
        by: Submission,
    ) -> dict[str, Any]:
        written = self._log.write(tournament_id, decision, by)
        rnd = written.state.rounds[round - 1]
        extras = self._extras(tournament_id, rnd)
        found = next(t for t in round_json(written.state, rnd, extras)["tables"] if t["table"] == table)
        return {"round": round, **found, "version": written.version}

    def clock(self, tournament_id: str, round: int, action: str, by: Submission) -> dict[str, Any]:
        kind = CLOCK_COMMANDS.get(action)
        if kind is None:  # the API's body model refuses it first; a direct caller gets the same
            raise InvalidCommand(f"action must be one of {list(CLOCK_COMMANDS)}, got {action!r}", Code.INVALID_FIELD)
        # The time is read inside the decision: a click decided again after another's clash is
        # stamped after it, never before (two clicks at once were 422 clock_went_backwards); and
        # never before the clock's last change (a worker whose clock lags: issue 40).
        written = self._log.write(
            tournament_id, lambda s: [kind(round=round, at=click_time(s, round, self._clock()))], by
        )
        return {**(clock_json(written.state.rounds[round - 1], self._clock()) or {}), "version": written.version}

    # -- reads ---------------------------------------------------------------------------------
    def view(self, tournament_id: str) -> dict[str, Any]:
        head = self._log.load(tournament_id)
        extras = {r.number: self._extras(tournament_id, r) for r in head.state.rounds}
        return tournament_json(
            tournament_id, head.state, head.version, self._clock(), extras, standings=self._standings(head)
        )

    def standings(self, tournament_id: str) -> dict[str, Any]:
        head = self._log.load(tournament_id)
        return {"round": len(head.state.rounds), "standings": self._standings(head)}

    def public(self, tournament_id: str) -> dict[str, Any]:
        """What spectators see: rendered once per version (``TournamentHead.memo``), the clock
        read at each request."""
        head = self._log.load(tournament_id)
        return {**self.public_static(head), "clock": clock_json(head.state.current_round, self._clock())}

    def public_bytes(self, tournament_id: str) -> bytes:
        """``public`` as JSON: everything but the clock rendered once per version (a spectator's
        read of a 5,000-player event costs a copy, not a render), the clock at each read."""
        head = self._log.recent(tournament_id)

        def render() -> bytes:
            shown = {k: v for k, v in self.public_static(head).items() if k != "clock"}
            return fast_json.dumps(shown)

        rest: bytes = head.remembered("public-bytes", render)
        clock = fast_json.dumps(clock_json(head.state.current_round, self._clock()))
        return b'{"clock":' + clock + b"," + rest[1:] if len(rest) > 2 else b'{"clock":' + clock + b"}"

    def standings_bytes(self, tournament_id: str) -> bytes:
        """``standings`` as JSON, rendered once per version."""
        head = self._log.recent(tournament_id)
        found: bytes = head.remembered(
            "standings-bytes",
            lambda: fast_json.dumps({"round": len(head.state.rounds), "standings": self._standings(head)}),
        )
        return found

    def public_static(self, head: TournamentHead) -> dict[str, Any]:
        found: dict[str, Any] = head.remembered(
            "public", lambda: public_json(head.id.removeprefix(STREAM_PREFIX), head.state, None)
        )
        return found

    def _standings(self, head: TournamentHead) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = head.remembered("standings", lambda: standings_json(head.state))
        return found

    def record(self, tournament_id: str) -> list[dict[str, Any]]:
        return [record_json(r) for r in self._log.records(tournament_id)]

    def verify(self, tournament_id: str) -> VerifyReport:
        return self._log.verify(tournament_id)

    def players_csv(self, tournament_id: str) -> str:
        return to_csv(ROSTER_COLUMNS, roster_rows(self._log.load(tournament_id).state))

    def standings_csv(self, tournament_id: str) -> str:
        return to_csv(STANDINGS_COLUMNS, standings_rows(self._log.load(tournament_id).state))

    def results_csv(self, tournament_id: str) -> str:
        return to_csv(RESULTS_COLUMNS, results_rows(tournament_id, self._log.load(tournament_id).state))

    def player(self, tournament_id: str, player: str) -> dict[str, Any]:
        """The registered player (``404 unknown_player``), for a player link."""
        state = self._log.load(tournament_id).state
        if player not in state.players:
            raise NotFound(f"the tournament has no player {player!r}", Code.UNKNOWN_PLAYER)
        return player_json(state, player)

    def creator(self, tournament_id: str) -> Actor:
        """Who created the event: its first record's actor (``404 unknown_tournament``)."""
        first = self._log.first(tournament_id)
        return Actor(first.actor["name"], first.actor["role"], first.actor.get("token"))

    def me(self, tournament_id: str, player: str) -> dict[str, Any]:
        """An event link's own view (``ledger.tournament_me``): its player's rounds with their
        games' ids (``404 unknown_player`` for a player the event doesn't have)."""
        head = self._log.recent(tournament_id)
        state = head.state
        if player not in state.players:
            raise NotFound(f"the tournament has no player {player!r}", Code.UNKNOWN_PLAYER)
        extras = {r.number: self._extras(tournament_id, r) for r in state.rounds if r.table_of(player) is not None}
        return me_json(tournament_id, state, head.version, player, extras, self._clock())

    def seat(self, tournament_id: str, player: str | None, game_id: str) -> Seat | None:
        """The player's seat in ``game_id`` (``domain.tournament.seats.seat_of``), from a recent
        head (``TournamentLog.recent``); ``None``: not seated there."""
        if player is None:
            return None
        return seat_of(tournament_id, self._log.recent(tournament_id).state, player, game_id)

    # -- the matches read model ------------------------------------------------------------------
    def _extras(self, tournament_id: str, rnd: Round) -> RoundExtras:
        tables: dict[int, TableExtras] = {}
        view = self._matches(tournament_id, str(rnd.number))
        for match in view.get("tables", ()):
            number = match.get("table")
            if isinstance(number, int):
                tables[number] = TableExtras(
                    games=tuple(g["game_id"] for g in match.get("games", ())),
                    extension_minutes=int(match.get("extra_minutes") or 0),
                )
        for table in rnd.tables:
            # The read model may trail the pairing by a moment; the first game's id is known.
            if not tables.get(table.number, TableExtras()).games:
                known = tables.get(table.number, TableExtras())
                first = (game_id_of(tournament_id, rnd.number, table.number),)
                tables[table.number] = TableExtras(games=first, extension_minutes=known.extension_minutes)
        return RoundExtras(tables)

    def _match(self, tournament_id: str, round: int, table: int) -> Mapping[str, Any] | None:
        view = self._matches(tournament_id, str(round))
        return next((m for m in view.get("tables", ()) if m.get("table") == table), None)


def _next_key(state: TournamentState, offset: int) -> str:
    """Player ids are ``p1``, ``p2``, ... in registration order (``offset`` past the count)."""
    return f"p{len(state.players) + 1 + offset}"


def _seat_games(state: TournamentState, round: int, table: int, wins: Mapping[str, int]) -> tuple[int, ...]:
    """Games won per seat from wins per player id: a result names people, never seats."""
    rnd = state.round(round) if isinstance(round, int) else None
    found = rnd.table(table) if rnd is not None and isinstance(table, int) else None
    if found is None:
        return tuple(wins.values())  # the kernel refuses the round or table with its code
    unknown = sorted(set(wins) - set(found.players))
    if unknown:
        raise InvalidCommand(
            f"wins name players not at round {round} table {table} ({list(found.players)}): {unknown}",
            Code.INVALID_RESULT,
        )
    return tuple(wins.get(p, 0) for p in found.players)
