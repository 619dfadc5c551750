"""The report of an open-loop run (``bench/open_loop.py``): its table, one row per store and
worker count, and its section of docs/performance.md (the command, the machine, the method).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness import ROOT, Server, update_section
from bench.http_load import machine
from bench.loadgen import Step


@dataclass
class Target:
    """One server of the run and the steps it was measured at."""

    name: str
    server: Server
    targets: list[str]
    path: str
    """The request path (``bench.loadgen``: ``{}`` is the game or stream)."""
    steps: list[Step] = field(default_factory=list)
    closed: Step | None = None
    sent: int = 0

    def best(self, p99_ms: float) -> Step | None:
        ok = [s for s in self.steps if s.sustained(p99_ms)]
        return max(ok, key=lambda s: s.rate) if ok else None

    def failed(self, p99_ms: float) -> bool:
        return any(not s.sustained(p99_ms) for s in self.steps)


def baselines(names: list[str]) -> list[str]:
    """The bare stacks the ledger is compared with (a ratio column each), when it ran too."""
    return [b for b in ("bare", "bare-load") if "ledger" in names and b in names]


def history_note(history: int) -> str:
    if not history:
        return "Games and streams start empty (new games)."
    return (
        f"Each game was imported with {history:,} events before the first measured action (and each bare-load "
        f"stream saved with as many): games in play, not new ones."
    )


def connections_note(args: argparse.Namespace) -> str:
    if args.tables:
        return "every game on a keep-alive connection of its own (`--tables`)"
    return f"on any free keep-alive connection of at most {args.connections}"


def load_average() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "n/a"


def open_ratio(mine: Step | None, theirs: Step | None, lowest: float) -> str:
    """The ledger's highest sustained rate over the baseline's; when the baseline sustained
    none of the ladder (less than its lowest rate), the ledger's over the lowest rate: a bound."""
    if mine is None:
        return "n/a" if theirs is None else "0.00"
    if theirs is None:
        return f"> {mine.rate / lowest:.2f}"
    return f"{mine.rate / theirs.rate:.2f}"


def cell(step: Step | None) -> str:
    if step is None:
        return "none"
    return f"{step.rate:,.0f} ({step.ms(50):.1f} / {step.ms(99):.1f})"


def row(kind: str, workers: int, found: list[Target], args: argparse.Namespace) -> str:
    """The table's row of one store and worker count: each server's highest sustained rate and
    closed-loop rate, the ledger over each bare stack, the load generator's CPU."""
    by = {t.name: t for t in found}
    label = "SQLite" if kind == "sqlite" else "PostgreSQL"
    cells = []
    for name in by:
        cells.append(cell(by[name].best(args.p99)))
    closed = [f"{c.achieved:,.0f}" if (c := by[name].closed) is not None else "n/a" for name in by]
    ratio = ""
    for base in baselines(list(by)):
        mine, theirs = by["ledger"].best(args.p99), by[base].best(args.p99)
        lc, bc = by["ledger"].closed, by[base].closed
        closed_ratio = f"{lc.achieved / bc.achieved:.2f}" if lc and bc and bc.achieved else "n/a"
        lowest = float(args.rates.split(",")[0])
        ratio += f" **{open_ratio(mine, theirs, lowest)}** | **{closed_ratio}** |"
    cpu = max((100 * s.client_cpu / s.seconds for t in found for s in t.steps if s.seconds), default=float("nan"))
    return (
        f"| {label} | {workers} | " + " | ".join(cells) + " | " + " | ".join(closed) + " |" + ratio + f" {cpu:.0f}% |"
    )


def table(names: list[str], rows: list[str]) -> str:
    """The Markdown table of a run's rows, its columns those of the servers ``names``."""
    header = (
        "| store | workers | "
        + " | ".join(f"{n}: highest sustained rate/s (p50 / p99 ms)" for n in names)
        + " | "
        + " | ".join(f"{n}: closed loop actions/s" for n in names)
        + " |"
        + "".join(f" ledger / {b}, open loop | ledger / {b}, closed loop |" for b in baselines(names))
        + " client CPU, most (% of one core) |"
    )
    columns = header.count("|") - 1
    return "\n".join([header, "|" + "---|" * 2 + "---:|" * (columns - 2), *rows])


def write_section(args: argparse.Namespace, began: str, ended: str, results: str) -> None:
    """The run's section of ``args.output`` (docs/performance.md): how it was run, then ``results``."""
    python = os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT)) else "python3"
    text = f"""
Command (from the repository root):

```sh
{" ".join([python, "bench/open_loop.py", *sys.argv[1:]])}
```

Machine: {machine()}; began {began}, ended {ended} (2 cores, shared with other people's test
runs: a load average above 2 means the servers were not alone on the cores). The load
generator is `bench/loadgen.c`, one epoll process on the same cores (its CPU share is the last
column).

Open loop over {args.games:,} games: each action sent at its scheduled time whatever the
answers, latency counted from that time, {connections_note(args)}; a rate is sustained when p99 <= {args.p99:g} ms, the
answers kept up (>= 95% of the rate) and < 1% were errors. Rates tried: {args.rates} per
second, {args.seconds:g} s measured after 1 s of warm-up, the servers taking turns at each rate;
a rate counts as failed when a second try fails too.
Closed loop: {args.clients} connections, {args.closed_rounds} x {args.seconds:g} s windows each.
{history_note(args.history)}

{results}
"""
    update_section(Path(args.output), "open-loop", text, "## Open loop: the highest rate at p99 <= 50 ms (issue 15)")
