"""One database of the ledger (``Partition``): its ``eventsourcing`` application, group committer,
tokens, idempotency records, games (their commands, reads and record), read models and game list,
wired together. ``LedgerService`` holds one per database URL (``ledger.partitions`` spreads games
over several)."""

from __future__ import annotations

from domain.cards.catalog import Catalog
from ledger.clock import Now
from ledger.game_reads import GameReads
from ledger.game_record import GameRecord
from ledger.game_service import GameService
from ledger.idempotency import IdempotencyRecords
from ledger.settings import LedgerSettings
from ledger.tokens import TokenRegistry
from ledger.write_path import GameHeads, StreamWriter
from projections.game_list import GameList
from store.application import LedgerApplication
from store.database_url import StoreKind, library_environment, sqlite_path, store_kind
from store.group_commit import GroupCommitter
from store.head_watch import HeadWatch
from store.read_model_group import ReadModelGroup
from store.repository import GameRepository
from store.streams import Streams


class Partition:
    """One database of the ledger: its application, group committer, tokens, idempotency
    records, games, record and game list, wired together (``LedgerService`` holds one per URL)."""

    def __init__(self, database_url: str, catalog: Catalog, now: Now, settings: LedgerSettings) -> None:
        self.store: StoreKind = store_kind(database_url)
        create_tables = settings.create_tables
        env = library_environment(database_url, create_tables=create_tables)
        if self.store == "sqlite" and create_tables:
            sqlite_path(database_url).parent.mkdir(parents=True, exist_ok=True)
        if settings.cache_size > 0:  # the library reads 0 as "unbounded"
            env.update(
                AGGREGATE_CACHE_MAXSIZE=str(settings.cache_size),
                # Games are immutable values: no defensive deep copy of cached ones.
                DEEPCOPY_FROM_AGGREGATE_CACHE="n",
            )
        self.library_env: dict[str, str] = dict(env)
        self.app = LedgerApplication(env)
        self.committer: GroupCommitter | None = (
            GroupCommitter(
                self.app,
                window=settings.group_commit_window,
                probe=getattr(self.app.recorder, "taken_versions", None),
            )
            if settings.group_commit_window is not None
            else None
        )
        saver = self.committer if self.committer is not None else self.app
        self.streams = Streams(self.app, saver)
        """Read and append this database's streams (``store.streams``): the ledger's one door."""
        self.tokens = TokenRegistry(self.app, now)
        self.idempotency = IdempotencyRecords(self.app, now, saver)
        repository = GameRepository(self.app)
        self.repository = repository
        """The games' heads as this process has them (cached, or marked behind)."""
        heads = GameHeads(
            repository, self.streams, snapshot_interval=settings.snapshot_interval, check_heads=settings.check_heads
        )
        writes = StreamWriter(heads, self.streams, self.idempotency, now)
        self.writes = writes
        """The one writer of this database's games (``ledger.write_path``)."""
        self.games = GameService(self.streams, repository, writes, catalog, now)
        """Create, act, undo."""
        self.reads = GameReads(repository)
        """State at a version, events, actions, timeline."""
        self.record = GameRecord(self.app, repository, now, snapshot_interval=settings.snapshot_interval)
        """Verify, export, import."""
        stored_after = getattr(self.app.recorder, "stored_after", None)
        self.head_watch: HeadWatch | None = (
            HeadWatch(stored_after, self.app.recorder.max_notification_id() or 0, repository)
            if settings.watch_heads and stored_after is not None
            else None
        )
        """Keeps the cached heads other processes moved on up to date (``store.head_watch``;
        PostgreSQL)."""
        self.read_models = ReadModelGroup(env, run=settings.read_models, standby_interval=settings.standby_interval)
        """This database's read models (the game list; on the home partition also the matches and
        the outbox), run together by one elected process once ``read_models.start()`` is called."""
        try:
            self.game_list = GameList(self.app, self.store, env, group=self.read_models)
        except BaseException:
            if self.head_watch is not None:
                self.head_watch.close()
            if self.committer is not None:
                self.committer.close()
            self.app.close()
            raise

    def close(self) -> None:
        try:
            self.read_models.close()  # the runner first: it writes through views closed below
            if self.head_watch is not None:
                self.head_watch.close()
            if self.committer is not None:
                self.committer.close()  # answers every save handed in, then stops
        finally:
            try:
                self.game_list.close()
            finally:
                self.app.close()
