"""A tournament on the audited event log: load its stream, fold it, decide, seal, save.

A tournament is a stream of its own, ``_tournament/<id>`` (``store.records.TournamentRecord``),
beside the games. Each write takes the path a game's action takes (docs/architecture.md, The
path of one action): the stream is read and folded with ``domain.tournament``, the kernel decides
the command (a refusal raises before anything is stored), the events are sealed into the
stream's own hash chain by ``store.hash_chain.seal`` (the one function that computes a link) with
one action id, the actor and one ``recorded_at``, and saved in one atomic save whose next version
is the optimistic-concurrency token. A ``VersionClash`` means another writer got there first: the
stream is read again and the command decided once more; a clash that persists, or one under an
expected version, is ``409 version_conflict``.

The randomness of a pairing comes from ``secrets`` here, never from the kernel, and is recorded
in ``RoundPaired.seed``, so a replay of the log pairs the same tables.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import uuid4

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
from store.application import LedgerApplication
from store.errors import VersionClash
from store.hash_chain import GENESIS_HASH, Fact, seal
from store.records import TournamentCreatedRecord, TournamentRecord, tournament_stream_id
from store.results import Actor, VerifyReport

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""A tournament id: no ``/`` (it is a path segment and a stream id suffix), no ``.`` (its games'
ids are ``<id>.r<round>.t<table>.g<n>``, so the prefix ``<id>.`` names this event's games)."""
SEED_LIMIT = 2**53
RETRIES = 5
"""Fresh reads and decisions after a version clash before ``409 version_conflict``."""

Decision = Callable[[TournamentState], Sequence[TournamentCommand]]
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
class Loaded:
    """A tournament as read: its state and its stored records (oldest first)."""

    state: TournamentState
    records: tuple[TournamentRecord, ...]

    @property
    def version(self) -> int:
        return len(self.records)


@dataclass(frozen=True, slots=True)
class Written:
    """What a write stored: the events and the state after them."""

    events: tuple[TournamentEvent, ...]
    state: TournamentState
    version: int


class TournamentLog:
    """The tournaments' streams in one ledger application."""

    def __init__(self, app: LedgerApplication, now: Callable[[], str]) -> None:
        self._app = app
        self._now = now

    def load(self, tournament_id: str) -> Loaded:
        """The tournament, or ``404 unknown_tournament`` when it was never created."""
        loaded = self._read(check_tournament_id(tournament_id))
        if not loaded.records:
            raise NotFound(f"no tournament with id {tournament_id!r}", Code.UNKNOWN_TOURNAMENT)
        return loaded

    def _read(self, tournament_id: str) -> Loaded:
        records = tuple(
            r for r in self._app.events.get(tournament_stream_id(tournament_id)) if isinstance(r, TournamentRecord)
        )
        state = EMPTY
        for record in records:
            state = evolve(state, parse_event(record.type, record.data))
        return Loaded(state, records)

    def write(
        self, tournament_id: str, decision: Decision, actor: Actor, *, create: bool = False, expected: int | None = None
    ) -> Written:
        """Decide the commands ``decision`` gives on the stream's head and save their events in
        one atomic save; ``create``: the stream must not exist yet (else it must)."""
        check_tournament_id(tournament_id)
        for _ in range(RETRIES):
            loaded = self._read(tournament_id) if create else self.load(tournament_id)
            if expected is not None and loaded.version != expected:
                raise Conflict(f"the tournament is at version {loaded.version}, not {expected}", Code.VERSION_CONFLICT)
            state = loaded.state
            events: list[TournamentEvent] = []
            for command in decision(state):
                for event in decide(state, command):
                    events.append(event)
                    state = evolve(state, event)
            if not events:
                return Written((), state, loaded.version)
            try:
                self._app.save(*self._seal(tournament_id, loaded, events, actor))
            except VersionClash:
                if expected is not None:
                    break
                continue
            return Written(tuple(events), state, loaded.version + len(events))
        raise Conflict(f"tournament {tournament_id!r} moved on while this was decided: retry", Code.VERSION_CONFLICT)

    def _seal(
        self, tournament_id: str, loaded: Loaded, events: Sequence[TournamentEvent], actor: Actor
    ) -> list[TournamentRecord]:
        sealed = seal(
            tournament_stream_id(tournament_id),
            [Fact(e.TYPE, e.to_json(), None) for e in events],
            after=loaded.version,
            prev_hash=loaded.records[-1].hash if loaded.records else GENESIS_HASH,
            action_id=str(uuid4()),
            actor=actor.to_json(),
            recorded_at=self._now(),
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

    def ids(self) -> list[str]:
        """Every tournament's id, oldest first (one read filtered by the first record's topic)."""
        out: list[str] = []
        start: int | None = None
        while True:
            page = self._app.recorder.select_notifications(
                start=start, limit=500, topics=[TournamentCreatedRecord.TOPIC]
            )
            out += [str(n.originator_id).removeprefix("_tournament/") for n in page]
            if len(page) < 500:
                return out
            start = page[-1].id + 1

    def verify(self, tournament_id: str) -> VerifyReport:
        """Recompute the stream's hash chain with ``seal``: the first record that doesn't match."""
        records = self.load(tournament_id).records
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
