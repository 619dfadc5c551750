"""Games partitioned across several databases by a stable hash of the game id.

One database serialises every append of the ledger (on PostgreSQL each insert takes the events
table's lock; docs/architecture.md), so past what one server commits, games are spread over several: a list
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

``Partitions`` is the router: ``LedgerService`` asks it for the partition of a game (``of``) and
calls that partition's parts; with one URL every question has the one answer.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any
from uuid import uuid4

from domain.cards.catalog import Catalog
from domain.commands.bodies.create import GameCreateBody
from domain.errors import Code, Conflict
from domain.tournament.match_games import MatchGame
from ledger.clock import Now
from ledger.idempotency import IdempotencyRecords, KeyRecords, key_stream_id
from ledger.partition import Partition
from ledger.settings import LedgerSettings
from ledger.write_path import Submission
from projections.game_list import GameList
from projections.game_summaries import ProjectionFailure
from store.results import ActionResult, Actor, GameSummary
from store.runner_election import ElectedRunner


def partition_of(game_id: str, count: int) -> int:
    """The partition (0..count-1) of ``game_id``: SHA-256, first 8 bytes, modulo ``count``."""
    if count < 1:
        raise ValueError(f"partitions must be >= 1, got {count}")
    digest = hashlib.sha256(game_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count


class Partitions:
    """The ledger's databases, one ``Partition`` each; says which holds a game, a key, an import."""

    def __init__(self, parts: Sequence[Partition]) -> None:
        if not parts:
            raise ValueError("a ledger needs at least one database URL")
        self.all: list[Partition] = list(parts)
        """Every partition, the home partition (the first URL's) first."""
        self.home: Partition = self.all[0]
        """Holds the tokens, and the matches and webhooks read models."""
        self.game_list = MergedGameList([p.game_list for p in self.all])
        """Every partition's game list, merged."""

    @classmethod
    def open(cls, urls: Sequence[str], catalog: Catalog, now: Now, settings: LedgerSettings) -> Partitions:
        """One partition per URL; those opened are closed again if one fails to open."""
        opened: list[Partition] = []
        try:
            for url in urls:
                opened.append(Partition(url, catalog, now, settings))
            return cls(opened)
        except BaseException:
            for part in opened:
                part.close()
            raise

    def __iter__(self) -> Iterator[Partition]:
        return iter(self.all)

    def __len__(self) -> int:
        return len(self.all)

    def __getitem__(self, index: int) -> Partition:
        return self.all[index]

    def of(self, game_id: str) -> Partition:
        """The partition holding ``game_id``."""
        return self.all[partition_of(game_id, len(self.all))]

    # -- where a write goes ------------------------------------------------------------------
    def create_game(
        self, body: dict[str, Any] | GameCreateBody, game_id: str | None, submission: Submission
    ) -> ActionResult:
        """Create the game in its partition. A server-chosen id (``game_id`` ``None``) falls, with
        an Idempotency-Key, where the key's records live; taken ones are drawn again."""
        if game_id is not None:
            return self.of(game_id).games.create_game(body, game_id, submission)
        if len(self.all) == 1:
            return self.home.games.create_game(body, None, submission)
        key = submission.idempotency_key
        wanted = partition_of(key_stream_id(key), len(self.all)) if key else None
        for _ in range(3):
            gid = self._free_id(wanted)
            try:
                return self.of(gid).games.create_game(body, gid, submission)
            except Conflict as err:
                if err.code != "game_exists":
                    raise
        raise Conflict("could not find a free game id", Code.GAME_EXISTS)  # pragma: no cover

    def create_games(self, games: Sequence[MatchGame], actor: Actor) -> list[str]:
        """Create the games a tournament's decision asked for, each in its partition, skipping
        those that exist (so a re-run after a crash completes what was left); the ids created."""
        by_part: dict[int, list[MatchGame]] = {}
        for game in games:
            by_part.setdefault(partition_of(game.game_id, len(self.all)), []).append(game)
        created: list[str] = []
        for index, part_games in sorted(by_part.items()):
            created += self.all[index].games.create_many(part_games, actor)
        return created

    def _free_id(self, wanted: int | None) -> str:
        while True:
            gid = f"g-{uuid4().hex[:12]}"
            if wanted is None or partition_of(gid, len(self.all)) == wanted:
                return gid

    def import_game(self, lines: Iterable[str], actor: Actor) -> ActionResult:
        """Import an export into the partition of the game its header names (with one partition
        the lines are read as they come, never held whole)."""
        if len(self.all) == 1:
            return self.home.record.import_game(lines, actor)
        body = list(lines)
        game_id = _header_game_id(body)
        # A file without a readable header is refused by any partition's checks: the home one.
        part = self.of(game_id) if game_id is not None else self.home
        return part.record.import_game(body, actor)

    # -- Idempotency-Key records -------------------------------------------------------------
    def read_key(self, key: str) -> KeyRecords:
        """Everything stored under ``key``, wherever it is (see the module docstring)."""
        return self._where(key)[0]

    def remember(
        self, seen: KeyRecords, fingerprint: str, status: int, response_json: str, *, claimed_since: bool = False
    ) -> None:
        """Store the response where the key's records are: where the read found them, or (a claim
        made since by this request) where that claim now is; else the key's own partition."""
        if len(self.all) == 1 or not (seen.fingerprints or claimed_since):
            records = self._key_home(seen.key)
        else:
            records = self._where(seen.key)[1]
        records.remember(seen, fingerprint, status, response_json, claimed_since=claimed_since)

    def _key_home(self, key: str) -> IdempotencyRecords:
        return self.all[partition_of(key_stream_id(key), len(self.all))].idempotency

    def _where(self, key: str) -> tuple[KeyRecords, IdempotencyRecords]:
        if len(self.all) == 1:
            return self.home.idempotency.read(key), self.home.idempotency
        for part in self.all:
            seen = part.idempotency.read(key)
            if seen.fingerprints:
                return seen, part.idempotency
        return KeyRecords(key, None, None, ()), self._key_home(key)

    # -- read models ---------------------------------------------------------------------------
    def start_read_models(self) -> None:
        for part in self.all:
            part.read_models.start()  # every read model is added: one runner per log

    def keep_read_models(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for this process to be elected to keep the read models
        of every partition; whether it keeps them all."""
        deadline = time.monotonic() + timeout
        return all(part.read_models.wait_elected(max(0.0, deadline - time.monotonic())) for part in self.all)

    def close_read_models(self) -> list[BaseException]:
        """Stop every partition's runners (before their views close); the errors met."""
        return _each(part.read_models.close for part in self.all)

    def close(self) -> list[BaseException]:
        """Close every partition; the errors met."""
        return _each(part.close for part in self.all)


def _each(calls: Iterable[Callable[[], None]]) -> list[BaseException]:
    errors: list[BaseException] = []
    for call in calls:
        try:
            call()
        except BaseException as err:  # close the rest anyway
            errors.append(err)
    return errors


def _header_game_id(lines: Sequence[str]) -> str | None:
    for text in lines:
        if text.strip():
            try:
                header = json.loads(text)
            except ValueError:
                return None
            gid = header.get("game_id") if isinstance(header, dict) else None
            return gid if isinstance(gid, str) else None
    return None


class MergedGameList:
    """Every partition's game list, merged."""

    def __init__(self, lists: Sequence[GameList]) -> None:
        self._lists = list(lists)

    @property
    def election(self) -> ElectedRunner | None:
        """The home partition's election (each partition elects its own runner)."""
        return self._lists[0].election

    def select(self, event: Any = None, round: Any = None, table: Any = None, status: Any = None) -> list[GameSummary]:
        """Game summaries of every partition, most recently updated first (then by id)."""
        found = [gl.select(event, round, table, status) for gl in self._lists]
        if len(found) == 1:
            return found[0]
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
