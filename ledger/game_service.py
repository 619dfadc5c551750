"""``GameService``: create a game, act on it, undo, and read it back (state, events, timeline).

One request path for everything that appends. The command arrives parsed (the HTTP edge or the
caller turns a body into a ``domain.commands.Command``); the service decides it against the
game's head as this process has it cached, with no read at all, and appends everything the
command caused in ONE ``save()`` (each event sealed into the hash chain, ``store.hash_chain``).
The state the decision built (``domain.decide.run`` folds each event as it emits it) becomes the
new head: an action's events are folded once.

Why deciding on a cached head is safe: the save inserts the next version, and the database lets
only one writer have it (the version is the optimistic-concurrency token). If another process got
there first the head was stale; the service then loads the game afresh and decides once more.
Anything that ends without a save (a refusal, a command that changes nothing, an ``If-Match``
that does not match) would not be checked by the database, so it is only believed of a fresh
head: decided on a cached one, it is tried again on a fresh load first. A clash on a fresh head,
or under ``If-Match`` (which pins the version), is ``Conflict(version_conflict)``.

``authorize(state, command)`` runs inside the decision, on the very state the command is decided
on: a player's permission is checked against the version the action is appended to, never a read
made a moment earlier (docs/operations.md, Several workers).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple
from uuid import uuid4

from domain import events as ev
from domain.cards.catalog import Catalog
from domain.commands import Command
from domain.commands.bodies.create import GameCreateBody
from domain.decide import JUDGING, run
from domain.errors import Conflict, InvalidCommand, NotFound
from domain.evolve import evolve
from domain.judging import acknowledgement, check_no_game_ending_penalty, with_judging
from domain.setup import game_started
from domain.state import GameState
from domain.undo import (
    JUDGE_RECORDS,
    Entry,
    check_action_boundary,
    revert_event,
    reverted_versions,
    target_before_last_actions,
)
from ledger.clock import Now
from ledger.idempotency import IdempotencyRecords
from projections.timeline import timeline as timeline_groups
from store.aggregate import Game, project_game
from store.application import LedgerApplication
from store.errors import VersionClash
from store.group_commit import Saver
from store.hash_chain import GENESIS_HASH, Sealable, seal
from store.records import GameEvent, IdempotencyKeyClaimed
from store.repository import MAX_VERSION, GameRepository, is_game_id, recorded
from store.results import ActionResult, Actor, RecordedEvent

log = logging.getLogger("mtg_ledger.store")

MAX_EVENTS_PAGE = 1000


class TimelinePage(NamedTuple):
    """One page of the timeline and where the next one starts (``None``: at the head)."""

    groups: list[dict[str, Any]]
    next_after: int | None


UNDO_HISTORY_PAGE = 256
#: How far before an undo's target the boundary check reads (longer than any one action).
BOUNDARY_WINDOW = 512

Authorize = Callable[[GameState, Command], None]
"""A permission check on the command and the state it is decided on; raises to refuse."""
Decision = tuple[Sequence[Sealable], GameState | None]
"""The events a command causes and, when the decision folded them already, the state after."""


class _VersionTaken(Exception):
    """The save found the next version taken: the head the action was decided on had moved on."""


def int_arg(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidCommand(f"{name} must be an integer >= {minimum}, got {value!r}", "invalid_field")
    return value


class GameService:
    """The games of one ledger application: commands (create, act, undo) and queries."""

    def __init__(
        self,
        app: LedgerApplication,
        games: GameRepository,
        idempotency: IdempotencyRecords,
        catalog: Catalog,
        now: Now,
        *,
        snapshot_interval: int,
        undo_page: int = UNDO_HISTORY_PAGE,
        saver: Saver | None = None,
        check_heads: bool = False,
    ) -> None:
        self._app = app
        self._check_heads = check_heads
        self._saver: Saver = saver if saver is not None else app
        self._games = games
        self._idempotency = idempotency
        self._catalog = catalog
        self._now = now
        self._snapshot_interval = snapshot_interval
        self._undo_page = undo_page

    # -- commands ----------------------------------------------------------------------------
    def create_game(
        self,
        body: dict[str, Any] | GameCreateBody,
        actor: Actor,
        game_id: str | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        """Create a game from API.md's create body; the server picks ``g-<12 hex>`` if no id is
        given. ``Conflict(game_exists)`` if the id is taken."""
        chosen = game_id is not None
        for _ in range(3):
            gid = game_id if game_id is not None else f"g-{uuid4().hex[:12]}"
            if not is_game_id(gid):
                raise InvalidCommand(
                    f"game id {gid!r} must be 1-100 letters, digits or _.:- and start with a letter or digit",
                    "invalid_game_id",
                )
            start = game_started(body, gid, self._catalog.resolve)
            stored = self._seal(gid, 0, GENESIS_HASH, [start], actor)
            claim = self._claim(idempotency_key, request_fingerprint, stored)
            try:
                self._save(stored, claim)
            except _VersionTaken:
                if not chosen:
                    continue  # a server-chosen id collided: pick another
                raise Conflict(f"a game {gid!r} already exists", "game_exists") from None
            game = project_game(None, stored)  # the game's first and only fold of its first event
            assert game is not None
            self._games.remember(game)
            return ActionResult(gid, stored[0].action_id, 1, [recorded(stored[0])], game.state, claim is not None)
        raise Conflict("could not find a free game id", "game_exists")  # pragma: no cover

    def act(
        self,
        game_id: str,
        command: Command,
        actor: Actor,
        expected_version: int | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
        authorize: Authorize | None = None,
        reporter: str | None = None,
    ) -> ActionResult:
        """Decide ``command`` against the head (``authorize`` first, on the same state) and
        append its events. A ``reporter`` (a player token's player) whose action changes another
        player's side has it marked unacknowledged (``domain.judging.acknowledgement``).
        ``expected_version`` (If-Match) must equal the head or ``Conflict(version_conflict)``;
        ``idempotency_key`` is claimed in the same atomic save (see ``ledger.idempotency``)."""

        def decide(game: Game) -> Decision:
            if authorize is not None:
                authorize(game.state, command)
            events, state = run(game.state, command)
            if reporter is not None and not isinstance(command, JUDGING):
                pending = acknowledgement(game.state, state, reporter)
                if pending is not None:
                    events, state = [*events, pending], evolve(state, pending)
            return events, state

        return self._decide_and_append(game_id, decide, actor, expected_version, idempotency_key, request_fingerprint)

    def undo(
        self,
        game_id: str,
        *,
        to_version: int | None = None,
        actions: int | None = None,
        reason: str,
        actor: Actor,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
        authorize_backup: Callable[[GameState], None] | None = None,
    ) -> ActionResult:
        """Append one ``ActionsReverted`` taking the game back to ``to_version``, or to just before
        the last ``actions`` live actions (default 1). Redo is an undo of the undo.

        ``to_version`` must end an action (``not_an_action_boundary``); judge records after it
        stay live and in the restored state; ``authorize_backup`` checks the caller against the
        head's state (a head judge at Competitive REL, ``domain.judging``)."""
        if to_version is not None and actions is not None:
            raise InvalidCommand("undo: give either 'to_version' or 'actions', not both", "invalid_field")
        if not isinstance(reason, str):
            raise InvalidCommand(f"undo: 'reason' must be a string, got {reason!r}", "invalid_field")
        count = int_arg("actions", 1 if actions is None else actions, 1) if to_version is None else 0
        target_asked = int_arg("to_version", to_version, 0) if to_version is not None else None

        def decide(game: Game) -> Decision:
            target = target_asked
            if target is None:
                target = target_before_last_actions(self._undo_history(game, count), count)
            if not 1 <= target < game.version:
                return [revert_event(game.version, target, reason, game.state)], None  # refused there
            after = self._games.stored(game.id, gt=max(0, target - BOUNDARY_WINDOW), lte=game.version)
            entries = [Entry(e.originator_version, e.type, e.action_id) for e in after]
            check_action_boundary(entries, target)
            if authorize_backup is not None:
                authorize_backup(game.state)
            kept = [e.version for e in entries if e.version > target and e.type in JUDGE_RECORDS]
            check_no_game_ending_penalty([(e.originator_version, e.type, e.data) for e in after], target)
            restored = with_judging(self._games.at(game, target).state, game.state)
            return [revert_event(game.version, target, reason, restored, kept)], None

        return self._decide_and_append(game_id, decide, actor, expected_version, idempotency_key, request_fingerprint)

    # -- the request path --------------------------------------------------------------------
    def _decide_and_append(
        self,
        game_id: str,
        decide: Callable[[Game], Decision],
        actor: Actor,
        expected_version: int | None,
        key: str | None,
        fingerprint: str | None,
    ) -> ActionResult:
        """Decide on the cached head, save; on a stale head decide once more on a fresh load.

        With ``check_heads`` the cached head is first brought up to date (the library's
        repository reads only the events stored after it: none, usually): with several
        processes writing one SQLite file, a head another process moved on would otherwise fail
        the whole group transaction it is saved in. A head the head watch marked ``behind``
        (PostgreSQL) is brought up to date the same way. It is still not ``fresh``: another process
        may store between this read and the save, and that clash is retried like any other."""
        game = self._games.cached(game_id)
        fresh = game is None
        if game is None or self._check_heads or self._games.behind(game_id):
            game = self._games.load(game_id, first_action_here=fresh)  # a cached head is only brought up to date
        while True:
            try:
                _check_expected(game, expected_version)
                events, state = decide(game)
            except Exception:
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
                return self._append(game, events, state, actor, key, fingerprint)
            except _VersionTaken:
                if fresh or expected_version is not None:
                    raise Conflict(
                        f"game {game.id!r} moved on from version {game.version} while this action was decided; "
                        "reload the game and try again",
                        "version_conflict",
                    ) from None
                game, fresh = self._games.load(game_id), True

    def _append(
        self,
        game: Game,
        events: Sequence[Sealable],
        state: GameState | None,
        actor: Actor,
        key: str | None,
        fingerprint: str | None,
    ) -> ActionResult:
        stored = self._seal(game.id, game.version, game.last_hash, events, actor)
        claim = self._claim(key, fingerprint, stored)
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

    def _claim(
        self, key: str | None, fingerprint: str | None, stored: Sequence[GameEvent]
    ) -> IdempotencyKeyClaimed | None:
        if key is None:
            return None
        last = stored[-1]
        return self._idempotency.claim(
            key, fingerprint or "", last.originator_id, last.action_id, last.originator_version
        )

    def _save(self, stored: Sequence[GameEvent], claim: IdempotencyKeyClaimed | None) -> None:
        """One atomic save: every event of the action (and the key's claim) or nothing; through
        the group committer (``store.group_commit``), in one transaction with the saves of
        other games' actions that arrive with it, answered once that transaction is durable."""
        try:
            self._saver.save(*stored, *([claim] if claim is not None else []))
        except VersionClash:
            if claim is not None:
                clash = self._idempotency.clash(claim)
                if clash is not None:
                    raise clash from None
            raise _VersionTaken from None

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

    def _undo_history(self, game: Game, actions: int) -> list[Entry]:
        """Enough of the log's tail for ``target_before_last_actions``: read backwards until it
        holds more live actions than asked for (or the whole log), plus every revert (known from
        the head), so the reverted flags it computes are exact."""
        entries = {e.version: e for e in game.reverts}
        flagged = reverted_versions(game.reverts)
        live_actions: set[str] = set()
        below = game.version
        while below >= 1 and len(live_actions) <= actions:
            page = [
                e
                for e in self._app.events.get(game.id, lte=below, desc=True, limit=self._undo_page)
                if isinstance(e, GameEvent)
            ]
            if not page:
                break
            for e in page:
                entries[e.originator_version] = Entry(
                    e.originator_version, e.type, e.action_id, tuple(e.data.get("reverted_versions") or ())
                )
                if e.originator_version not in flagged and e.type != ev.GAME_STARTED and e.type not in JUDGE_RECORDS:
                    live_actions.add(e.action_id)
            below = page[-1].originator_version - 1
        return sorted(entries.values(), key=lambda e: e.version)

    # -- queries -----------------------------------------------------------------------------
    def head_version(self, game_id: str) -> int:
        return self._games.load(game_id).version

    def state_at(self, game_id: str, version: int | None = None) -> tuple[int, GameState]:
        """``(version, state)`` at ``version`` (the head when ``None``); replays at most one
        snapshot interval. ``NotFound(unknown_version)`` outside 1..head."""
        if version is None:
            game = self._games.load(game_id)
            return game.version, game.state
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= MAX_VERSION:
            head = self._games.load(game_id).version
            raise NotFound(f"game {game_id!r} has versions 1..{head}, not {version!r}", "unknown_version")
        return version, self._games.version(game_id, version).state

    def events(self, game_id: str, after: int = 0, limit: int = 100) -> list[RecordedEvent]:
        """Events after version ``after`` (at most ``limit``, up to 1000), with reverted flags."""
        after = int_arg("after", after, 0)
        limit = int_arg("limit", limit, 1)
        game = self._games.load(game_id)
        if after >= game.version:
            return []  # also keeps an integer past the database's range out of the query
        flagged = reverted_versions(game.reverts)
        stored = self._games.stored(game_id, gt=after, lte=game.version, limit=min(limit, MAX_EVENTS_PAGE))
        return [recorded(e, e.originator_version in flagged) for e in stored]

    def boundaries(self, game_id: str) -> list[dict[str, Any]]:
        """The game's actions, oldest first: ``{"action_id", "first", "last", "reverted",
        "judge_record"}``. A backup's ``to_version`` is some action's ``last``; the page's
        slider and the timeline step by them (docs/judges.md)."""
        game = self._games.load(game_id)
        flagged = reverted_versions(game.reverts)
        out: list[dict[str, Any]] = []
        for e in self._games.stored(game_id, lte=game.version):
            v = e.originator_version
            if out and out[-1]["action_id"] == e.action_id:
                out[-1]["last"] = v
                out[-1]["reverted"] = out[-1]["reverted"] and v in flagged
                out[-1]["judge_record"] = out[-1]["judge_record"] and e.type in JUDGE_RECORDS
                continue
            out.append(
                {
                    "action_id": e.action_id,
                    "first": v,
                    "last": v,
                    "reverted": v in flagged,
                    "judge_record": e.type in JUDGE_RECORDS,
                }
            )
        return out

    def timeline(self, game_id: str, after: int = 0, limit: int = MAX_EVENTS_PAGE) -> TimelinePage:
        """Readable lines of the events after ``after`` (at most ``limit``, up to 1000), grouped
        by turn and step (``projections.timeline``); a page starts in the turn and step of the
        state at ``after``, read from the nearest snapshot, so any page costs about the same."""
        events = self.events(game_id, after, limit)
        # Does the page's last event end its action? The event after the page says.
        after_page = self.events(game_id, events[-1].version, 1) if events else []
        following = after_page[0].action_id if after_page else None
        start = (0, "")
        if events and events[0].version > 1:
            _, before = self.state_at(game_id, events[0].version - 1)
            start = (before.turn.number, before.turn.step)
        head = self._games.load(game_id).version
        last = events[-1].version if events else after
        return TimelinePage(timeline_groups(events, start, following), last if last < head else None)


def _check_expected(game: Game, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            f"game {game.id!r} is at version {game.version}, not {expected_version} (If-Match)", "version_conflict"
        )
