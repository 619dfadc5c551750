"""Idle cost of the webhook deliverer with a full outbox (issue 33, finding 5; not a test).

A ledger with one subscription and ``--rows`` deliveries already delivered, its deliverer
running and nothing due: the process's CPU time over ``--seconds`` of wall time, as a fraction
of one core. The rows are written through the outbox view's ``put_docs`` (what the outbox
projection does), so the same script measures an older ledger too (there they are documents).
The ledger's other idle work (the read models' polling) is in the figure: run it with
``--rows 0`` for that part alone. Results go to docs/reliability.md (issue 33).

    .venv/bin/python bench/webhook_idle.py [--rows 20000] [--seconds 10] [--postgres URL]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from ledger.service import LedgerService, LedgerSettings, WebhookDelivery


def _delivered(sid: str, position: int) -> dict[str, Any]:
    delivery = f"{sid}-{position:012d}"
    return {
        "id": delivery,
        "subscription": sid,
        "event": "penalty_given",
        "body": json.dumps({"event": "penalty_given", "delivery": delivery, "data": {"pad": "x" * 200}}),
        "status": "delivered",
        "attempts": 1,
        "next_at": 0.0,
        "claimed_until": 0.0,
        "last_error": None,
        "delivered_at": "2026-12-03T10:00:00Z",
    }


def measure(url: str, rows: int, seconds: float) -> float:
    """The deliverer's process's CPU (fraction of one core) while idle over ``rows`` delivered rows."""
    hooks = WebhookDelivery(deliver=False)
    with LedgerService(url, LedgerSettings(webhooks=hooks)) as writer:
        sub = writer.subscribe_webhook("https://93.184.216.34/hook", ["penalty_given"])
        writer.wait_for_read_model()
        view: Any = writer.webhooks._follower.view  # the bench fills the outbox as its projection would
        for start in range(0, rows, 1000):
            batch = {
                f"delivery/{sub['id']}/{p:012d}": _delivered(sub["id"], p)
                for p in range(start, min(rows, start + 1000))
            }
            view.put_docs(batch, None)
    with LedgerService(url, LedgerSettings(webhooks=WebhookDelivery(deliver=True))) as service:
        service.wait_for_read_model()
        time.sleep(1.0)  # start-up settles
        cpu, wall = time.process_time(), time.monotonic()
        time.sleep(seconds)
        return (time.process_time() - cpu) / (time.monotonic() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--postgres", default=None, help="a PostgreSQL URL (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mtgl-hook-idle-") as tmp:
        url = args.postgres or f"sqlite:///{Path(tmp) / 'ledger.sqlite3'}"
        share = measure(url, args.rows, args.seconds)
    print(json.dumps({"rows": args.rows, "seconds": args.seconds, "cpu_share_of_one_core": round(share, 4)}))


if __name__ == "__main__":
    main()
