"""A read model as the service runs it: the view every process reads, and its place in the
log's ``ReadModelGroup`` (``store.read_model_group``): the one process elected to keep
the log's read models projects it, with the others, from one subscription. The game list, the
matches and the webhook outbox are each one of these."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Generic, TypeVar

from eventsourcing.persistence import InfrastructureFactory, TrackingRecorder
from eventsourcing.projection import Projection
from eventsourcing.utils import Environment

from store.application import LedgerApplication
from store.batching_runner import BatchProjection
from store.read_model_group import ReadModelGroup
from store.runner_election import ElectedRunner

TView = TypeVar("TView", bound=TrackingRecorder)


class ElectedProjection(Generic[TView]):
    """One projection (``projection``, kept in a ``view_class`` view), a member of ``group``."""

    def __init__(
        self,
        app: LedgerApplication,
        env: Mapping[str, str],
        projection: type[Projection[TView]],
        view_class: type[TView],
        *,
        group: ReadModelGroup,
    ) -> None:
        self._app = app
        self._projection = projection
        self._view_class = view_class
        self._group = group
        # The view's environment is named after the projection, so its prefixed settings win for
        # it alone: the reading view creates its tables and keeps one connection; the runner's
        # view (made when this process is elected) finds them made.
        prefix = projection.name.upper()
        view_env = {
            **env,
            "CREATE_TABLE": "n",
            "POSTGRES_POOL_SIZE": "1",
            f"{prefix}_CREATE_TABLE": env["CREATE_TABLE"],
            f"{prefix}_POSTGRES_POOL_SIZE": "1",
        }
        self.view: TView = self._new_view(view_env)
        """The view this process reads (and, for the outbox, writes its deliveries to)."""
        self._runner_env = {**view_env, f"{prefix}_CREATE_TABLE": "n"}
        group.add(self)

    def _new_view(self, env: Mapping[str, str]) -> TView:
        """A view of this read model in ``env`` (named after the projection, see above)."""
        factory = InfrastructureFactory[TrackingRecorder].construct(Environment(self._projection.name, env))
        view = factory.tracking_recorder(self._view_class)
        assert isinstance(view, self._view_class)
        return view

    @property
    def name(self) -> str:
        return self._projection.name

    def runner_parts(self) -> tuple[TrackingRecorder, BatchProjection]:
        view = self._new_view(self._runner_env)
        projection: BatchProjection = self._projection(view=view)  # type: ignore[assignment]
        return view, projection

    @property
    def election(self) -> ElectedRunner | None:
        """Whether this process keeps the log's read models (``None``: it never asks to)."""
        return self._group.election

    def runner_state(self) -> str:
        """``running``; ``elsewhere`` when this process doesn't run the read model (another one
        keeps it); or ``stopped: <error>`` when this process's runner of it stopped."""
        return self._group.state(self.name)

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the read model has processed everything stored so far (for tests and
        tools); ``TimeoutError`` after ``timeout`` seconds, or the runner's error if it stopped
        (in whichever process runs it)."""
        target = self._app.recorder.max_notification_id()
        if target is None:
            return
        deadline = time.monotonic() + timeout
        while not self._reached(target):
            error = self._group.problem(self.name)
            if error is not None:
                raise RuntimeError(f"the {self.name} projection runner has stopped: {error}") from error
            if time.monotonic() > deadline:
                raise TimeoutError(f"the read model did not reach notification {target} in {timeout}s")
            time.sleep(0.005)

    def _reached(self, target: int) -> bool:
        # The runner's own position first: a position it has not written yet (the records
        # changed nothing of this read model) is written within QUIET_FLUSH seconds; what it
        # holds back for its readers (the game list's versions) is written now.
        here = self._group.position(self.name)
        if here is not None and here >= target:
            self._group.write_held(self.name)
            return True
        return self.view.has_tracking_id(self._app.name, target)

    def close(self) -> None:
        """Close the view (the group, closed first, stops the runner and frees the election)."""
        close = getattr(self.view, "close", None)
        if callable(close):
            close()
