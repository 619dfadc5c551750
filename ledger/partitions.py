"""Games partitioned across several databases by a stable hash of the game id.

One database serialises every append of the ledger (on PostgreSQL each insert takes the events
table's lock; DESIGN.md), so past what one server commits, games are spread over several: a list
of database URLs, partition ``i`` holding the games whose ``partition_of(game_id, n) == i``. Each
partition is a whole ledger store of its own (events, snapshots, the game list's view and
tracking, its own group committer and its own elected runner); a game, its hash chain and every
record of it live in exactly one partition, so an action is still one transaction in one
database.

- **Placement**: SHA-256 of the game id (UTF-8), its first 8 bytes as an unsigned integer,
  modulo the number of partitions: stable across processes, hosts and Python versions (never
  Python's ``hash``). Changing the list (adding a database) moves games: see
  docs/operations.md, "Partitions", for re-partitioning.
- **Tokens** live in the home partition (the first URL).
- **Idempotency-Key records** live with the game the request acts on (the claim must be in the
  same transaction as the action): an action's or undo's key is scoped to its game's path, so
  it always meets the same partition; a create with a server-chosen id is given an id that
  falls in the key's partition, so two racing creates with one key still meet on one primary
  key. Reading a key's records looks in every partition (a few small reads, only for requests
  that carry a key).
- **The game list** merges every partition's view (most recently updated first).
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar
from uuid import uuid4

from domain.commands import Command
from domain.commands.bodies.create import GameCreateBody
from domain.errors import Conflict
from domain.state import GameState
from ledger.game_record import GameRecord
from ledger.game_service import MAX_EVENTS_PAGE, Authorize, GameService, TimelinePage
from ledger.idempotency import IdempotencyRecords, KeyRecords, key_stream_id
from projections.game_list import GameList
from projections.game_summaries import ProjectionFailure
from store.records import IdempotencyKeyClaimed
from store.results import ActionResult, Actor, GameSummary, RecordedEvent, VerifyReport

T = TypeVar("T")


def partition_of(game_id: str, count: int) -> int:
    """The partition (0..count-1) of ``game_id``: SHA-256, first 8 bytes, modulo ``count``."""
    if count < 1:
        raise ValueError(f"partitions must be >= 1, got {count}")
    digest = hashlib.sha256(game_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count


class Part(Protocol):
    """What a partition provides (``LedgerService`` builds one per database URL)."""

    games: GameService
    record: GameRecord
    idempotency: IdempotencyRecords
    game_list: GameList


class PartitionedGames:
    """``GameService``'s operations, each sent to the partition of its game."""

    def __init__(self, parts: Sequence[Part]) -> None:
        self._parts = list(parts)

    def part(self, game_id: str) -> Part:
        """The partition holding ``game_id``."""
        return self._parts[partition_of(game_id, len(self._parts))]

    def _free_id(self, wanted: int | None) -> str:
        while True:
            gid = f"g-{uuid4().hex[:12]}"
            if wanted is None or partition_of(gid, len(self._parts)) == wanted:
                return gid

    def create_game(
        self,
        body: dict[str, Any] | GameCreateBody,
        actor: Actor,
        game_id: str | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        if game_id is not None:
            return self.part(game_id).games.create_game(
                body, actor, game_id, idempotency_key=idempotency_key, request_fingerprint=request_fingerprint
            )
        # A server-chosen id: with a key, one that falls where the key's records live.
        wanted = partition_of(key_stream_id(idempotency_key), len(self._parts)) if idempotency_key else None
        for _ in range(3):
            gid = self._free_id(wanted)
            try:
                return self.part(gid).games.create_game(
                    body, actor, gid, idempotency_key=idempotency_key, request_fingerprint=request_fingerprint
                )
            except Conflict as err:
                if err.code != "game_exists":
                    raise
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
        return self.part(game_id).games.act(
            game_id,
            command,
            actor,
            expected_version,
            idempotency_key=idempotency_key,
            request_fingerprint=request_fingerprint,
            authorize=authorize,
            reporter=reporter,
        )

    def undo(self, game_id: str, **kwargs: Any) -> ActionResult:
        return self.part(game_id).games.undo(game_id, **kwargs)

    def head_version(self, game_id: str) -> int:
        return self.part(game_id).games.head_version(game_id)

    def state_at(self, game_id: str, version: int | None = None) -> tuple[int, GameState]:
        return self.part(game_id).games.state_at(game_id, version)

    def events(self, game_id: str, after: int = 0, limit: int = 100) -> list[RecordedEvent]:
        return self.part(game_id).games.events(game_id, after, limit)

    def timeline(self, game_id: str, after: int = 0, limit: int = MAX_EVENTS_PAGE) -> TimelinePage:
        return self.part(game_id).games.timeline(game_id, after, limit)

    def boundaries(self, game_id: str) -> list[dict[str, Any]]:
        return self.part(game_id).games.boundaries(game_id)


class PartitionedRecord:
    """``GameRecord``'s operations, each sent to the partition of its game."""

    def __init__(self, parts: Sequence[Part]) -> None:
        self._parts = list(parts)

    def _part(self, game_id: str) -> Part:
        return self._parts[partition_of(game_id, len(self._parts))]

    def verify(self, game_id: str, *, full: bool = True) -> VerifyReport:
        return self._part(game_id).record.verify(game_id, full=full)

    def export(self, game_id: str) -> Iterator[str]:
        return self._part(game_id).record.export(game_id)

    def verify_export(self, lines: Iterable[str]) -> VerifyReport:
        return self._parts[0].record.verify_export(lines)  # no store involved

    def import_game(self, lines: Iterable[str], actor: Actor) -> ActionResult:
        body = list(lines)
        game_id = _header_game_id(body)
        # A file without a readable header is refused by any partition's checks: the home one.
        part = self._part(game_id) if game_id is not None else self._parts[0]
        return part.record.import_game(body, actor)


def _header_game_id(lines: Sequence[str]) -> str | None:
    import json

    for text in lines:
        if text.strip():
            try:
                header = json.loads(text)
            except ValueError:
                return None
            gid = header.get("game_id") if isinstance(header, dict) else None
            return gid if isinstance(gid, str) else None
    return None


class PartitionedIdempotency:
    """``IdempotencyRecords`` over partitions: a key's records are where its game is (see the
    module docstring); reading looks in each partition."""

    def __init__(self, parts: Sequence[Part]) -> None:
        self._parts = list(parts)

    def _where(self, key: str) -> tuple[KeyRecords, IdempotencyRecords]:
        for part in self._parts:
            seen = part.idempotency.read(key)
            if seen.fingerprints:
                return seen, part.idempotency
        home = self._parts[partition_of(key_stream_id(key), len(self._parts))].idempotency
        return KeyRecords(key, None, None, ()), home

    def read(self, key: str) -> KeyRecords:
        seen, _ = self._where(key)
        return seen

    def claim(self, key: str, fingerprint: str, game_id: str, action_id: str, version: int) -> IdempotencyKeyClaimed:
        return self._parts[0].idempotency.claim(key, fingerprint, game_id, action_id, version)

    def clash(self, claim: IdempotencyKeyClaimed) -> Conflict | None:  # pragma: no cover - per partition
        return self._parts[0].idempotency.clash(claim)

    def remember(
        self, seen: KeyRecords, fingerprint: str, status: int, response_json: str, *, claimed_since: bool = False
    ) -> None:
        """The response goes where the key's records are: where the read found them, or (a
        claim made since by this request) where that claim now is; else the key's own
        partition."""
        _, records = self._where(seen.key) if (seen.fingerprints or claimed_since) else (None, None)
        if records is None:
            records = self._parts[partition_of(key_stream_id(seen.key), len(self._parts))].idempotency
        records.remember(seen, fingerprint, status, response_json, claimed_since=claimed_since)


class PartitionedGameList:
    """Every partition's game list, merged."""

    def __init__(self, parts: Sequence[Part]) -> None:
        self._lists = [p.game_list for p in parts]

    @property
    def election(self) -> Any:
        """The home partition's election (each partition elects its own runner)."""
        return self._lists[0].election

    def select(self, event: Any = None, round: Any = None, table: Any = None, status: Any = None) -> list[GameSummary]:
        """Game summaries of every partition, most recently updated first (then by id)."""
        found = [gl.select(event, round, table, status) for gl in self._lists]
        key: Callable[[GameSummary], Any] = lambda g: (_Desc(g.updated_at), g.game_id)  # noqa: E731
        return list(heapq.merge(*found, key=key))

    def failures(self) -> list[ProjectionFailure]:
        """Every partition's games the read model could not project."""
        return [f for gl in self._lists for f in gl.failures()]

    def runner_state(self) -> str:
        """The first partition's runner state that isn't ``running`` (a stopped one first), else
        ``running``: health is degraded if any partition's list stopped."""
        states = [gl.runner_state() for gl in self._lists]
        return next((st for st in states if st.startswith("stopped")), states[0])

    def wait(self, timeout: float = 10.0) -> None:
        for gl in self._lists:
            gl.wait(timeout)

    def close(self) -> None:
        errors: list[BaseException] = []
        for gl in self._lists:
            try:
                gl.close()
            except BaseException as err:  # close them all
                errors.append(err)
        if errors:
            raise errors[0]


class _Desc:
    """Orders its value descending (for ``heapq.merge`` of lists sorted newest first)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return bool(self.value > other.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)
