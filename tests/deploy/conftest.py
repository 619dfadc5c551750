"""Deployment recipes under ``deploy/``, tested as they are (real nginx, real ledger servers).

Servers and scratch stores come from ``bench/harness.py``, as in the reliability suite."""

from __future__ import annotations

import sys
from pathlib import Path

# ``bench`` is not an installed package: the benchmarks run as scripts from the repository root.
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
