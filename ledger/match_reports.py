"""The players' match reports (issue 38; docs/tournaments.md, Players report their results):
report, confirm, dispute, each a write of the one tournament writer (``ledger.tournaments``),
and what the report form shows, prefilled from the games the ledger recorded for the match.

The games of a match are ``<tournament>.r<round>.t<table>.g<n>`` (``domain.tournament.match_games``);
a finished game's winner is in its state, so the prefill counts each player's wins and the drawn
games. It is only a suggestion: what stands is what a player reports and the opponent confirms,
or what the scorekeeper enters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.errors import Code, IllegalAction, InvalidCommand, NotFound
from domain.tournament import ConfirmReport, DisputeReport, PlayerReport, TournamentState
from domain.tournament.decide_reports import report_state
from domain.tournament.match_games import MAX_GAMES, game_id_of
from domain.tournament.player_report import DISPUTED, OPEN, PENDING
from domain.tournament.report_access import plays_in
from domain.tournament.state import Round, Table
from ledger.tournaments import TOURNAMENT_ID, TournamentLog
from ledger.write_path import Submission

GameRead = Callable[[str], tuple[int, Any]]
"""The facade's ``state_at(game_id)``: a game's head state (``NotFound`` when it doesn't exist)."""


def seat_games(table: Table, wins: Mapping[str, int], where: str) -> tuple[int, ...]:
    """Games won per seat from wins by player id (``400 invalid_result`` naming another player)."""
    unknown = sorted(set(wins) - set(table.players))
    if unknown:
        raise InvalidCommand(
            f"wins name players not at {where} ({list(table.players)}): {unknown}", Code.INVALID_RESULT
        )
    return tuple(int(wins.get(p, 0)) for p in table.players)


class MatchReports:
    """Players' reports of their own match, and the report form's view."""

    def __init__(self, log: TournamentLog, game_read: GameRead) -> None:
        self._log = log
        self._game_read = game_read

    # -- writes --------------------------------------------------------------------------------
    def file(
        self,
        tournament_id: str,
        player: str,
        round: int,
        table: int,
        wins: Mapping[str, int],
        draws: int,
        token: str | None,
        by: Submission,
    ) -> dict[str, Any]:
        def decision(state: TournamentState) -> list[PlayerReport]:
            found = _table(state, round, table)
            games = seat_games(found, wins, f"round {round} table {table}") if found is not None else ()
            return [PlayerReport(round=round, table=table, player=player, games=games, draws=draws, token=token)]

        self._log.write(tournament_id, decision, by)
        return self.view(tournament_id, round, table, player)

    def confirm(
        self, tournament_id: str, player: str, round: int, table: int, token: str | None, by: Submission
    ) -> dict[str, Any]:
        command = ConfirmReport(round=round, table=table, player=player, token=token)
        self._log.write(tournament_id, lambda s: [command], by)
        return self.view(tournament_id, round, table, player)

    def dispute(
        self,
        tournament_id: str,
        player: str,
        round: int,
        table: int,
        note: str | None,
        token: str | None,
        by: Submission,
    ) -> dict[str, Any]:
        command = DisputeReport(round=round, table=table, player=player, note=note, token=token)
        self._log.write(tournament_id, lambda s: [command], by)
        return self.view(tournament_id, round, table, player)

    # -- reads ---------------------------------------------------------------------------------
    def state_of(self, event: str) -> TournamentState | None:
        """The tournament whose id ``event`` is, or ``None`` for an event of the older matches
        model alone (``ledger.match_bridge``)."""
        if TOURNAMENT_ID.fullmatch(event) is None:
            return None
        try:
            return self._log.load(event).state
        except NotFound:
            return None

    def view(self, tournament_id: str, round: int, table: int, viewer: str | None = None) -> dict[str, Any]:
        """The report form of one match: its players, its state, the report waiting, the result,
        and the prefill from its games; ``viewer`` (a player) also gets what they may do."""
        head = self._log.load(tournament_id)
        state = head.state
        rnd = state.round(round)
        found = _table(state, round, table)
        if rnd is None or found is None:
            raise NotFound(f"round {round} has no table {table}", Code.UNKNOWN_TABLE)
        if viewer is not None:
            plays_in(viewer, found.players, f"round {round} table {table}")
        return {**self._form(tournament_id, state, rnd, found, viewer), "version": head.version}

    def mine(self, tournament_id: str, player: str) -> dict[str, Any]:
        """The player's match of the latest round they are paired in (``409`` codes otherwise)."""
        state = self._log.load(tournament_id).state
        if player not in state.players:
            raise NotFound(f"the tournament has no player {player!r}", Code.UNKNOWN_PLAYER)
        rnd = state.current_round
        if rnd is None:
            raise IllegalAction("no round has been paired yet", Code.NO_ROUND_IN_PLAY)
        found = rnd.table_of(player)
        if found is None:
            raise IllegalAction(f"{player!r} has no table in round {rnd.number}", Code.NOT_PAIRED_THIS_ROUND)
        return self.view(tournament_id, rnd.number, found.number, player)

    def waiting(self, tournament_id: str) -> dict[str, Any]:
        """Every match whose players' report waits or is disputed, disputes first."""
        head = self._log.load(tournament_id)
        rows = [
            {**self._form(tournament_id, head.state, rnd, t, None), "version": head.version}
            for rnd in head.state.rounds
            for t in rnd.tables
            if report_state(t) in (PENDING, DISPUTED)
        ]
        rows.sort(key=lambda r: (r["state"] != DISPUTED, r["round"], r["table"]))
        return {"reports": rows, "version": head.version}

    def _form(
        self, tournament_id: str, state: TournamentState, rnd: Round, table: Table, viewer: str | None
    ) -> dict[str, Any]:
        names = {p: state.players[p].name for p in table.players if p in state.players}
        report = table.report
        status = report_state(table)
        games, prefill = self._games(tournament_id, rnd.number, table)
        can: list[str] = []
        if viewer in table.players and state.players[viewer].active and state.settings is not None:
            if state.settings.kind != "commander" and status == OPEN:
                can.append("report")
            elif status == PENDING and report is not None and report.player != viewer:
                can += ["confirm", "dispute"]
        return {
            "tournament": tournament_id,
            "round": rnd.number,
            "table": table.number,
            "players": [{"player_id": p, "name": names.get(p, p)} for p in table.players],
            "best_of": state.settings.best_of if state.settings is not None else 3,
            "state": status,
            "report": None
            if report is None
            else {
                "player": report.player,
                "wins": dict(zip(table.players, report.games, strict=True)),
                "draws": report.draws,
                "disputed_by": report.disputed_by,
                "note": report.note,
            },
            "result": None
            if table.result is None
            else {"wins": dict(zip(table.players, table.result.games, strict=True)), "draws": table.result.draws},
            "prefill": prefill,
            "games": games,
            "you": viewer,
            "can": can,
        }

    def _games(self, tournament_id: str, round: int, table: Table) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The match's games as the ledger recorded them, and the score they add up to."""
        wins = {p: 0 for p in table.players}
        draws = 0
        games: list[dict[str, Any]] = []
        for number in range(1, MAX_GAMES + 1):
            game_id = game_id_of(tournament_id, round, table.number, number)
            try:
                _, game = self._game_read(game_id)
            except NotFound:
                break
            result = game.result
            winners = list(result.winners) if result is not None else []
            finished = game.status == "finished"
            games.append({"game_id": game_id, "status": game.status, "winners": winners})
            if not finished:
                continue
            if len(winners) == 1 and winners[0] in wins:
                wins[winners[0]] += 1
            else:
                draws += 1
        return games, {"wins": wins, "draws": draws}


def _table(state: TournamentState, round: int, table: int) -> Table | None:
    rnd = state.round(round) if isinstance(round, int) else None
    return rnd.table(table) if rnd is not None and isinstance(table, int) else None
