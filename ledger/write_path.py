"""The one path of everything that appends to a game: decide on the head, seal, save.

A command arrives with its ``Submission`` (who sends it, the If-Match version, the
Idempotency-Key) and a decision, a pure function of the game (``ledger.game_service`` builds it
from ``domain.decide.run_as`` or ``domain.undo.decide_undo``). The decision runs against the
game's head as this process has it cached, with no read at all, and everything the command caused
is appended in ONE ``save()`` (each event sealed into the hash chain, ``store.hash_chain``). The
state the decision built (``domain.decide.run`` folds each event as it emits it) becomes the new
head: an action's events are folded once.

Why deciding on a cached head is safe: the save inserts the next version, and the database lets
only one writer have it (the version is the optimistic-concurrency token). If another process got
there first the head was stale (``store.errors.VersionClash``); the game is then loaded afresh and
decided once more. Anything that ends without a save (a refusal, a command that changes nothing,
an ``If-Match`` that does not match) would not be checked by the database, so it is only believed
of a fresh head: decided on a cached one, it is tried again on a fresh load first. A clash on a
fresh head, or under ``If-Match`` (which pins the version), is ``Conflict(version_conflict)``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from uuid import uuid4

from domain.errors import Code, Conflict, GameError
from domain.permissions import Grant
from domain.state import GameState
from ledger.clock import Now
from ledger.idempotency import IdempotencyRecords
from store.aggregate import Game, project_game
from store.application import LedgerApplication
from store.errors import VersionClash
from store.group_commit import Saver
from store.hash_chain import GENESIS_HASH, Sealable, seal
from store.records import GameEvent, IdempotencyKeyClaimed
from store.repository import GameRepository, recorded
from store.results import ActionResult, Actor

log = logging.getLogger("mtg_ledger.store")

Decision = tuple[Sequence[Sealable], GameState | None]
"""The events a command causes and, when the decision folded them already, the state after."""
Decide = Callable[[Game], Decision]
"""A command's decision against a game's head (it raises a ``GameError`` to refuse)."""


@dataclass(frozen=True, slots=True)
class Submission:
    """How a write arrives: who sends it, the version it expects, its Idempotency-Key."""

    by: Actor | Grant
    """An ``Actor`` is a caller the ledger trusts (the CLI, an import, a test) and is recorded as
    given; a ``Grant`` is a token's, checked inside the decision (``domain.permissions``)."""
    expected_version: int | None = None
    """``If-Match``: the head must be at this version, or ``Conflict(version_conflict)``."""
    idempotency_key: str | None = None
    """Claimed in the same atomic save as the events (``ledger.idempotency``)."""
    fingerprint: str | None = None
    """What the request was (method, path, body digest), stored with the key's claim."""

    @property
    def actor(self) -> Actor:
        """Who the stored events name as their actor."""
        return self.by if isinstance(self.by, Actor) else Actor(self.by.name, self.by.role)

    @property
    def grant(self) -> Grant | None:
        """The token's grant the decision checks (``None``: a trusted caller)."""
        return self.by if isinstance(self.by, Grant) else None


class VersionTaken(Exception):
    """The save found the next version taken: the head it was decided on had moved on."""


class WritePath:
    """Decides, seals and saves the actions of one database's games (see the module docstring)."""

    def __init__(
        self,
        app: LedgerApplication,
        games: GameRepository,
        idempotency: IdempotencyRecords,
        now: Now,
        *,
        snapshot_interval: int,
        saver: Saver | None = None,
        check_heads: bool = False,
    ) -> None:
        self._app = app
        self._games = games
        self._idempotency = idempotency
        self._now = now
        self._snapshot_interval = snapshot_interval
        self._saver: Saver = saver if saver is not None else app
        self._check_heads = check_heads

    def start(self, game_id: str, started: Sealable, submission: Submission) -> ActionResult:
        """Store a new game's first event (version 1); ``VersionTaken`` if the id is taken."""
        stored = self._seal(game_id, 0, GENESIS_HASH, [started], submission.actor)
        claim = self._claim(submission, stored)
        self._save(stored, claim)
        game = project_game(None, stored)  # the game's first and only fold of its first event
        assert game is not None
        self._games.remember(game)
        return ActionResult(game_id, stored[0].action_id, 1, [recorded(stored[0])], game.state, claim is not None)

    def decide_and_append(self, game_id: str, decide: Decide, submission: Submission) -> ActionResult:
        """Decide on the cached head, save; on a stale head decide once more on a fresh load.

        With ``check_heads`` the cached head is first brought up to date (the library's
        repository reads only the events stored after it: none, usually): with several
        processes writing one SQLite file, a head another process moved on would otherwise fail
        the whole group transaction it is saved in. A head the head watch marked ``behind``
        (PostgreSQL) is brought up to date the same way. It is still not ``fresh``: another
        process may store between this read and the save, and that clash is retried like any
        other."""
        expected = submission.expected_version
        game = self._games.cached(game_id)
        fresh = game is None
        if game is None or self._check_heads or self._games.behind(game_id):
            game = self._games.load(game_id, first_action_here=fresh)  # a cached head is only brought up to date
        while True:
            try:
                _check_expected(game, expected)
                events, state = decide(game)
            except GameError:
                if fresh:
                    raise
                game, fresh = self._games.load(game_id), True  # the refusal may be the stale head's
                continue
            if not events and not fresh:
                game, fresh = self._games.load(game_id), True
                continue
            if not events:
                return ActionResult(game.id, str(uuid4()), game.version, [], game.state)
            try:
                return self._append(game, events, state, submission)
            except VersionTaken:
                if fresh or expected is not None:
                    raise Conflict(
                        f"game {game.id!r} moved on from version {game.version} while this action was decided; "
                        "reload the game and try again",
                        Code.VERSION_CONFLICT,
                    ) from None
                game, fresh = self._games.load(game_id), True

    def _append(
        self, game: Game, events: Sequence[Sealable], state: GameState | None, submission: Submission
    ) -> ActionResult:
        stored = self._seal(game.id, game.version, game.last_hash, events, submission.actor)
        claim = self._claim(submission, stored)
        self._save(stored, claim)
        # The decision already folded its events into ``state``; only an undo (decided without
        # a fold) folds its one event here.
        new = game.after(stored, state) if state is not None else project_game(game, stored)
        assert new is not None
        self._games.remember(new)
        self._snapshot_if_due(game.version, new)
        return ActionResult(
            game.id, stored[0].action_id, new.version, [recorded(e) for e in stored], new.state, claim is not None
        )

    def _seal(
        self, game_id: str, after: int, prev_hash: str, events: Sequence[Sealable], actor: Actor
    ) -> list[GameEvent]:
        """Stored events for one action: versions after ``after``, one action id, one time."""
        return seal(
            game_id,
            events,
            after=after,
            prev_hash=prev_hash,
            action_id=str(uuid4()),
            actor=actor.to_json(),
            recorded_at=self._now(),
        )

    def _claim(self, submission: Submission, stored: Sequence[GameEvent]) -> IdempotencyKeyClaimed | None:
        if submission.idempotency_key is None:
            return None
        last = stored[-1]
        return self._idempotency.claim(
            submission.idempotency_key,
            submission.fingerprint or "",
            last.originator_id,
            last.action_id,
            last.originator_version,
        )

    def _save(self, stored: Sequence[GameEvent], claim: IdempotencyKeyClaimed | None) -> None:
        """One atomic save: every event of the action (and the key's claim) or nothing; through
        the group committer (``store.group_commit``), in one transaction with the saves of
        other games' actions that arrive with it, answered once that transaction is durable."""
        try:
            self._saver.save(*stored, *([claim] if claim is not None else []))
        except VersionClash:
            if self._stored_already(stored):  # an earlier try of this very save committed
                first, last = stored[0], stored[-1]
                log.warning(
                    "game %s: versions %d-%d were stored, their save's answer was lost (failover?): answered once",
                    first.originator_id,
                    first.originator_version,
                    last.originator_version,
                )
                return
            if claim is not None:
                clash = self._idempotency.clash(claim)
                if clash is not None:
                    raise clash from None
            raise VersionTaken from None

    def _stored_already(self, stored: Sequence[GameEvent]) -> bool:
        """Whether the log holds ``stored`` itself at its first version. A save whose connection
        died during the commit (a failover) is tried again by the recorder, and when the first
        try had committed the retry clashes with it: that is this action, stored once, not a
        stale head to decide again (which would store it twice). The action id is drawn anew
        for every decision, so finding it there proves it."""
        first = stored[0]
        version = first.originator_version
        found = list(self._app.events.get(first.originator_id, gt=version - 1, lte=version))
        return bool(found) and getattr(found[0], "action_id", None) == first.action_id

    def _snapshot_if_due(self, before: int, game: Game) -> None:
        """A snapshot whenever the head crosses a multiple of the interval (taken from the state in
        hand, so it costs no replay). Losing one only costs replay time, so failures are logged."""
        interval = self._snapshot_interval
        if interval <= 0 or game.version // interval == before // interval:
            return
        assert self._app.snapshots is not None
        try:
            self._app.snapshots.put([game.snapshot()])
        except VersionClash:
            pass  # another writer's snapshot of the same version
        except Exception:  # pragma: no cover - a snapshot is an optimisation, never a failure
            log.exception("snapshot of %s at %d failed", game.id, game.version)


def _check_expected(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            f"game {game.id!r} is at version {game.version}, not {expected_version} (If-Match)", Code.VERSION_CONFLICT
        )
