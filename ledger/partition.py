"""One database of the ledger (``Partition``): its store (``store.ledger_store``: streams, group
committer, repository, head watch), tokens, idempotency records, games (their commands, reads
and record), read models and game list, wired together. ``LedgerService`` holds one per database
URL (``ledger.partitions`` spreads games over several)."""

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
from store.database_url import StoreKind
from store.ledger_store import LedgerStore, ReadModelApp
from store.read_model_group import ReadModelGroup


class Partition:
    """One database of the ledger: its store, tokens, idempotency records, games, record and game
    list, wired together (``LedgerService`` holds one per URL)."""

    def __init__(self, database_url: str, catalog: Catalog, now: Now, settings: LedgerSettings) -> None:
        self.db = LedgerStore(
            database_url,
            create_tables=settings.create_tables,
            cache_size=settings.cache_size,
            group_commit_window=settings.group_commit_window,
            watch_heads=settings.watch_heads,
        )
        """The database: streams, committer, repository, head watch (``store.ledger_store``)."""
        self.store: StoreKind = self.db.kind
        self.library_env: dict[str, str] = self.db.library_env
        self.committer = self.db.committer
        self.streams = self.db.streams
        """Read and append this database's streams (``store.streams``): the ledger's one door."""
        self.head_watch = self.db.head_watch
        self.tokens = TokenRegistry(self.streams, now)
        self.idempotency = IdempotencyRecords(self.streams, now)
        repository = self.db.repository
        self.repository = repository
        """The games' heads as this process has them (cached, or marked behind)."""
        heads = GameHeads(
            repository, self.streams, snapshot_interval=settings.snapshot_interval, check_heads=settings.check_heads
        )
        self.writes = StreamWriter(heads, self.streams, self.idempotency, now)
        """The one writer of this database's games (``ledger.write_path``)."""
        self.games = GameService(self.streams, repository, self.writes, catalog, now)
        """Create, act, undo."""
        self.reads = GameReads(repository)
        """State at a version, events, actions, timeline."""
        self.record = GameRecord(self.streams, repository, now, snapshot_interval=settings.snapshot_interval)
        """Verify, export, import."""
        self.read_models = ReadModelGroup(
            self.library_env, run=settings.read_models, standby_interval=settings.standby_interval
        )
        """This database's read models (the game list; on the home partition also the matches and
        the outbox), run together by one elected process once ``read_models.start()`` is called."""
        try:
            self.game_list = GameList(self.app, self.store, self.library_env, group=self.read_models)
        except BaseException:
            self.db.close()
            raise

    @property
    def app(self) -> ReadModelApp:
        """The library application, handed on to the read models' runners (``projections``) and
        to tests and benchmarks that forge or count rows; the ledger itself reads and appends
        only through ``streams`` (``tests/store/test_store_boundary.py``)."""
        return self.db.read_model_app

    def close(self) -> None:
        try:
            self.read_models.close()  # the runner first: it writes through views closed below
        finally:
            try:
                self.game_list.close()
            finally:
                self.db.close()  # the head watch, then the committer (answering every save), then the pools
