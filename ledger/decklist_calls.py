"""The decklist cross-check's judge calls (issue 42): a card a tournament game's record names as
a player's that is not on their registered list opens a real judge call in that game, the same
``CallJudge`` a player's ``POST /v1/games/{id}/judge-calls`` records, so it is in the game's
state (``state.judging.calls``), on the judges' page (``GET /v1/judge-calls``) and in the
open-calls count. Never a penalty by itself: a judge answers it (IPG 3.5 is theirs to decide).

Where it runs, and why: right after each write of a game (``LedgerService.act``), in the process
that wrote it. Not in ``domain`` (pure: the lists are the tournament's, another stream) and not
as a follower of the log: the writer has the game's new state in hand, so a game that is not a
tournament's, or whose event has no decklists, costs no query at all (the tournament's head is
the cached one, ``TournamentLog.recent``); a game that is, costs one read of the events stored
since this process last checked it (``DecklistService.scan``).

Exactly once per (game, player, card), with retries, several workers and restarts: each call is
written with a deterministic Idempotency-Key claimed in the same atomic save as its event, so of
two processes racing only one stores it (the other's save fails on the key); a process that
restarts re-reads the game's record and finds the call there (by its question) or the key taken.
A crash between a game's write and its check is healed by the game's next write, which scans
from where this process stopped (the whole record after a restart).

The open-calls cap (``domain.judging.MAX_OPEN_CALLS``) is per caller: these calls are the cross-
check's (``CALLER``), so they never use up a player's. When the cross-check has the most open in
one game, the next waits (``too_many_open_calls`` is not an error here) and is opened at the
game's first write after a judge answers one (the answer is such a write).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

from domain.commands.judging import CallJudge
from domain.errors import Code, Conflict, GameError, IllegalAction, NotFound
from domain.state import GameState
from domain.tournament.match_games import game_id_of
from ledger.decklist_questions import CALLER, call_question, opened_call
from ledger.decklist_service import DecklistService
from ledger.write_path import Submission
from store.results import ActionResult, Actor

log = logging.getLogger("mtg_ledger.decklists")

ACTOR = Actor(CALLER, "scorekeeper")
FINGERPRINT = "decklist-cross-check"

OpenCall = Callable[[str, CallJudge, Submission], ActionResult]
"""Appends one command to a game through the one write path (never ``LedgerService.act``
itself, which would check again)."""


def call_key(game_id: str, player: str, card: str) -> str:
    """The deterministic Idempotency-Key of one (game, player, card) call."""
    digest = hashlib.sha256(f"{game_id}\n{player}\n{card.casefold()}".encode()).hexdigest()
    return f"decklist-cross-check/{digest}"


class CrossCheckCalls:
    """Opens the judge calls of the cross-check after a game's writes."""

    def __init__(self, decklists: DecklistService, open_call: OpenCall) -> None:
        self._decklists = decklists
        self._open_call = open_call
        self._done: set[str] = set()
        """Keys this process knows are stored (a cache: the key itself is the guarantee)."""

    def after_write(self, game_id: str, state: GameState) -> None:
        """Check the game after one of its writes; never fails the write that called it."""
        try:
            self._check(game_id, state)
        except Exception:  # the player's action is stored: the next write checks again
            log.exception("decklist cross-check of %s failed", game_id)

    def _check(self, game_id: str, state: GameState) -> None:
        tag: dict[str, Any] = dict(state.tournament or {})
        event, rnd, table = tag.get("event"), tag.get("round"), tag.get("table")
        if not (isinstance(event, str) and isinstance(rnd, int) and isinstance(table, int)):
            return  # not a tournament's game: no query at all
        if not game_id.startswith(game_id_of(event, rnd, table, 0)[:-1]):
            return  # tagged with an event, but not one of its pairings' games
        try:
            tournament = self._decklists.recent(event)
        except (NotFound, GameError):
            return
        if not tournament.decklists.lists:
            return  # the event has no decklists: the usual case, one dict lookup
        if not 1 <= rnd <= len(tournament.rounds) or not 1 <= table <= len(tournament.rounds[rnd - 1].tables):
            return
        players = tournament.rounds[rnd - 1].tables[table - 1].players
        for m in self._decklists.scan(tournament, game_id, players):
            key = call_key(game_id, m.player, m.card)
            if key in self._done:
                continue
            entry = tournament.players.get(m.player)
            question = call_question(m, entry.name if entry is not None else m.player)
            if opened_call(state, question) is None and not self._open(game_id, question, key):
                continue
            self._done.add(key)

    def _open(self, game_id: str, question: str, key: str) -> bool:
        """Open one call; whether it is stored now (by this or another process)."""
        try:
            self._open_call(game_id, CallJudge(CALLER, question), Submission(ACTOR, None, key, FINGERPRINT))
        except Conflict as err:
            if err.code in (Code.IDEMPOTENCY_IN_PROGRESS, Code.IDEMPOTENCY_KEY_REUSED):
                return True  # another process (or an earlier life of this one) opened it
            raise
        except IllegalAction as err:
            if err.code == Code.TOO_MANY_OPEN_CALLS:
                return False  # waits for a judge to answer one (see the module docstring)
            raise
        return True
