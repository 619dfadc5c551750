"""Decklists (issue 42): registration, the deadline and the lock, deck checks, the cross-check
of the games' records against the lists, publication and exports.

Each write is one decision on the tournament's stream through the one writer
(``ledger.tournaments.TournamentLog``): ``domain.tournament.decklists`` decides, the events are
sealed in the tournament's hash chain with who and when, an Idempotency-Key is claimed in the
same save, and a refusal stores nothing. The card facts a list is checked against come from the
catalog (``ledger.decklist_catalog``).

The cross-check is a read model over the games' logs kept in this process: per game, the
version read up to and the mismatches found (``domain.tournament.decklists_crosscheck``); a
read reads only the events stored since, so a restart rebuilds it from the log.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.decklist_permissions import own_event_link, sees_decklist
from domain.errors import Code, NotFound
from domain.permissions import Grant
from domain.state import GameState
from domain.tournament import TournamentState
from domain.tournament.decklists_commands import (
    LockDecklists,
    PickDeckChecks,
    PublishDecklists,
    SetDecklistDeadline,
    SubmitDecklist,
)
from domain.tournament.decklists_crosscheck import Mismatch, check_event, game_number
from domain.tournament.decklists_legality import CardFacts, check_decklist
from domain.tournament.decklists_state import Decklist
from domain.tournament.decklists_text import Entry, decklist_to_text, parse_decklist
from domain.tournament.match_games import MAX_GAMES, game_id_of
from ledger.csv_cells import to_csv
from ledger.decklist_questions import call_question, opened_call
from ledger.tournaments import TournamentLog, new_seed
from ledger.write_path import Submission
from store.results import RecordedEvent

GameRead = Callable[[str], tuple[int, GameState]]
GameEvents = Callable[[str, int, int], list[RecordedEvent]]
PAGE = 1000
EXPORT_COLUMNS = ("player", "name", "section", "count", "card")


def _lines(entries: tuple[Entry, ...]) -> list[dict[str, Any]]:
    return [{"count": e.count, "name": e.name} for e in entries]


def decklist_json(state: TournamentState, dl: Decklist) -> dict[str, Any]:
    entry = state.players.get(dl.player)
    return {
        "player": dl.player,
        "name": entry.name if entry is not None else dl.player,
        "main": _lines(dl.main),
        "sideboard": _lines(dl.sideboard),
        "commander": _lines(dl.commander),
        "main_count": sum(e.count for e in (*dl.main, *dl.commander)),
        "sideboard_count": sum(e.count for e in dl.sideboard),
        "text": decklist_to_text(dl.main, dl.sideboard, dl.commander),
        "submitted_at": dl.at,
        "submitted_by": dl.by,
        "submissions": dl.submissions,
        "version": dl.version,
    }


class DecklistService:
    """Every decklist operation of the facade."""

    def __init__(self, log: TournamentLog, clock: Callable[[], datetime], game_read: GameRead, events: GameEvents):
        self._log = log
        self._clock = clock
        self._game_read = game_read
        self._events = events
        self.card_facts: Mapping[str, CardFacts] = {}
        """Set once at start-up from the catalog files (``ledger.decklist_catalog``)."""
        self._scans: dict[str, _Scan] = {}
        self._lock = threading.Lock()

    # -- writes --------------------------------------------------------------------------------
    def submit(self, tournament_id: str, player: str, text: str, by: Submission) -> dict[str, Any]:
        at = self._clock().isoformat()
        command = SubmitDecklist(player=player, text=text, at=at, by=by.actor.name, catalog=self.card_facts)
        written = self._log.write(tournament_id, lambda s: [command], by)
        state = written.state
        found = state.decklists.lists[player]
        # The warnings (cards the catalog has no legality for) are not stored: read them again.
        settings = state.settings
        assert settings is not None
        checked = check_decklist(parse_decklist(text), settings.format, settings.kind, self.card_facts)
        return {**decklist_json(state, found), "warnings": list(checked.warnings), "version": written.version}

    def set_deadline(self, tournament_id: str, deadline: str | None, by: Submission) -> dict[str, Any]:
        command = SetDecklistDeadline(deadline=deadline, by=by.actor.name)
        written = self._log.write(tournament_id, lambda s: [command], by)
        return {**self._settings(written.state), "version": written.version}

    def lock(self, tournament_id: str, locked: bool, by: Submission) -> dict[str, Any]:
        written = self._log.write(tournament_id, lambda s: [LockDecklists(locked=locked, by=by.actor.name)], by)
        return {**self._settings(written.state), "version": written.version}

    def pick(self, tournament_id: str, round: int, tables: list[int], random: int, by: Submission) -> dict[str, Any]:
        seed = new_seed()
        command = PickDeckChecks(round=round, tables=tuple(tables), random=random, seed=seed, by=by.actor.name)
        written = self._log.write(tournament_id, lambda s: [command], by)
        pick = written.state.decklists.picks[-1]
        checks = [self._table_check(tournament_id, written.state, pick.round, t) for t in pick.tables]
        return {"round": pick.round, "how": pick.how, "seed": pick.seed, "tables": checks, "version": written.version}

    def publish(self, tournament_id: str, scope: str, by: Submission) -> dict[str, Any]:
        written = self._log.write(tournament_id, lambda s: [PublishDecklists(scope=scope, by=by.actor.name)], by)
        return {**self.public(tournament_id), "version": written.version}

    # -- reads ---------------------------------------------------------------------------------
    @staticmethod
    def _settings(state: TournamentState) -> dict[str, Any]:
        book = state.decklists
        return {
            "deadline": book.deadline,
            "locked": book.locked,
            "published": book.published is not None,
            "published_scope": book.published_scope,
            "submitted": sorted(book.lists, key=lambda p: int(p[1:]) if p[1:].isdigit() else 0),
        }

    def overview(self, tournament_id: str, grant: Grant) -> dict[str, Any]:
        """The settings and every list the caller may see (``sees_decklist``)."""
        head = self._log.load(tournament_id)
        state = head.state
        published = set(state.decklists.published or ())
        lists = [
            decklist_json(state, dl)
            for key, dl in sorted(state.decklists.lists.items(), key=lambda kv: int(kv[0][1:] or 0))
            if sees_decklist(grant, tournament_id, key, key in published)
        ]
        players = [
            {"player": p.key, "name": p.name, "submitted": p.key in state.decklists.lists}
            for p in sorted(state.players.values(), key=lambda p: p.index)
        ]
        return {
            **self._settings(state),
            "format": state.settings.format if state.settings else None,
            "players": players,
            "me": grant.player_id if own_event_link(grant, tournament_id, grant.player_id or "") else None,
            "decklists": lists,
            "version": head.version,
        }

    def one(self, tournament_id: str, player: str, grant: Grant) -> dict[str, Any]:
        state = self._log.load(tournament_id).state
        found = state.decklists.lists.get(player)
        published = player in (state.decklists.published or ())
        if found is None or not sees_decklist(grant, tournament_id, player, published):
            # Not seen and not there answer the same: a caller learns nothing of others' lists.
            raise NotFound(f"no decklist of {player!r} to show", Code.UNKNOWN_DECKLIST)
        return decklist_json(state, found)

    def public(self, tournament_id: str) -> dict[str, Any]:
        state = self._log.load(tournament_id).state
        book = state.decklists
        shown = [decklist_json(state, book.lists[p]) for p in book.published or () if p in book.lists]
        return {"published": book.published is not None, "scope": book.published_scope, "decklists": shown}

    def export_csv(self, tournament_id: str) -> str:
        """The published lists, one row per card line (``ledger.csv_cells``: no formula cells)."""
        rows = [
            {
                "player": dl["player"],
                "name": dl["name"],
                "section": section,
                "count": line["count"],
                "card": line["name"],
            }
            for dl in self.public(tournament_id)["decklists"]
            for section in ("commander", "main", "sideboard")
            for line in dl[section]
        ]
        return to_csv(EXPORT_COLUMNS, rows)

    # -- deck checks ---------------------------------------------------------------------------
    def _games(self, tournament_id: str, round: int, table: int) -> list[tuple[str, GameState]]:
        games: list[tuple[str, GameState]] = []
        for number in range(1, MAX_GAMES + 1):
            game_id = game_id_of(tournament_id, round, table, number)
            try:
                games.append((game_id, self._game_read(game_id)[1]))
            except NotFound:
                break
        return games

    def _table_check(self, tournament_id: str, state: TournamentState, round: int, table: int) -> dict[str, Any]:
        players = state.rounds[round - 1].tables[table - 1].players
        records = [
            {"game_id": gid, **dict(check)}
            for gid, game in self._games(tournament_id, round, table)
            for check in game.judging.deck_checks
        ]
        return {
            "table": table,
            "players": [
                {"player": p, "name": state.players[p].name, "decklist": p in state.decklists.lists} for p in players
            ],
            "game_id": game_id_of(tournament_id, round, table),
            "deck_checks": records,
        }

    def deck_checks(self, tournament_id: str) -> dict[str, Any]:
        """Every pick with its tables' players and the deck checks their games recorded."""
        state = self._log.load(tournament_id).state
        picks = [
            {
                "round": p.round,
                "how": p.how,
                "seed": p.seed,
                "by": p.by,
                "tables": [self._table_check(tournament_id, state, p.round, t) for t in p.tables],
            }
            for p in state.decklists.picks
        ]
        return {"picks": picks}

    # -- the cross-check -----------------------------------------------------------------------
    def mismatches(self, tournament_id: str) -> dict[str, Any]:
        """Cards the games' records showed that are not on their players' lists, newest round
        first, each with the judge call it opened in its game (``call``: ``None`` until it is;
        ``ledger.decklist_calls``)."""
        state = self._log.load(tournament_id).state
        found: list[dict[str, Any]] = []
        for rnd in reversed(state.rounds):
            for table in rnd.tables:
                for game_id, game in self._games(tournament_id, rnd.number, table.number):
                    for m in self.scan(state, game_id, table.players):
                        entry = state.players.get(m.player)
                        name = entry.name if entry else m.player
                        found.append(
                            {
                                **m.to_json(),
                                "round": rnd.number,
                                "table": table.number,
                                "name": name,
                                "call": opened_call(game, call_question(m, name)),
                            }
                        )
        return {"mismatches": found}

    def recent(self, tournament_id: str) -> TournamentState:
        """The tournament as this process has it (no query while it was read a moment ago)."""
        return self._log.recent(tournament_id).state

    def scan(self, state: TournamentState, game_id: str, players: tuple[str, ...]) -> list[Mismatch]:
        """The game's mismatches, reading only the events stored since the last scan here."""
        book = state.decklists
        with_sideboard = game_number(game_id) > 1
        lists = {p: book.lists[p].names(with_sideboard) for p in players if p in book.lists}
        stamp = tuple((p, book.lists[p].version) for p in players if p in book.lists)
        with self._lock:
            scan = self._scans.get(game_id)
            if scan is None or scan.lists != stamp:
                scan = _Scan(stamp)  # a list was (re)submitted: read the game again
            while True:
                page = self._events(game_id, scan.after, PAGE)
                for event in page:
                    if not event.reverted:  # a backed-up report is no evidence
                        scan.found += check_event(game_id, event.version, event.type, event.data, lists, scan.seen)
                    scan.after = event.version
                if len(page) < PAGE:
                    break
            self._scans[game_id] = scan
            return list(scan.found)


@dataclass
class _Scan:
    """How far one game's record was cross-checked, against which lists, and what it found."""

    lists: tuple[tuple[str, int], ...]
    after: int = 0
    seen: set[tuple[str, str]] = field(default_factory=set)
    found: list[Mismatch] = field(default_factory=list)
