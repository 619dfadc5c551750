"""Instructions per action through the ASGI app in one process, without uvicorn (a benchmark).

``bench/instructions.py`` counts a whole server over HTTP (about 10 minutes a run); this counts
what the application does for an action, every thread of it (the event loop, the store's
threads, the read models), in about 3 minutes, so a change can be weighed against the commit
before it in one run: each checkout (this one, and each ``--baseline DIR``, e.g. a ``git
worktree`` of the commit before) runs in a valgrind process of its own, at the same time. Each
creates 50 games (SQLite, a scratch file), sends 100 actions to warm up, waits for its read
models, then ``--actions`` actions (one after the other, each game cycling through the four
actions of ``bench/instructions.py``) between two callgrind client requests (zero the counts,
dump them; the same tiny C library as ``bench/action_parts.py``), and waits for its read models
again before the dump, so their work on the actions counts too.

What a process does by the clock (the read models' polls, the webhook deliverer's rounds) counts
as well, more per action the slower the run goes: compare checkouts run side by side, not runs
made at different times.

    .venv/bin/python bench/asgi_instructions.py [--actions 300] [--minimal] [--baseline DIR ...]
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.getcwd())  # inside: the checkout being measured (its working directory)

GAMES = 50
WARM_UP = 100


async def _drive(actions: int, minimal: bool, library: str) -> None:
    """Inside valgrind, in the measured checkout: the games, the warm-up, the counted actions."""
    from api.app import create_app
    from bench.instructions import ACTIONS, GAME

    marks = ctypes.CDLL(library)
    app = create_app()
    headers = [(b"authorization", b"Bearer bench"), (b"content-type", b"application/json")]
    if minimal:
        headers.append((b"prefer", b"return=minimal"))

    async def post(path: str, body: bytes) -> int:
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(dict(message))

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [*headers, (b"content-length", str(len(body)).encode())],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
            "state": {},
        }
        await app(scope, receive, send)
        status: int = sent[0]["status"]
        return status

    async def act(count: int, start: int) -> None:
        for i in range(start, start + count):
            number, k = i % GAMES, i // GAMES
            status = await post(f"/v1/games/g{number}/actions", ACTIONS[(k + number) % len(ACTIONS)])
            if status != 201:
                raise RuntimeError(f"action {i}: HTTP {status}")

    async with app.router.lifespan_context(app):
        for i in range(GAMES):
            status = await post("/v1/games", json.dumps({**GAME, "game_id": f"g{i}"}).encode())
            if status != 201:
                raise RuntimeError(f"game {i}: HTTP {status}")
        await act(WARM_UP, 0)
        service = app.state.service
        service.wait_for_read_model()
        marks.marks_zero()
        await act(actions, WARM_UP)
        service.wait_for_read_model()
        marks.marks_dump(b"actions")


def _measure(checkout: Path, actions: int, minimal: bool, library: Path) -> int:
    """One checkout under callgrind: its instructions per action."""
    with tempfile.TemporaryDirectory(prefix="asgi-instructions-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MTG_LEDGER_")}
        env.update(
            MTG_LEDGER_DATABASE_URL=f"sqlite:///{tmp}/ledger.sqlite3",
            MTG_LEDGER_ADMIN_TOKEN="bench",
            MTG_LEDGER_CATALOG_PATH=f"{tmp}/cards.json",
            PYTHONPATH=str(checkout),
        )
        command = [
            "valgrind",
            "--tool=callgrind",
            "--dump-instr=no",
            f"--callgrind-out-file={tmp}/callgrind.out",
            f"--log-file={tmp}/valgrind.log",
            sys.executable,
            str(Path(__file__).resolve()),
            "--inside",
            "--actions",
            str(actions),
            "--library",
            str(library),
            *(["--minimal"] if minimal else []),
        ]
        subprocess.run(command, check=True, cwd=checkout, env=env, capture_output=True)
        for dump in Path(tmp).glob("callgrind.out.*"):
            text = dump.read_text(errors="replace")[:20000]
            total = re.search(r"^summary:\s*(\d+)", text, re.MULTILINE)
            if total and "Client Request: actions" in text:
                return int(total.group(1)) // actions
    raise RuntimeError(f"{checkout}: no dump of the counted actions")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--actions", type=int, default=300, help="counted actions (default 300)")
    parser.add_argument("--minimal", action="store_true", help="send Prefer: return=minimal")
    parser.add_argument("--baseline", action="append", default=[], help="another checkout to count beside this one")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--library", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        asyncio.run(_drive(args.actions, args.minimal, args.library))
        return 0
    from bench.action_parts import build

    library = build()
    checkouts = [ROOT, *(Path(b).resolve() for b in args.baseline)]
    with ThreadPoolExecutor(len(checkouts)) as pool:
        counts = list(pool.map(lambda c: _measure(c, args.actions, args.minimal, library), checkouts))
    answer = "minimal answer" if args.minimal else "default answer"
    print(f"| checkout | instructions per action ({answer}, {args.actions} actions) | / this one |")
    print("|---|---:|---:|")
    for checkout, count in zip(checkouts, counts, strict=True):
        print(f"| {checkout} | {count:,} | {count / counts[0]:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
