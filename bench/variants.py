"""The servers an open-loop run compares (``bench/open_loop.py``), started side by side, each
on a fresh store of its own, and made ready: games imported, read models caught up.

``VARIANTS`` names them; ``bench/open_loop.py``'s docstring says what each serves and why it is
there (``ledger+SETTING=VALUE`` and ``ledger@N`` are built from their names). The read-model waits
are here too: a ledger's read models must have caught up before a step is measured, or their
catch-up is charged to it. ``bench/cpu_split.py`` starts its servers here as well.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from bench.harness import HttpClient, ScratchStore, Server, scratch_store
from bench.http_load import AUTH, post_games

VARIANTS = (
    "ledger",
    "ledger-sqlite",
    "bare",
    "bare-load",
    "floor",
    "baseline",
)


def is_bare(name: str) -> bool:
    """A bare stack (no ledger, so no games to create and no read models to wait for)."""
    return name.startswith("bare") or name == "floor"


def variant_error(variant: str) -> str | None:
    """Why ``variant`` is not one a run can start, or ``None`` when it is."""
    if variant.startswith(("ledger+", "ledger@")):
        try:
            if variant.startswith("ledger@"):
                worker_count(variant)
            if "+" in variant:
                setting_env(variant)
        except ValueError as err:
            return str(err)
        return None
    return None if variant in VARIANTS else f"unknown variant {variant!r}"


@contextmanager
def started(
    kind: str,
    postgres: str | None,
    workers: int,
    variants: list[str],
    games: int = 0,
    history: int = 0,
    baseline: str | None = None,
) -> Iterator[dict[str, Server]]:
    with ExitStack() as stack:
        found: dict[str, Server] = {}
        for variant in variants:
            on = "sqlite" if variant == "ledger-sqlite" else kind
            store: ScratchStore = stack.enter_context(scratch_store(on, postgres, "ol_" + re.sub(r"\W", "_", variant)))
            if variant == "bare":
                from bench.bare_app import make_application

                make_application(store.url, create_tables=True).close()
                server = Server.uvicorn_app("bench.bare_app:create_app", store, workers, BARE_CREATE_TABLES="0")
            elif variant == "baseline":
                if baseline is None:
                    raise ValueError("the baseline variant needs --baseline PATH (a checkout to serve)")
                server = Server.ledger(store, workers, PYTHONPATH=str(Path(baseline).resolve()))
            elif variant == "floor":
                server = Server.uvicorn_app("bench.bare_app:create_app", store, workers, BARE_FLOOR="1")
            elif variant == "bare-load":
                from bench.bare_app import create_load_application

                application = create_load_application(store.url, create_tables=True)
                prefill_streams(application, games, history)
                application.close()
                server = Server.uvicorn_app(
                    "bench.bare_app:create_app", store, workers, BARE_CREATE_TABLES="0", BARE_LOAD="1"
                )
            elif variant.startswith("ledger@"):
                server = Server.ledger(store, worker_count(variant), **(setting_env(variant) if "+" in variant else {}))
            elif variant.startswith("ledger+"):
                server = Server.ledger(store, workers, **setting_env(variant))
            else:
                server = Server.ledger(store, workers)
            found[variant] = stack.enter_context(server)
        yield found


def worker_count(variant: str) -> int:
    """``ledger@2`` (or ``ledger@2+SETTING=VALUE``) -> 2."""
    count = variant.partition("@")[2].partition("+")[0]
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"variant {variant!r}: expected ledger@N, N a worker count")
    return int(count)


def setting_env(variant: str) -> dict[str, str]:
    """``ledger+snapshot_interval=100+workers=2`` -> the server's environment for those settings."""
    pairs = [part.split("=", 1) for part in variant.split("+")[1:]]
    if not pairs or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
        raise ValueError(f"variant {variant!r}: expected ledger+SETTING=VALUE[+SETTING=VALUE...]")
    return {f"MTG_LEDGER_{name.upper()}": value for name, value in pairs}


def prefill_streams(application: Any, games: int, history: int) -> None:
    """``bare-load``'s streams with ``history`` events each, saved before its server starts (as
    the ledger's games are imported with as many): what a load reads grows with them."""
    from bench.bare_app import PAYLOAD, Tally

    if history <= 0:
        return
    for i in range(games):
        tally = Tally(f"s{i:05d}")
        for _ in range(history - 1):
            tally.record(PAYLOAD)
        application.save(tally)


async def import_games(port: int, count: int, history: int, clients: int) -> list[str]:
    """``count`` games of ``history`` events each (``bench/replay.py``'s game: the same cards,
    one undo in 50 actions), imported through ``POST /v1/games/import`` (admin)."""
    from bench.replay import build_export

    def request(gid: str, table: int) -> tuple[str, bytes]:
        return "/v1/games/import", ("\n".join(build_export(gid, history, table)) + "\n").encode()

    return await post_games(port, count, clients, request, {**AUTH, "Content-Type": "application/x-ndjson"})


async def caught_up(port: int, ids: list[str], version: int, timeout: float = 600.0) -> float:
    """Wait until the read models have projected every game at ``version`` (the game list, and
    the matches of round 1: a table each); returns the seconds waited. Games just imported
    leave the read models 100,000 events behind: measuring before they caught up would charge
    the ledger for a catch-up a server in play has long finished."""
    http = HttpClient(port, AUTH)
    begin = time.perf_counter()
    try:
        while time.perf_counter() - begin < timeout:
            status, _, text = await http.request("GET", "/v1/games?event=Bench")
            games = json.loads(text)["games"] if status == 200 else []
            if len(games) == len(ids) and all(g["version"] >= version for g in games):
                status, _, text = await http.request("GET", "/v1/events/Bench/rounds/1")
                tables = json.loads(text)["tables"] if status == 200 else []
                if sum(len(t["games"]) for t in tables) == len(ids):
                    return time.perf_counter() - begin
            await asyncio.sleep(0.5)
        raise RuntimeError(f"the read models did not catch up in {timeout:.0f} s")
    finally:
        await http.close()


async def settled(port: int, timeout: float = 120.0) -> float:
    """Wait until the game list stops changing while nothing is sent: the read models have
    projected what the last step stored. An overloaded step leaves them behind, and their
    catch-up would otherwise be charged to the next step or closed-loop window (and, with
    several workers, to whichever worker runs them). Returns the seconds waited."""
    http = HttpClient(port, AUTH)
    begin = time.perf_counter()
    previous: bytes | None = None
    try:
        while time.perf_counter() - begin < timeout:
            status, _, text = await http.request("GET", "/v1/games?event=Bench")
            if status == 200 and text == previous:
                return time.perf_counter() - begin
            previous = text
            await asyncio.sleep(0.3)
        raise RuntimeError(f"the read models were still moving after {timeout:.0f} s")
    finally:
        await http.close()
