"""One database of the ledger, opened from its URL: the library application, its group committer,
the games' repository, the head watch and ``Streams``, the one door ``ledger`` reads and appends
through.

``ledger`` never constructs or calls the ``eventsourcing`` application itself (import-linter's
"only store/ opens the library application" contract, and ``tests/store/test_store_boundary.py``):
it holds a ``LedgerStore`` and uses ``streams`` and ``repository``. The application object is
handed on, opaque, only to what runs the read models (``projections``, ``store.documents``),
which keep their own tables with the library's projection machinery (``read_model_app``).
"""

from __future__ import annotations

from store.application import LedgerApplication
from store.database_url import StoreKind, library_environment, sqlite_path, store_kind
from store.group_commit import GroupCommitter
from store.head_watch import HeadWatch
from store.repository import GameRepository
from store.streams import Streams

ReadModelApp = LedgerApplication
"""The library application as the ledger names it: an opaque handle it only hands on to the read
models' runners (``store.documents.follower``, ``projections``), never calls."""


class LedgerStore:
    """One database's streams, opened from its URL (see the module docstring)."""

    def __init__(
        self,
        database_url: str,
        *,
        create_tables: bool = True,
        cache_size: int = 0,
        group_commit_window: float | None = None,
        watch_heads: bool = False,
    ) -> None:
        self.kind: StoreKind = store_kind(database_url)
        """``sqlite`` or ``postgresql``."""
        env = library_environment(database_url, create_tables=create_tables)
        if self.kind == "sqlite" and create_tables:
            sqlite_path(database_url).parent.mkdir(parents=True, exist_ok=True)
        if cache_size > 0:  # the library reads 0 as "unbounded"
            env.update(
                AGGREGATE_CACHE_MAXSIZE=str(cache_size),
                # Games are immutable values: no defensive deep copy of cached ones.
                DEEPCOPY_FROM_AGGREGATE_CACHE="n",
            )
        self.library_env: dict[str, str] = dict(env)
        """The library's environment (what the read models' runners and elections open)."""
        self._app = LedgerApplication(env)
        try:
            self.committer: GroupCommitter | None = (
                GroupCommitter(
                    self._app,
                    window=group_commit_window,
                    probe=getattr(self._app.recorder, "taken_versions", None),
                )
                if group_commit_window is not None
                else None
            )
            """Saves of concurrent callers in one transaction (``None``: one transaction each)."""
            self.streams = Streams(self._app, self.committer if self.committer is not None else self._app)
            """Read and append every stream of this database."""
            self.repository = GameRepository(self._app)
            """The games' heads as this process has them (cached, or marked behind)."""
            stored_after = getattr(self._app.recorder, "stored_after", None)
            self.head_watch: HeadWatch | None = (
                HeadWatch(stored_after, self.streams.newest_notification(), self.repository)
                if watch_heads and stored_after is not None
                else None
            )
            """Keeps the cached heads other processes moved on up to date (PostgreSQL)."""
        except BaseException:
            self._app.close()
            raise

    @property
    def read_model_app(self) -> ReadModelApp:
        """The library application, for the read models' runners only (``projections``,
        ``store.documents``): they follow its notification log with the library's machinery."""
        return self._app

    def close(self) -> None:
        """Stop the head watch and the committer (answering every save handed in), then close."""
        try:
            if self.head_watch is not None:
                self.head_watch.close()
            if self.committer is not None:
                self.committer.close()
        finally:
            self._app.close()
