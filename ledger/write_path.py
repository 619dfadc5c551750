"""The one path of everything that appends to an audited stream: decide on the head, seal, save.

Games and tournaments (and any other stream kind that is folded into a state and sealed into a
hash chain) are written here, and only here. A command arrives with its ``Submission`` (who sends
it, the If-Match version, the Idempotency-Key) and a decision, a pure function of the stream's
head (``ledger.game_service`` builds a game's from ``domain.decide.run_as`` or
``domain.undo.decide_undo``; ``ledger.tournament_writes`` a tournament's from
``domain.tournament.decide``). What differs between stream kinds is only how a head is read,
cached, folded and sealed: a ``Heads`` of that kind (``GameHeads`` below; the tournaments' in
``ledger.tournament_writes``). The loop is one:

1. the head: as this process has it cached (no read at all), brought up to date first when the
   kind says it may trail (``Heads.behind``), else loaded (snapshot + the events after it);
2. decide on it (a refusal raises ``GameError`` before anything is stored);
3. seal every event the command caused into the stream's hash chain with one action id, actor
   and time (``store.hash_chain``), and claim the Idempotency-Key in the same save;
4. save in ONE atomic save through the partition's saver (the group committer: one transaction
   with the saves of other streams' actions that arrive with it, answered once durable);
5. the state the decision built becomes the new cached head (an action's events are folded once).

Why deciding on a cached head is safe: the save inserts the next version, and the database lets
only one writer have it (the version is the optimistic-concurrency token). If another process got
there first the head was stale (``store.errors.VersionClash``); the stream is then loaded afresh
and decided once more, up to ``RETRIES`` times (a busy stream's writers can take a fresh version
from each other more than once). Anything that ends without a save (a refusal, a command that
changes nothing, an ``If-Match`` that does not match) would not be checked by the database, so it
is only believed of a fresh head: decided on a cached one, it is tried again on a fresh load
first. A clash under ``If-Match`` (which pins the version), or ``RETRIES`` clashes in a row, is
``Conflict(version_conflict)``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar
from uuid import uuid4

from domain.errors import Code, Conflict, GameError
from domain.permissions import Grant
from domain.state import GameState
from ledger.clock import Now
from ledger.idempotency import IdempotencyRecords
from store.aggregate import Game, project_game
from store.errors import VersionClash
from store.hash_chain import GENESIS_HASH, Sealable, seal
from store.records import GameEvent, IdempotencyKeyClaimed
from store.repository import GameRepository, recorded
from store.results import ActionResult, Actor
from store.streams import Streams

log = logging.getLogger("mtg_ledger.store")

RETRIES = 5
"""Fresh loads and decisions after version clashes before ``409 version_conflict``."""

S = TypeVar("S")
"""A stream kind's folded state (``GameState``, ``TournamentState``)."""


class Head(Protocol):
    """A stream's head: what the next action is decided on and chained to."""

    @property
    def id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def last_hash(self) -> str: ...


H = TypeVar("H", bound=Head)

Decision = tuple[Sequence[Sealable], Any]
"""The events a command causes and, when the decision folded them already, the state after
(``None``: the kind folds the stored events itself)."""


class Heads(Protocol[H]):
    """How one kind of stream is read, cached, sealed and folded (the rest of the loop is one)."""

    def cached(self, stream_id: str) -> H | None:
        """The head this process has (it may have moved on since), without I/O."""

    def load(self, stream_id: str, *, first_action_here: bool = False) -> H:
        """The head in the store (``NotFound`` when the stream was never started)."""

    def behind(self, stream_id: str) -> bool:
        """Whether the cached head is known or assumed to trail the store (bring it up first)."""

    def seal(self, stream_id: str, after: int, prev_hash: str, events: Sequence[Sealable], stamp: Stamp) -> list[Any]:
        """The stored records of one action (``store.hash_chain.seal`` computes every link)."""

    def advance(self, head: H | None, stored: Sequence[Any], state: Any) -> H:
        """The head after ``stored`` (``state``: already folded by the decision, or ``None``)."""

    def remember(self, head: H) -> None:
        """Keep the new head for the next action (a cache: the newest version wins)."""

    def saved(self, before: int, head: H) -> None:
        """Told after each save (a game's snapshot when one is due)."""


@dataclass(frozen=True, slots=True)
class Stamp:
    """The metadata every record of one action shares."""

    action_id: str
    actor: dict[str, str]
    recorded_at: str


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
        return self.by if isinstance(self.by, Actor) else Actor(self.by.name, self.by.role, self.by.token_id)

    @property
    def grant(self) -> Grant | None:
        """The token's grant the decision checks (``None``: a trusted caller)."""
        return self.by if isinstance(self.by, Grant) else None


@dataclass(frozen=True, slots=True)
class Appended(Generic[H]):
    """What one write stored: the head after it, its records, its action id."""

    head: H
    stored: tuple[Any, ...]
    action_id: str
    key_claimed: bool = False
    """The save also claimed the request's Idempotency-Key."""


class VersionTaken(Exception):
    """The save found the next version taken: the head it was decided on had moved on."""


class StreamWriter(Generic[H]):
    """Decides, seals and saves the actions of one kind of stream in one database (see the
    module docstring): ``GameHeads`` for games, ``ledger.tournament_writes`` for tournaments."""

    def __init__(self, heads: Heads[H], streams: Streams, idempotency: IdempotencyRecords, now: Now) -> None:
        self._heads = heads
        self._streams = streams
        self._idempotency = idempotency
        self._now = now

    def start(
        self, stream_id: str, events: Sequence[Sealable], submission: Submission, state: Any = None
    ) -> Appended[H]:
        """Store a new stream's first action (versions from 1); ``VersionTaken`` if it exists."""
        stored = self._heads.seal(stream_id, 0, GENESIS_HASH, events, self._stamp(submission.actor))
        claim = self._claim(submission, stored)
        self._save(stored, claim)
        head = self._heads.advance(None, stored, state)
        self._heads.remember(head)
        return Appended(head, tuple(stored), stored[0].action_id, claim is not None)

    def start_many(self, starts: Sequence[tuple[str, Sequence[Sealable]]], actor: Actor) -> list[str]:
        """Store many new streams' first actions in one atomic save (a round's games); the ids
        started. ``VersionTaken`` (nothing stored) when one exists already."""
        stamp = self._stamp(actor)
        stored = [self._heads.seal(sid, 0, GENESIS_HASH, events, stamp) for sid, events in starts]
        self._save([r for records in stored for r in records], None)
        for records in stored:
            self._heads.remember(self._heads.advance(None, records, None))
        return [sid for sid, _ in starts]

    def decide_and_append(self, stream_id: str, decide: Callable[[H], Decision], submission: Submission) -> Appended[H]:
        """Decide on the cached head, save; on a stale head decide again on a fresh load.

        A head the kind marks ``behind`` is brought up to date first (reading only the records
        stored after it: none, usually). It is still not ``fresh``: another process may store
        between this read and the save, and that clash is retried like any other."""
        expected = submission.expected_version
        heads = self._heads
        head = heads.cached(stream_id)
        fresh = head is None
        if head is None or heads.behind(stream_id):
            head = heads.load(stream_id, first_action_here=fresh)  # a cached head is only brought up to date
        clashes = 0
        while True:
            try:
                _check_expected(head, expected)
                events, state = decide(head)
            except GameError:
                if fresh:
                    raise
                head, fresh = heads.load(stream_id), True  # the refusal may be the stale head's
                continue
            if not events and not fresh:
                head, fresh = heads.load(stream_id), True
                continue
            if not events:
                return Appended(head, (), str(uuid4()))
            try:
                return self._append(head, events, state, submission)
            except VersionTaken:
                clashes += 1
                if expected is not None or clashes >= RETRIES:
                    raise Conflict(
                        f"{_what(stream_id)} moved on from version {head.version} while this action was decided; "
                        "reload and try again",
                        Code.VERSION_CONFLICT,
                    ) from None
                head, fresh = heads.load(stream_id), True

    def _append(self, head: H, events: Sequence[Sealable], state: Any, submission: Submission) -> Appended[H]:
        stored = self._heads.seal(head.id, head.version, head.last_hash, events, self._stamp(submission.actor))
        claim = self._claim(submission, stored)
        self._save(stored, claim)
        new = self._heads.advance(head, stored, state)
        self._heads.remember(new)
        self._heads.saved(head.version, new)
        return Appended(new, tuple(stored), stored[0].action_id, claim is not None)

    def _stamp(self, actor: Actor) -> Stamp:
        return Stamp(str(uuid4()), actor.to_json(), self._now())

    def _claim(self, submission: Submission, stored: Sequence[Any]) -> IdempotencyKeyClaimed | None:
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

    def _save(self, stored: Sequence[Any], claim: IdempotencyKeyClaimed | None) -> None:
        """One atomic save: every record of the action (and the key's claim) or nothing."""
        try:
            self._streams.append(*stored, *([claim] if claim is not None else []))
        except VersionClash:
            if self._stored_already(stored):  # an earlier try of this very save committed
                first, last = stored[0], stored[-1]
                log.warning(
                    "%s: versions %d-%d were stored, their save's answer was lost (failover?): answered once",
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

    def _stored_already(self, stored: Sequence[Any]) -> bool:
        """Whether the log holds ``stored`` itself at its first version. A save whose connection
        died during the commit (a failover) is tried again by the recorder, and when the first
        try had committed the retry clashes with it: that is this action, stored once, not a
        stale head to decide again (which would store it twice). The action id is drawn anew
        for every decision, so finding it there proves it."""
        first = stored[0]
        version = first.originator_version
        found = self._streams.read(first.originator_id, gt=version - 1, lte=version)
        return bool(found) and getattr(found[0], "action_id", None) == first.action_id


def _what(stream_id: str) -> str:
    return f"game {stream_id!r}" if not stream_id.startswith("_") else f"stream {stream_id!r}"


def _check_expected(head: Head, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != head.version:
        raise Conflict(
            f"{_what(head.id)} is at version {head.version}, not {expected_version} (If-Match)", Code.VERSION_CONFLICT
        )


# -- games -------------------------------------------------------------------------------------
class GameHeads:
    """Games as a stream kind: heads from the repository (snapshot + tail, cached per process),
    records sealed as ``GameEvent``, a snapshot whenever the head crosses a multiple of the
    interval (taken from the state in hand, so it costs no replay)."""

    def __init__(
        self, games: GameRepository, streams: Streams, *, snapshot_interval: int, check_heads: bool = False
    ) -> None:
        self._games = games
        self._streams = streams
        self._snapshot_interval = snapshot_interval
        self._check_heads = check_heads
        """With several processes writing one SQLite file, a head another process moved on
        would fail the whole group transaction it is saved in: bring every head up first."""

    def cached(self, stream_id: str) -> Game | None:
        return self._games.cached(stream_id)

    def load(self, stream_id: str, *, first_action_here: bool = False) -> Game:
        return self._games.load(stream_id, first_action_here=first_action_here)

    def behind(self, stream_id: str) -> bool:
        return self._check_heads or self._games.behind(stream_id)

    def seal(self, stream_id: str, after: int, prev_hash: str, events: Sequence[Sealable], stamp: Stamp) -> list[Any]:
        return seal(
            stream_id,
            events,
            after=after,
            prev_hash=prev_hash,
            action_id=stamp.action_id,
            actor=stamp.actor,
            recorded_at=stamp.recorded_at,
        )

    def advance(self, head: Game | None, stored: Sequence[Any], state: Any) -> Game:
        # The decision already folded its events into ``state``; only an undo (decided without
        # a fold) and a start fold theirs here.
        new = head.after(stored, state) if head is not None and state is not None else project_game(head, stored)
        assert new is not None
        return new

    def remember(self, head: Game) -> None:
        self._games.remember(head)

    def saved(self, before: int, head: Game) -> None:
        """A snapshot whenever the head crosses a multiple of the interval. Losing one only
        costs replay time, so failures are logged."""
        interval = self._snapshot_interval
        if interval <= 0 or head.version // interval == before // interval:
            return
        try:
            self._streams.put_snapshots([head.snapshot()])
        except VersionClash:
            pass  # another writer's snapshot of the same version
        except Exception:  # pragma: no cover - a snapshot is an optimisation, never a failure
            log.exception("snapshot of %s at %d failed", head.id, head.version)


def game_result(appended: Appended[Game]) -> ActionResult:
    """A game write as the API answers it."""
    head = appended.head
    stored: Sequence[GameEvent] = appended.stored
    return ActionResult(
        head.id, appended.action_id, head.version, [recorded(e) for e in stored], head.state, appended.key_claimed
    )


GameDecision = tuple[Sequence[Sealable], GameState | None]
"""A game command's decision (the state after, when the decision folded its events)."""
WritePath = StreamWriter[Game]
"""The games' writer (the name the rest of the ledger knew it by)."""
__all__ = [
    "RETRIES",
    "Appended",
    "Decision",
    "GameDecision",
    "GameHeads",
    "Heads",
    "Stamp",
    "StreamWriter",
    "Submission",
    "VersionTaken",
    "WritePath",
    "game_result",
]
