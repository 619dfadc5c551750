"""A tournament on the audited event log: one stream kind of the one writer (``ledger.write_path``).

A tournament is a stream of its own, ``_tournament/<id>`` (``store.records.TournamentRecord``),
beside the games. Each write takes the path a game's action takes (docs/architecture.md, The
path of one action) through the same ``StreamWriter``: the head (this process's cached fold,
brought up to date by reading only the records stored after it), the kernel's decision
(``domain.tournament.decide``; a refusal raises before anything is stored), the events sealed
into the stream's own hash chain by ``store.hash_chain.seal`` with one action id, the actor and
one ``recorded_at``, the Idempotency-Key claimed in the same save, one atomic save through the
partition's group committer, and the same retry on a version clash. ``TournamentHeads`` is
what is particular to tournaments: how a head is folded, cached and sealed.

Reads take the same head: a cached fold, brought up to date by one read of the records after
it (none, usually), never a fold of the whole record; what readers are shown is kept per version
on the head (``TournamentHead.memo``), so a spectator's read of a 5,000-player event renders
its standings once per version, not once per read.

The randomness of a pairing comes from ``secrets`` here, never from the kernel, and is recorded
in ``RoundPaired.seed``, so a replay of the log pairs the same tables.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.errors import Code, Conflict, InvalidCommand, NotFound
from domain.tournament import (
    EMPTY,
    TournamentCommand,
    TournamentEvent,
    TournamentState,
    decide,
    evolve,
    parse_event,
)
from ledger.clock import Now
from ledger.idempotency import IdempotencyRecords
from ledger.write_path import Decision, Stamp, StreamWriter, Submission, VersionTaken
from store.hash_chain import GENESIS_HASH, Fact, Sealable, seal
from store.records import TournamentCreatedRecord, TournamentRecord, tournament_stream_id
from store.results import VerifyReport
from store.streams import Streams

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A tournament id: no ``/`` (it is a path segment and a stream id suffix), no ``.`` (its games'
ids are ``<id>.r<round>.t<table>.g<n>``, so the prefix ``<id>.`` names this event's games)."""
SEED_LIMIT = 2**53
STREAM_PREFIX = "_tournament/"
SPECTATOR_LAG = 0.25
"""Seconds the public page and the standings may trail another process's write (no query is
made for a read within them of the last)."""

TournamentDecision = Callable[[TournamentState], Sequence[TournamentCommand]]
"""The commands of one write, built on the state they are decided on (a player key, a seed)."""


def check_tournament_id(tournament_id: object) -> str:
    """The id, or ``400 invalid_tournament_id``."""
    if not isinstance(tournament_id, str) or TOURNAMENT_ID.fullmatch(tournament_id) is None:
        raise InvalidCommand(
            f"a tournament id is 1-64 of A-Z a-z 0-9 _ - (starting with a letter or digit), got {tournament_id!r}",
            Code.INVALID_TOURNAMENT_ID,
        )
    return tournament_id


def new_seed() -> int:
    """A pairing seed from the operating system's randomness (recorded in ``RoundPaired``)."""
    return secrets.randbelow(SEED_LIMIT)


@dataclass(frozen=True, slots=True)
class TournamentHead:
    """A tournament as folded: its state at ``version`` and the hash its next record links to."""

    id: str
    """The stream id, ``_tournament/<id>``."""
    version: int
    last_hash: str
    state: TournamentState
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What readers were shown of this very version (a pure function of it): kept with it."""

    lock: threading.RLock = field(default_factory=threading.RLock, compare=False, repr=False)
    """Held while a reader renders for ``memo`` (re-entrant: one render may use another): 16
    readers arriving at a new version wait for the one render rather than all making their own."""

    def remembered(self, key: str, make: Callable[[], Any]) -> Any:
        """``make()`` once per version."""
        found = self.memo.get(key)
        if found is None:
            with self.lock:
                found = self.memo.get(key)
                if found is None:
                    found = self.memo[key] = make()
        return found


@dataclass(frozen=True, slots=True)
class Written:
    """What a write stored: the events and the state after them."""

    events: tuple[TournamentEvent, ...]
    state: TournamentState
    version: int
    key_claimed: bool = False


class TournamentHeads:
    """Tournaments as a stream kind of ``StreamWriter``: folded heads cached per process (the
    newest ``CACHED`` tournaments), brought up to date by reading only what was stored after them."""

    CACHED = 64

    def __init__(self, streams: Streams) -> None:
        self._streams = streams
        self._heads: OrderedDict[str, TournamentHead] = OrderedDict()
        self._lock = threading.Lock()
        self._checked: dict[str, float] = {}
        """When each cached head was last brought up to date from the store (monotonic)."""

    def cached(self, stream_id: str) -> TournamentHead | None:
        return self._heads.get(stream_id)

    def load(self, stream_id: str, *, first_action_here: bool = False) -> TournamentHead:
        """The head in the store: the cached one and the records after it, folded onto it (the
        same object when nothing was stored since, with what its readers were shown);
        ``404 unknown_tournament`` when the stream was never started."""
        cached = self._heads.get(stream_id)
        after = cached.version if cached is not None else None
        checked = time.monotonic()
        records = [r for r in self._streams.read(stream_id, gt=after) if isinstance(r, TournamentRecord)]
        self._checked[stream_id] = checked
        if cached is None and not records:
            raise NotFound(f"no tournament with id {stream_id.removeprefix(STREAM_PREFIX)!r}", Code.UNKNOWN_TOURNAMENT)
        if not records:
            assert cached is not None
            return cached
        head = self.advance(cached, records, None)
        self.remember(head)
        return head

    def recent(self, stream_id: str, within: float) -> TournamentHead:
        """The cached head if it was brought up to date less than ``within`` seconds ago (a
        write of this process brings it at once; another process's shows within ``within``),
        else ``load``: a spectator's read costs no query while readers keep coming."""
        cached = self._heads.get(stream_id)
        if cached is not None and time.monotonic() - self._checked.get(stream_id, -within) < within:
            return cached
        return self.load(stream_id)

    def behind(self, stream_id: str) -> bool:
        return True  # another process may have written it: always read the tail (one small query)

    def seal(self, stream_id: str, after: int, prev_hash: str, events: Sequence[Sealable], stamp: Stamp) -> list[Any]:
        sealed = seal(
            stream_id,
            events,
            after=after,
            prev_hash=prev_hash,
            action_id=stamp.action_id,
            actor=stamp.actor,
            recorded_at=stamp.recorded_at,
        )
        out: list[TournamentRecord] = []
        for link in sealed:
            # The first record has its own topic (listing); the chain is the one ``seal`` made.
            cls = TournamentCreatedRecord if link.originator_version == 1 else TournamentRecord
            out.append(
                cls(
                    originator_id=link.originator_id,
                    originator_version=link.originator_version,
                    type=link.type,
                    data=link.data,
                    action_id=link.action_id,
                    actor=link.actor,
                    recorded_at=link.recorded_at,
                    prev_hash=link.prev_hash,
                    hash=link.hash,
                )
            )
        return out

    def advance(self, head: TournamentHead | None, stored: Sequence[Any], state: Any) -> TournamentHead:
        if head is not None and stored and stored[0].originator_version != head.version + 1:
            raise ValueError(
                f"{stored[0].originator_id}: version {stored[0].originator_version} does not follow {head.version}"
            )
        if state is None:
            state = head.state if head is not None else EMPTY
            for record in stored:
                state = evolve(state, parse_event(record.type, record.data))
        last = stored[-1]
        return TournamentHead(last.originator_id, last.originator_version, last.hash, state)

    def remember(self, head: TournamentHead) -> None:
        with self._lock:
            cached = self._heads.get(head.id)
            if cached is None or cached.version <= head.version:
                self._heads[head.id] = head
            self._heads.move_to_end(head.id)
            while len(self._heads) > self.CACHED:
                self._heads.popitem(last=False)

    def saved(self, before: int, head: TournamentHead) -> None:
        pass  # no snapshots: a restart folds each tournament once, then keeps it


class TournamentLog:
    """The tournaments' streams in one database: written by the one writer, read from cached heads."""

    def __init__(self, streams: Streams, idempotency: IdempotencyRecords, now: Now) -> None:
        self._streams = streams
        self.heads = TournamentHeads(streams)
        self._writer: StreamWriter[TournamentHead] = StreamWriter(self.heads, streams, idempotency, now)

    def load(self, tournament_id: str) -> TournamentHead:
        """The tournament's head, or ``404 unknown_tournament`` when it was never created."""
        return self.heads.load(tournament_stream_id(check_tournament_id(tournament_id)))

    def recent(self, tournament_id: str) -> TournamentHead:
        """The head as spectators read it: at most ``SPECTATOR_LAG`` seconds behind another
        process's writes (this process's own are seen at once)."""
        return self.heads.recent(tournament_stream_id(check_tournament_id(tournament_id)), SPECTATOR_LAG)

    def create(self, tournament_id: str, command: TournamentCommand, submission: Submission) -> Written:
        """Start the stream with ``command``'s events (``409 tournament_already_created``)."""
        check_tournament_id(tournament_id)
        state, events = _run(EMPTY, [command])
        try:
            appended = self._writer.start(tournament_stream_id(tournament_id), _facts(events), submission, state)
        except VersionTaken:
            raise Conflict(f"a tournament {tournament_id!r} exists already", Code.TOURNAMENT_ALREADY_CREATED) from None
        return Written(tuple(events), state, appended.head.version, appended.key_claimed)

    def write(self, tournament_id: str, decision: TournamentDecision, submission: Submission) -> Written:
        """Decide the commands ``decision`` gives on the stream's head and save their events in
        one atomic save (the one writer's loop: ``ledger.write_path``)."""
        check_tournament_id(tournament_id)
        decided: list[TournamentEvent] = []

        def decide(head: TournamentHead) -> Decision:
            state, events = _run(head.state, decision(head.state))
            decided[:] = events
            return _facts(events), state

        appended = self._writer.decide_and_append(tournament_stream_id(tournament_id), decide, submission)
        head = appended.head
        return Written(tuple(decided) if appended.stored else (), head.state, head.version, appended.key_claimed)

    def records(self, tournament_id: str) -> list[TournamentRecord]:
        """Every record of the tournament, oldest first (``404 unknown_tournament``)."""
        self.load(tournament_id)
        stream = tournament_stream_id(tournament_id)
        return [r for r in self._streams.read(stream) if isinstance(r, TournamentRecord)]

    def first(self, tournament_id: str) -> TournamentRecord:
        """The tournament's first record (its creation), one read (``404 unknown_tournament``)."""
        stream = tournament_stream_id(check_tournament_id(tournament_id))
        for record in self._streams.read(stream, limit=1):
            if isinstance(record, TournamentRecord):
                return record
        raise NotFound(f"no tournament with id {tournament_id!r}", Code.UNKNOWN_TOURNAMENT)

    def ids(self) -> list[str]:
        """Every tournament's id, oldest first (one read filtered by the first record's topic)."""
        found = self._streams.each_with_topic([TournamentCreatedRecord.TOPIC])
        return [n.originator_id.removeprefix(STREAM_PREFIX) for n in found]

    def verify(self, tournament_id: str) -> VerifyReport:
        """Recompute the stream's hash chain with ``seal``: the first record that doesn't match."""
        records = self.records(tournament_id)
        prev = GENESIS_HASH
        for record in records:
            again = seal(
                record.originator_id,
                [Fact(record.type, record.data, None)],
                after=record.originator_version - 1,
                prev_hash=prev,
                action_id=record.action_id,
                actor=record.actor,
                recorded_at=record.recorded_at,
            )[0]
            if record.prev_hash != prev or again.hash != record.hash:
                return VerifyReport(False, len(records), records[-1].hash, record.originator_version)
            prev = record.hash
        return VerifyReport(True, len(records), records[-1].hash if records else None, None)


def _run(
    state: TournamentState, commands: Sequence[TournamentCommand]
) -> tuple[TournamentState, list[TournamentEvent]]:
    """The kernel's decision of each command in turn, each on the state the one before left."""
    events: list[TournamentEvent] = []
    for command in commands:
        for event in decide(state, command):
            events.append(event)
            state = evolve(state, event)
    return state, events


def _facts(events: Sequence[TournamentEvent]) -> list[Fact]:
    return [Fact(e.TYPE, e.to_json(), None) for e in events]


def record_json(record: TournamentRecord) -> dict[str, Any]:
    """One record as ``GET /v1/tournaments/{id}/record`` shows it."""
    return {
        "version": record.originator_version,
        "type": record.type,
        "data": record.data,
        "action_id": record.action_id,
        "actor": record.actor,
        "recorded_at": record.recorded_at,
        "prev_hash": record.prev_hash,
        "hash": record.hash,
    }
