"""The game list read model as the service runs it: an ``ElectedProjection`` (the view every
process reads; projected, with the log's other read models, by the one process its
``ReadModelGroup`` elects) and the list's own queries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.game_summaries import GameSummaryProjection
from projections.game_summary_tables import GameSummaryView, ProjectionFailure, view_class_for
from store.application import LedgerApplication
from store.database_url import StoreKind
from store.elected_projection import ElectedProjection
from store.read_model_group import ReadModelGroup
from store.results import GameSummary
from store.runner_election import ElectedRunner


class GameList:
    """Game summaries by tournament, round, table and status (``game_summaries``).

    ``group``: the log's read models; the process it elects projects the list, the others stand
    by and take over when it stops. Every process reads the view through a connection of its own.
    """

    def __init__(
        self,
        app: LedgerApplication,
        store: StoreKind,
        env: Mapping[str, str],
        *,
        group: ReadModelGroup,
    ) -> None:
        self._model = ElectedProjection(app, env, GameSummaryProjection, view_class_for(store), group=group)
        self._view: GameSummaryView = self._model.view

    @property
    def election(self) -> ElectedRunner | None:
        """Whether this process runs the projection (``None``: it never asks to)."""
        return self._model.election

    def select(self, event: Any = None, round: Any = None, table: Any = None, status: Any = None) -> list[GameSummary]:
        """Game summaries (may lag the log by a moment; see ``wait``), most recently updated first."""
        return self._view.select_games(event=event, round=round, table=table, status=status)

    def failures(self) -> list[ProjectionFailure]:
        """Games the read model could not project (each marked at its first failing record)."""
        return self._view.select_failures()

    def runner_state(self) -> str:
        """``running``, ``elsewhere`` (another process keeps it) or ``stopped: <error>``."""
        return self._model.runner_state()

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the list has projected everything stored so far (``ElectedProjection``)."""
        self._model.wait(timeout)

    def close(self) -> None:
        """Close the view (its group, closed first, stops the runner)."""
        self._model.close()
