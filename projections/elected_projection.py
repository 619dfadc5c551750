"""A read model as the service runs it: the view every process reads, and the batching runner
(``projections.batching_runner``) in the one process elected to keep it
(``projections.runner_election``; with ``run`` off, never this one). The game list, the
matches and the webhook outbox are each one of these."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from eventsourcing.persistence import InfrastructureFactory, TrackingRecorder
from eventsourcing.projection import Projection
from eventsourcing.utils import Environment

from projections.batching_runner import BatchingProjectionRunner
from projections.ledger_application import LedgerApplication
from projections.runner_election import STANDBY_INTERVAL, ElectedRunner

log = logging.getLogger("mtg_ledger.store")
TView = TypeVar("TView", bound=TrackingRecorder)


class ElectedProjection(Generic[TView]):
    """One projection (``projection``, kept in a ``view_class`` view) and its runner."""

    def __init__(
        self,
        app: LedgerApplication,
        env: Mapping[str, str],
        projection: type[Projection[TView]],
        view_class: type[TView],
        *,
        election: str,
        run: bool,
        standby_interval: float = STANDBY_INTERVAL,
    ) -> None:
        self._app = app
        self._projection = projection
        self._view_class = view_class
        # The runner's own application copy never creates tables (the ledger's just did) and
        # keeps one connection open (LISTEN; pulls open another on demand). The view's
        # environment is named after the projection, so its prefixed settings win for it alone:
        # the reading view creates its tables, and keeps one connection; the runner's view
        # (made later, when elected) finds them made.
        prefix = projection.name.upper()
        view_env = {
            **env,
            "CREATE_TABLE": "n",
            "POSTGRES_POOL_SIZE": "1",
            f"{prefix}_CREATE_TABLE": env["CREATE_TABLE"],
            f"{prefix}_POSTGRES_POOL_SIZE": "1",
        }
        factory = InfrastructureFactory[TrackingRecorder].construct(Environment(projection.name, view_env))
        view = factory.tracking_recorder(view_class)
        assert isinstance(view, view_class)
        self.view: TView = view
        """The view this process reads (and, for the outbox, writes its deliveries to)."""
        self._runner_env = {**view_env, f"{prefix}_CREATE_TABLE": "n"}
        self._runner: BatchingProjectionRunner[LedgerApplication, TView] | None = None
        self.election: ElectedRunner | None = None
        """Whether this process runs the projection (``None``: it never asks to)."""
        if run:
            try:
                self.election = ElectedRunner(
                    env, election, start=self._start, stop=self._stop, interval=standby_interval
                )
            except BaseException:
                _close(self.view)
                raise

    def _start(self) -> None:
        runner = BatchingProjectionRunner(
            application_class=LedgerApplication,
            projection_class=self._projection,
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
            log.exception("the %s projection had stopped with an error", self._projection.name)
        finally:
            _close(runner.view)

    def runner_state(self) -> str:
        """``running``; ``elsewhere`` when this process doesn't run the read model (another one
        keeps it); or ``stopped: <error>`` when this process's runner stopped."""
        runner = self._runner
        if runner is None:
            return "elsewhere"
        if not runner.is_interrupted.is_set():
            return "running"
        error: Any = getattr(runner, "_thread_error", None)
        return "stopped" if error is None else f"stopped: {type(error).__name__}: {error}"[:500]

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the read model has processed everything stored so far (for tests and
        tools); ``TimeoutError`` after ``timeout`` seconds, or the runner's error if it died
        (in whichever process runs it)."""
        target = self._app.recorder.max_notification_id()
        if target is None:
            return
        deadline = time.monotonic() + timeout
        while not self.view.has_tracking_id(self._app.name, target):
            runner = self._runner
            if runner is not None and runner.is_interrupted.is_set():
                runner.run_forever(timeout=0)  # re-raises the projection's error
                raise RuntimeError(f"the {self._projection.name} projection runner has stopped")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the read model did not reach notification {target} in {timeout}s")
            time.sleep(0.005)

    def close(self) -> None:
        """Stop the runner (if this process runs it), free the election and close the view."""
        try:
            if self.election is not None:
                self.election.close()
        finally:
            _close(self.view)


def _close(view: TrackingRecorder) -> None:
    """Close a view's connections (the library's ``TrackingRecorder`` has no ``close``; the
    ledger's views, ``GameSummaryView`` and ``DocumentView``, each have one)."""
    close = getattr(view, "close", None)
    if callable(close):
        close()
