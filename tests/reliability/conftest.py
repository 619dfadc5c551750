"""Reliability suite: real servers (``mtg-ledger serve`` subprocesses) on both stores.

Servers, scratch stores and the small HTTP helpers come from ``bench/harness.py`` (shared with
the benchmarks). Every store test runs on SQLite (a file in a temporary directory) and on
PostgreSQL (a fresh schema on the server at ``MTG_LEDGER_TEST_POSTGRES``; skipped with the reason
when it is unset, failing when it is set and unreachable). Long runs are ``@pytest.mark.slow``
(``make soak``); the rest runs in ``make test``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# ``bench`` is not an installed package: the benchmarks run as scripts from the repository root.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness import ScratchStore, scratch_store  # noqa: E402
from tests.conftest import require_postgres  # noqa: E402


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest) -> Iterator[ScratchStore]:
    """An empty store of each kind (SQLite file / PostgreSQL schema), removed afterwards."""
    postgres = require_postgres() if request.param == "postgresql" else None
    with scratch_store(request.param, postgres, prefix="mtgl_rel") as created:
        yield created
