"""The game list read model as the service runs it: the view every process reads, the library's
projection runner in the one process elected to run it (``projections.runner_election``; with
``project_read_models`` off, never this one), and waiting for it."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from eventsourcing.persistence import InfrastructureFactory, TrackingRecorder
from eventsourcing.projection import ProjectionRunner
from eventsourcing.utils import Environment

from projections.batching_runner import BatchingProjectionRunner
from projections.database_url import StoreKind
from projections.game_summaries import (
    GameSummaryProjection,
    GameSummaryView,
    ProjectionFailure,
    view_class_for,
)
from projections.ledger_application import LedgerApplication
from projections.results import GameSummary
from projections.runner_election import STANDBY_INTERVAL, ElectedRunner

log = logging.getLogger("mtg_ledger.store")

GAME_LIST_RUNNER = "game-summaries"
"""The game list's name in the runner election."""


class GameList:
    """Game summaries by tournament, round, table and status (``game_summaries``).

    With ``run``, this process asks to run the projection: one process per deployment is
    elected (``projections.runner_election``) and runs it, the others stand by and take over
    when it stops. Every process reads the view through a connection of its own.
    """

    def __init__(
        self,
        app: LedgerApplication,
        store: StoreKind,
        env: Mapping[str, str],
        *,
        run: bool,
        standby_interval: float = STANDBY_INTERVAL,
    ) -> None:
        self._app = app
        # The runner's own application copy never creates tables (the ledger's just did) and
        # keeps one connection open (LISTEN; pulls open another on demand). The view's
        # environment is named after the projection, so its prefixed settings win for it alone:
        # the reading view creates its tables, and keeps one connection; the runner's view
        # (made later, when elected) finds them made.
        prefix = GameSummaryProjection.name.upper()
        view_env = {
            **env,
            "CREATE_TABLE": "n",
            "POSTGRES_POOL_SIZE": "1",
            f"{prefix}_CREATE_TABLE": env["CREATE_TABLE"],
            f"{prefix}_POSTGRES_POOL_SIZE": "1",
        }
        self._view_class = view_class_for(store)
        factory = InfrastructureFactory[TrackingRecorder].construct(Environment(GameSummaryProjection.name, view_env))
        view = factory.tracking_recorder(self._view_class)
        assert isinstance(view, GameSummaryView)
        self._view: GameSummaryView = view
        self._runner_env = {**view_env, f"{prefix}_CREATE_TABLE": "n"}
        self._runner: ProjectionRunner[LedgerApplication, GameSummaryView] | None = None
        self.election: ElectedRunner | None = None
        """Whether this process runs the projection (``None``: it never asks to)."""
        if run:
            try:
                self.election = ElectedRunner(
                    env, GAME_LIST_RUNNER, start=self._start, stop=self._stop, interval=standby_interval
                )
            except BaseException:
                self._view.close()
                raise

    def _start(self) -> None:
        runner = BatchingProjectionRunner(
            application_class=LedgerApplication,
            projection_class=GameSummaryProjection,
            view_class=self._view_class,
            env=self._runner_env,
        )
        runner.__enter__()
        self._runner = runner

    def _stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is None:
            return
        try:
            runner.__exit__(None, None, None)
        except Exception:
            # The runner re-raises what stopped its thread (e.g. a record it could not read);
            # ``wait`` reports that while running; shutting down must not fail.
            log.exception("the game-summary projection had stopped with an error")
        finally:
            runner.view.close()

    def select(self, event: Any = None, round: Any = None, table: Any = None, status: Any = None) -> list[GameSummary]:
        """Game summaries (may lag the log by a moment; see ``wait``), most recently updated first."""
        return self._view.select_games(event=event, round=round, table=table, status=status)

    def failures(self) -> list[ProjectionFailure]:
        """Games the read model could not project (each marked at its first failing record)."""
        return self._view.select_failures()

    def runner_state(self) -> str:
        """``running``; ``elsewhere`` when this process doesn't run the read model (another one
        keeps it); or ``stopped: <error>`` when this process's runner stopped."""
        if self._runner is None:
            return "elsewhere"
        if not self._runner.is_interrupted.is_set():
            return "running"
        error = getattr(self._runner, "_thread_error", None)
        return "stopped" if error is None else f"stopped: {type(error).__name__}: {error}"[:500]

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the read model has processed everything stored so far (for tests and
        tools); ``TimeoutError`` after ``timeout`` seconds, or the runner's error if it died
        (in whichever process runs it)."""
        target = self._app.recorder.max_notification_id()
        if target is None:
            return
        deadline = time.monotonic() + timeout
        while not self._view.has_tracking_id(self._app.name, target):
            runner = self._runner
            if runner is not None and runner.is_interrupted.is_set():
                runner.run_forever(timeout=0)  # re-raises the projection's error
                raise RuntimeError("the read model's projection runner has stopped")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the read model did not reach notification {target} in {timeout}s")
            time.sleep(0.005)

    def close(self) -> None:
        """Stop the runner (if this process runs it), free the election and close the view."""
        try:
            if self.election is not None:
                self.election.close()
        finally:
            self._view.close()
