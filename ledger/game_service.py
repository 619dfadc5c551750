"""``GameService``: the commands of one database's games (create, act, undo).

Each command loads what its decision needs, lets ``domain`` decide (``domain.setup.game_started``,
``domain.decide.run_as``, ``domain.undo.decide_undo``) and hands the decision to the one write
path (``ledger.write_path``), which seals and saves it. The permission check of a token's grant
runs inside the decision, on the very state the command is decided on: a player's permission is
checked against the version the action is appended to, never a read made a moment earlier
(docs/operations.md, Several workers).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any
from uuid import uuid4

from domain.cards.catalog import Catalog
from domain.commands import ChooseFirstPlayer, Command
from domain.commands.bodies.create import GameCreateBody
from domain.decide import run_as
from domain.errors import Code, Conflict, InvalidCommand
from domain.setup import game_started
from domain.state import GameState
from domain.tournament.match_games import MatchGame
from domain.undo import BOUNDARY_WINDOW, Entry, Undo, decide_undo, is_action, reaches, reverted_versions
from ledger.clock import Now
from ledger.write_path import GameDecision, Submission, VersionTaken, WritePath, game_result
from store.aggregate import Game
from store.records import GameEvent
from store.repository import GameRepository, is_game_id
from store.results import ActionResult, Actor
from store.streams import Streams

CREATE_BATCH = 250
"""A round's games saved per transaction (``create_many``)."""
UNDO_HISTORY_PAGE = 256
"""Events read per page of the log's tail for "undo the last N actions" (read at each undo, so a
test can make the pages small)."""


def with_random_pick(command: Command, state: GameState) -> Command:
    """A random first player (CR 103.1) is the server's pick, drawn here with ``secrets`` (the
    domain never rolls: its decision stays a function of the command and the state, and the event
    records who was picked). Drawn anew each time a decision runs: only the stored one counts."""
    if isinstance(command, ChooseFirstPlayer) and command.player is None:
        players = [p.id for p in state.in_game()]
        if players:
            return replace(command, drawn=secrets.choice(players))
    return command


def _moment(recorded: str) -> datetime:
    """A recorded time (``ledger.clock.rfc3339``) as a moment."""
    return datetime.fromisoformat(recorded.replace("Z", "+00:00"))


class GameService:
    """The games of one ledger application: create, act, undo."""

    def __init__(self, streams: Streams, games: GameRepository, writes: WritePath, catalog: Catalog, now: Now) -> None:
        self._streams = streams
        self._games = games
        self._writes = writes
        self._catalog = catalog
        self._now = now
        """The ledger's clock (as recorded): a player's quick undo is timed by it."""

    def create_game(
        self, body: dict[str, Any] | GameCreateBody, game_id: str | None, submission: Submission
    ) -> ActionResult:
        """Create a game from docs/api.md's create body; the server picks ``g-<12 hex>`` if no id
        is given. ``Conflict(game_exists)`` if the id is taken."""
        for _ in range(3):
            gid = game_id if game_id is not None else f"g-{uuid4().hex[:12]}"
            if not is_game_id(gid):
                raise InvalidCommand(
                    f"game id {gid!r} must be 1-100 letters, digits or _.:- and start with a letter or digit",
                    Code.INVALID_GAME_ID,
                )
            try:
                started = game_started(body, gid, self._catalog.resolve)
                return game_result(self._writes.start(gid, [started], submission))
            except VersionTaken:
                if game_id is None:
                    continue  # a server-chosen id collided: pick another
                raise Conflict(f"a game {gid!r} already exists", Code.GAME_EXISTS) from None
        raise Conflict("could not find a free game id", Code.GAME_EXISTS)  # pragma: no cover

    def create_many(self, games: Sequence[MatchGame], actor: Actor) -> list[str]:
        """Create a tournament round's games (typed ``MatchGame`` values, not bodies to parse),
        ``CREATE_BATCH`` to a transaction, in order; the ids created. A re-run after a crash
        skips what was made: a batch is all or nothing, so one whose last game exists is done,
        and one whose first exists but not its last (made one by one when it met a game made
        before) is finished one by one."""
        created: list[str] = []
        for at in range(0, len(games), CREATE_BATCH):
            batch = games[at : at + CREATE_BATCH]
            if self._streams.exists(batch[-1].game_id):
                continue
            starts = [(g.game_id, [game_started(g.body, g.game_id, self._catalog.resolve)]) for g in batch]
            if not self._streams.exists(batch[0].game_id):
                try:
                    created += self._writes.start_many(starts, actor)
                    continue
                except VersionTaken:
                    pass  # another process is completing the same round
            for game_id, events in starts:
                try:
                    self._writes.start(game_id, events, Submission(actor))
                except VersionTaken:
                    continue  # made before the crash this run completes
                created.append(game_id)
        return created

    def act(self, game_id: str, command: Command, submission: Submission) -> ActionResult:
        """Decide ``command`` against the head (``domain.decide.run_as``: the submitter's grant
        first, on the same state) and append its events."""
        grant = submission.grant

        def decide(game: Game) -> GameDecision:
            return run_as(grant, game.state, with_random_pick(command, game.state))

        return game_result(self._writes.decide_and_append(game_id, decide, submission))

    def undo(self, game_id: str, command: Undo, submission: Submission) -> ActionResult:
        """Append one ``ActionsReverted`` (``domain.undo.decide_undo``) taking the game back to
        ``command.target``: this loads the log's tail, the window around the target and the
        state there; the decision says whether the backup is allowed and what it reverts (a
        player token's quick undo is timed by the ledger's clock, read here: the domain has none)."""
        grant = submission.grant

        def decide(game: Game) -> GameDecision:
            history = self._undo_history(game, command.count) if command.to_version is None else []
            target = command.target(history)
            window: list[Entry] = []
            at_target = None
            if reaches(target, game.version):
                stored = self._games.stored(game.id, gt=max(0, target - BOUNDARY_WINDOW), lte=game.version)
                window = [
                    Entry(
                        e.originator_version,
                        e.event_class,
                        e.action_id,
                        data=e.data,
                        actor=(e.actor["name"], e.actor["role"]),
                        actor_token=e.actor.get("token"),
                        recorded_at=_moment(e.recorded_at),
                    )
                    for e in stored
                ]
                at_target = self._games.at(game, target).state
            now = _moment(self._now())
            return [decide_undo(command, target, game.version, game.state, window, at_target, grant, now)], None

        return game_result(self._writes.decide_and_append(game_id, decide, submission))

    def _undo_history(self, game: Game, actions: int) -> list[Entry]:
        """Enough of the log's tail for ``Undo.target``: read backwards until it holds more live
        actions than asked for (or the whole log), plus every revert (known from the head), so
        the reverted flags it computes are exact."""
        entries = {e.version: e for e in game.reverts}
        flagged = reverted_versions(game.reverts)
        live_actions: set[str] = set()
        below = game.version
        while below >= 1 and len(live_actions) <= actions:
            page = [
                e
                for e in self._streams.read(game.id, lte=below, desc=True, limit=UNDO_HISTORY_PAGE)
                if isinstance(e, GameEvent)
            ]
            if not page:
                break
            for e in page:
                entries[e.originator_version] = Entry(
                    e.originator_version, e.event_class, e.action_id, tuple(e.data.get("reverted_versions") or ())
                )
                if e.originator_version not in flagged and is_action(e.event_class):
                    live_actions.add(e.action_id)
            below = page[-1].originator_version - 1
        return sorted(entries.values(), key=lambda e: e.version)
