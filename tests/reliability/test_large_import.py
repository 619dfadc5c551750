"""A long game imports in one atomic save, on both stores, in bounded time.

On PostgreSQL the library's pipelined insert of a multi-megabyte batch never returned (a
100,000-event game always, a 10,000-event one sometimes); ``store.postgres_recorder``
sends large batches outside pipeline mode. The import runs in a thread with a deadline, so a
regression fails here instead of hanging the suite.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from bench.harness import ScratchStore
from bench.replay import ACTOR, build_export
from ledger.service import LedgerService, LedgerSettings


def import_within(store: ScratchStore, events: int, seconds: float) -> None:
    lines = build_export("long", events)
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            with LedgerService(store.url, LedgerSettings(read_models=False)) as service:
                outcome["version"] = service.import_game(lines, ACTOR).version
                outcome["verify"] = service.verify("long")
        except BaseException as err:  # reported below
            outcome["error"] = err

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    assert not worker.is_alive(), f"importing {events} events did not finish in {seconds}s"
    assert "error" not in outcome, outcome.get("error")
    assert outcome["version"] == events
    assert outcome["verify"].ok and outcome["verify"].events == events


def test_a_20000_event_game_imports(store: ScratchStore) -> None:
    import_within(store, 20_000, seconds=120)


@pytest.mark.slow
def test_a_100000_event_game_imports(store: ScratchStore) -> None:
    import_within(store, 100_000, seconds=600)
