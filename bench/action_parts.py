"""Instructions per call of the parts of one action, in one process under callgrind (a benchmark).

``bench/instructions.py`` counts a whole server; this names the parts the breakdown points at,
without HTTP: the service's ``act`` (decide, seal, save on SQLite, no read models), the answer
rendered as starlette's ``JSONResponse`` renders it (``json``), as the ledger renders it
(``api.presenters.AnswerResponse``, orjson), the minimal answer (``Prefer: return=minimal``),
the state view alone, the body's JSON and its parse; and what the read models do with one
action's record when each pull holds one (the pace under callgrind, and of a quiet server):
the pull itself (``pull``: select it, decode it) and each read model's batch (``read_models``,
then one line per read model). Each part runs ``--calls`` times after a
warm-up between two callgrind client requests (zero the counters, dump them), through a tiny C
library built with the machine's ``cc`` into ``bench/.build/`` (``valgrind/callgrind.h``), so
each dump holds exactly that part's instructions.

It re-runs itself under ``valgrind --tool=callgrind`` (about two minutes):

    .venv/bin/python bench/action_parts.py [--calls 200] [--parts act,answer,...]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BUILD = Path(__file__).with_name(".build")
LIBRARY = BUILD / "libcallgrind_marks.so"
SOURCE = """#include <valgrind/callgrind.h>
void marks_zero(void) { CALLGRIND_ZERO_STATS; }
void marks_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
"""
PARTS = (
    "act",
    "answer_json",
    "answer",
    "answer_minimal",
    "state_view",
    "json_object",
    "parse",
    "pull",
    "read_models",
)


def build() -> Path:
    if not LIBRARY.exists():
        BUILD.mkdir(exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as source:
            source.write(SOURCE)
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(LIBRARY), source.name], check=True)
        os.unlink(source.name)
    return LIBRARY


def count(marks: Any, calls: int, label: str, fn: Callable[[], Any]) -> None:
    """``fn`` ``calls`` times after a warm-up, between a zero and a dump of callgrind's counts."""
    for _ in range(20):
        fn()
    marks.marks_zero()
    for _ in range(calls):
        fn()
    marks.marks_dump(label.encode())


def measure(calls: int, parts: list[str]) -> None:
    """Inside callgrind: each part between a zero and a dump."""
    import starlette.responses

    from api.auth import Principal
    from api.deps import json_object
    from api.presenters import AnswerResponse, action_out
    from bench.harness import scratch_store
    from bench.instructions import ACTIONS, GAME
    from domain.commands.parse import parse_command
    from domain.view import state_view
    from ledger.service import LedgerService, LedgerSettings
    from store.results import ActionResult, Actor

    marks = ctypes.CDLL(str(build()))
    bodies = [json.loads(a) for a in ACTIONS]
    actor, principal = Actor("admin", "admin"), Principal(name="admin", role="admin")

    def part(name: str, fn: Callable[[], Any]) -> None:
        if name in parts:
            count(marks, calls, name, fn)

    with scratch_store("sqlite") as store, LedgerService(store.url, LedgerSettings(read_models=False)) as service:
        ids = [f"g{i}" for i in range(50)]
        for gid in ids:
            service.create_game(dict(GAME), actor, gid)
        done = [0]
        last: list[ActionResult] = []

        def act() -> None:
            i = done[0]
            done[0] += 1
            number, k = i % len(ids), i // len(ids)
            last[:] = [service.act(ids[number], bodies[(k + number) % len(bodies)], actor)]

        part("act", act)
        if not last:
            act()
        result = last[0]
        part("answer_json", lambda: starlette.responses.JSONResponse(action_out(result, principal)))
        part("answer", lambda: AnswerResponse(action_out(result, principal)))
        part("answer_minimal", lambda: AnswerResponse(action_out(result, principal, with_state=False)))
        part("state_view", lambda: state_view(result.state, show_libraries=True))
        raw = [a for a in ACTIONS]
        part("json_object", lambda: json_object(raw[done[0] % len(raw)]))
        part("parse", lambda: parse_command(bodies[done[0] % len(bodies)], service.catalog.resolve))
        if "pull" in parts or "read_models" in parts:
            read_models(service, calls, act, part, marks, parts)


def read_models(service: Any, calls: int, act: Callable[[], None], part: Any, marks: Any, parts: list[str]) -> None:
    """One action's record pulled and decoded, then handed to the read models as a batch of
    its own (what ``store.read_model_group.SharedRunner`` does when a pull finds one record):
    all of them, then each alone, every pass on records of its own (a view skips what it has
    tracked)."""
    from eventsourcing.persistence import Tracking
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    from store.sqlite_polling import LogReader

    home = service.partitions.home
    app = home.app
    members = home.read_models._members
    passes = [("read_models", list(range(len(members))))] + [(f"lane {i}", [i]) for i in range(len(members))]
    each = 20 + calls
    first = (app.recorder.max_notification_id() or 0) + 1
    for _ in range(each * (1 + len(passes))):
        act()
    cursor = [first - 1]

    # The subscription's own reader on SQLite (``store.sqlite_polling.LogReader``).
    log = LogReader(app.recorder) if isinstance(app.recorder, SQLiteApplicationRecorder) else app.recorder

    def pull() -> list[tuple[Any, Tracking]]:
        notes = log.select_notifications(start=cursor[0] + 1, limit=1)
        cursor[0] = notes[-1].id
        return [(app.mapper.to_domain_event(n), Tracking(app.name, n.id)) for n in notes]

    cursor[0] = first - 1 + each  # the pull part reads the first slice again
    part("pull", lambda: pull())
    cursor[0] = first - 1 + each
    if "read_models" not in parts:
        return
    for name, which in passes:
        lanes = [members[i].runner_parts() for i in which]
        label = name if len(which) > 1 else f"read model: {lanes[0][1].name}"
        batches = iter([pull() for _ in range(each)])

        def hand_out(lanes: list[Any] = lanes, batches: Any = batches) -> None:
            batch = next(batches)
            for _view, projection in lanes:
                projection.process_batch(batch)

        count(marks, calls, label, hand_out)
        for view, _ in lanes:
            close = getattr(view, "close", None)
            if callable(close):
                close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=200, help="calls per part (default 200)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {list(PARTS)}")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    if unknown := sorted(set(parts) - set(PARTS)):
        parser.error(f"unknown part(s) {unknown}; choose from {list(PARTS)}")
    if args.inside:
        measure(args.calls, parts)
        return 0
    build()
    with tempfile.TemporaryDirectory(prefix="action-parts-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--dump-instr=no",
            f"--callgrind-out-file={out}",
            "--log-file=" + str(Path(tmp) / "valgrind.log"),
            sys.executable,
            __file__,
            "--inside",
            "--calls",
            str(args.calls),
            "--parts",
            ",".join(parts),
        ]
        subprocess.run(command, check=True, cwd=Path(__file__).resolve().parents[1])
        print("| part | instructions per call |\n|---|---:|")
        for dump in sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:])):
            text = dump.read_text(errors="replace")[:20000]
            name = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.MULTILINE)
            total = re.search(r"^summary:\s*(\d+)", text, re.MULTILINE)
            if name and total:
                print(f"| {name.group(1)} | {int(total.group(1)) / args.calls:,.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
