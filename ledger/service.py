"""``LedgerService``: one ledger over one database URL, wired from its parts.

It builds the ``eventsourcing`` application (one table set for every stream), the game-list
read model and the parts that work on them, and closes them all:

- ``games`` (``ledger.game_service``): create, act, undo; state, events, timeline;
- ``record`` (``ledger.game_record``): verify, export, import;
- ``tokens`` (``ledger.tokens``) and ``idempotency`` (``ledger.idempotency``): used by
  the HTTP layer directly;
- ``game_list`` (``projections.game_list``): the read model of game summaries.

The methods below are the same operations for callers that hold the whole ledger (the CLI, tools
and tests); the HTTP routes call the parts.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

from domain.cards.catalog import Catalog, bundled_catalog
from domain.commands import Command, parse_command
from domain.commands.bodies.create import GameCreateBody
from domain.state import GameState
from ledger.clock import Clock, recorder, utc_now
from ledger.game_record import GameRecord
from ledger.game_service import UNDO_HISTORY_PAGE, Authorize, GameService, int_arg
from ledger.idempotency import IdempotencyRecords
from ledger.match_service import Matches
from ledger.partition import Partition
from ledger.partitions import PartitionedGameList, PartitionedGames, PartitionedIdempotency, PartitionedRecord
from ledger.tokens import TokenRegistry
from ledger.webhooks import Webhooks
from projections.game_list import GameList
from store.application import LedgerApplication
from store.database_url import StoreKind, store_kind
from store.group_commit import DEFAULT_WINDOW, GroupCommitter
from store.results import ActionResult, Actor, GameSummary, RecordedEvent, TokenInfo, VerifyReport
from store.runner_election import STANDBY_INTERVAL

__all__ = [
    "ActionResult",
    "Actor",
    "GameSummary",
    "LedgerService",
    "RecordedEvent",
    "TokenInfo",
    "VerifyReport",
]


class LedgerService:
    """Games, their audit trail, tokens and idempotency records, over one database URL.

    ``database_url``: one URL, or several: games partitioned across those databases by a
    stable hash of the game id (``ledger.partitions``; the first is the home partition).
    ``create_tables``: create the tables at start-up (do it once, then start workers with it
    off: creating tables from several processes at once raced, DESIGN.md).
    ``snapshot_interval``: events between snapshots (0 turns snapshots off).
    ``project_read_models``: ask to run the read models (game list, matches, outbox) in this process.
    ``cache_size``: games whose head each process keeps (the head actions are decided on; 0: none).
    ``clock``: the time source for ``recorded_at`` (tests pass a fixed one).
    ``group_commit_window``: seconds the group committer waits to gather the saves of other
    games' actions into one transaction (``store.group_commit``; 0: only what queued up
    meanwhile; ``None``: no group commit, one transaction per save).
    ``check_heads``: before deciding an action on a cached head, read what other processes
    stored after it (``GameService``; for several processes on one SQLite file).
    ``watch_heads``: keep the cached heads other processes moved on up to date, from one read of
    the new events every 20 ms (``store.head_watch``; PostgreSQL, where a read per action is a round trip).
    ``standby_interval``: seconds between a stand-by process's tries to be elected to run the
    read models (``store.read_model_group``: one runner per database).
    """

    def __init__(
        self,
        database_url: str | Sequence[str],
        *,
        catalog: Catalog | None = None,
        snapshot_interval: int = 25,
        create_tables: bool = True,
        project_read_models: bool = True,
        cache_size: int = 1024,
        clock: Clock = utc_now,
        group_commit_window: float | None = DEFAULT_WINDOW,
        check_heads: bool = False,
        watch_heads: bool = False,
        standby_interval: float = STANDBY_INTERVAL,
        deliver_webhooks: bool = False,
        webhook_lease: float = 30.0,
        webhook_backoff: float = 1.0,
    ) -> None:
        urls = [database_url] if isinstance(database_url, str) else list(database_url)
        if not urls:
            raise ValueError("a ledger needs at least one database URL")
        self.store: StoreKind = store_kind(urls[0])
        """``sqlite`` or ``postgresql`` (of the home partition when there are several)."""
        self.catalog: Catalog = catalog if catalog is not None else bundled_catalog()
        """Resolves card names in requests."""
        self.snapshot_interval = int_arg("snapshot_interval", snapshot_interval, 0)
        int_arg("cache_size", cache_size, 0)
        now = recorder(clock)
        self.partitions: list[Partition] = []
        """One per database URL (``ledger.partitions``); the first is the home partition."""
        try:
            for url in urls:
                self.partitions.append(
                    Partition(
                        url,
                        self.catalog,
                        now,
                        snapshot_interval=self.snapshot_interval,
                        create_tables=create_tables,
                        project_read_models=project_read_models,
                        cache_size=cache_size,
                        group_commit_window=group_commit_window,
                        check_heads=check_heads,
                        watch_heads=watch_heads,
                        standby_interval=standby_interval,
                        undo_page=UNDO_HISTORY_PAGE,  # read here, so a test can make the pages small
                    )
                )
        except BaseException:
            for built in self.partitions:
                built.close()
            raise
        home = self.partitions[0]
        self.library_env: dict[str, str] = home.library_env
        """The library's environment of the home store (what ``runner_election`` elects on)."""
        self.app: LedgerApplication = home.app
        """The home partition's ``eventsourcing`` application (with one URL: the only one)."""
        self.committer: GroupCommitter | None = home.committer
        """The home partition's group committer (``None``: group commit off)."""
        self.tokens: TokenRegistry = home.tokens
        """API tokens (stored hashed, in the home partition)."""
        self.games: GameService | PartitionedGames
        """Create, act, undo; state, events, timeline."""
        self.record: GameRecord | PartitionedRecord
        """Verify, export, import."""
        self.idempotency: IdempotencyRecords | PartitionedIdempotency
        """``Idempotency-Key`` claims and remembered responses."""
        self.game_list: GameList | PartitionedGameList
        """The game-list read model."""
        if len(self.partitions) == 1:
            self.games, self.record = home.games, home.record
            self.idempotency, self.game_list = home.idempotency, home.game_list
        else:
            self.games = PartitionedGames(self.partitions)
            self.record = PartitionedRecord(self.partitions)
            self.idempotency = PartitionedIdempotency(self.partitions)
            self.game_list = PartitionedGameList(self.partitions)
        # Matches and webhooks follow the home partition's log (docs/operations.md: with several
        # partitions they see the games stored there only).
        try:
            self.matches = Matches(home.app, home.store, home.library_env, now, group=home.read_models)
            """Matches by event, round and table (a read model) and match reports."""
            self.webhooks = Webhooks(
                home.app,
                home.store,
                home.library_env,
                now,
                group=home.read_models,
                deliver=deliver_webhooks,
                lease=webhook_lease,
                backoff=webhook_backoff,
            )
            """Webhook subscriptions, the outbox and its deliverer."""
            for part in self.partitions:
                part.read_models.start()  # every read model is added: one runner per log
        except BaseException:
            for part in self.partitions:
                part.read_models.close()
            for name in ("webhooks", "matches"):
                if hasattr(self, name):
                    getattr(self, name).close()
            for built in self.partitions:
                built.close()
            raise
        self._closed = False

    # -- lifecycle ---------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the projection runners and close every connection pool."""
        if self._closed:
            return
        self._closed = True
        errors: list[BaseException] = []
        for part in self.partitions:
            try:
                part.read_models.close()  # stop the runners before their views close
            except BaseException as err:  # close the rest anyway
                errors.append(err)
        for follower in (self.webhooks, self.matches):
            try:
                follower.close()
            except BaseException as err:  # close the partitions anyway
                errors.append(err)
        for part in self.partitions:
            try:
                part.close()
            except BaseException as err:  # close every partition
                errors.append(err)
        if errors:
            raise errors[0]

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- the parts' operations, for callers holding the whole ledger -------------------------
    def create_game(
        self,
        body: dict[str, Any] | GameCreateBody,
        actor: Actor,
        game_id: str | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
    ) -> ActionResult:
        return self.games.create_game(
            body, actor, game_id, idempotency_key=idempotency_key, request_fingerprint=request_fingerprint
        )

    def act(
        self,
        game_id: str,
        command: Command | Mapping[str, Any],
        actor: Actor,
        expected_version: int | None = None,
        *,
        idempotency_key: str | None = None,
        request_fingerprint: str | None = None,
        authorize: Authorize | None = None,
    ) -> ActionResult:
        """``games.act``; a request body is parsed with this ledger's catalog first."""
        if isinstance(command, Mapping):
            command = parse_command(dict(command), self.catalog.resolve)
        return self.games.act(
            game_id,
            command,
            actor,
            expected_version,
            idempotency_key=idempotency_key,
            request_fingerprint=request_fingerprint,
            authorize=authorize,
        )

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
    ) -> ActionResult:
        return self.games.undo(
            game_id,
            to_version=to_version,
            actions=actions,
            reason=reason,
            actor=actor,
            expected_version=expected_version,
            idempotency_key=idempotency_key,
            request_fingerprint=request_fingerprint,
        )

    def head_version(self, game_id: str) -> int:
        return self.games.head_version(game_id)

    def state_at(self, game_id: str, version: int | None = None) -> tuple[int, GameState]:
        return self.games.state_at(game_id, version)

    def events(self, game_id: str, after: int = 0, limit: int = 100) -> list[RecordedEvent]:
        return self.games.events(game_id, after, limit)

    def timeline(self, game_id: str, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        """One page of the timeline (its groups; ``games.timeline`` also says where the next starts)."""
        return self.games.timeline(game_id, after, limit).groups

    def verify(self, game_id: str) -> VerifyReport:
        return self.record.verify(game_id)

    def export(self, game_id: str) -> Iterator[str]:
        return self.record.export(game_id)

    def verify_export(self, lines: Iterable[str]) -> VerifyReport:
        return self.record.verify_export(lines)

    def import_game(self, lines: Iterable[str], actor: Actor) -> ActionResult:
        return self.record.import_game(lines, actor)

    def list_games(
        self, event: Any = None, round: Any = None, table: Any = None, status: Any = None
    ) -> list[GameSummary]:
        return self.game_list.select(event, round, table, status)

    def keeps_read_models(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for this process to be elected to keep the read models
        of every partition (``mtg-ledger project``); whether it keeps them all."""
        deadline = time.monotonic() + timeout
        return all(part.read_models.wait_elected(max(0.0, deadline - time.monotonic())) for part in self.partitions)

    def wait_for_read_model(self, timeout: float = 10.0) -> None:
        self.game_list.wait(timeout)
        self.matches.wait(timeout)
        self.webhooks.wait(timeout)
