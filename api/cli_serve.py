"""``mtg-ledger serve`` (the HTTP API under uvicorn) and ``mtg-ledger project`` (the read models in
a process of their own)."""

import argparse
import contextlib
import copy
import logging
import os
import signal
import sys
import threading
import time
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from api.app import bootstrap_admin
from api.cli_store import opened
from api.heap import freeze_startup_heap
from api.read_model_process import KEEPS, STANDS_BY, ReadModelProcess
from api.settings import Settings
from api.workers import BalancedWorkers, SupervisedWorkers, balances_connections


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's logging, with the ``mtg_ledger`` loggers on its console handler: each worker
    then logs which store it serves (``api.app``), and the API's unexpected errors show up."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["loggers"]["mtg_ledger"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config


def serve(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the HTTP API with uvicorn, on the host, port and workers from the settings.

    Tables are created (and the bootstrap admin token made) once, here, before any worker
    starts; the workers then start with table creation off, so they never race (docs/architecture.md).
    """
    host: str = args.host or settings.host
    port: int = args.port or settings.port
    workers: int = args.workers or settings.workers
    with opened(settings) as service:
        generated = bootstrap_admin(settings, service)
    base = f"http://{_url_host(host)}:{port}"
    print(f"MTG Ledger serving on {base} (store: {settings.store_description}, workers: {workers})")
    print(f"  web page: {base}/   API docs: {base}/docs   health: {base}/v1/health")
    if settings.public_url is not None:
        print(f"  public URL (the links and QR codes the page hands out): {settings.public_url}")
    print(f"  {chosen(settings.model_copy(update={'workers': workers}))}")
    if generated is not None:
        print(f"  bootstrap admin token (shown once, only its hash is stored): {generated}")
    sys.stdout.flush()
    os.environ["MTG_LEDGER_CREATE_TABLES"] = "0"
    os.environ["MTG_LEDGER_WORKERS"] = str(workers)  # each worker's settings see how many there are
    projector = ReadModelProcess() if settings.runs_read_model_process else None
    if projector is not None:
        # Elected before any worker asks, so the workers stand by (``api.read_model_process``).
        kept = projector.start()
        where = "a process of their own" if kept else "the workers (the read-model process stands by)"
        print(f"  read models: kept by {where}", flush=True)
    try:
        status = run_workers("api.app:create_served_app", host, port, workers)
    finally:
        if projector is not None:
            projector.stop()
    if status != 0:
        print(f"mtg-ledger serve: a worker failed to start (its log is above); exit status {status}", file=sys.stderr)
    return status


def chosen(settings: Settings) -> str:
    """What the server chose for its store and worker count, for the banner: these were
    settings until issue 29 (docs/operations.md, Chosen for you)."""
    on = {True: "on", False: "off"}
    return (
        f"for {settings.store} with {settings.workers} worker(s): group commit waits "
        f"{settings.group_commit_window_ms:g} ms, head check {on[settings.checks_heads]}, "
        f"head watch {on[settings.watches_heads]}"
    )


WORKER_HEALTHCHECK_SECONDS = 30
"""How long uvicorn's supervisor waits for a worker's answer to its health ping (default 5)."""


def run_workers(app: str, host: str, port: int, workers: int) -> int:
    """Run ``app`` (an import string of an app factory) in uvicorn's workers until they stop:
    0 after a shutdown, non-zero when a worker failed to start (uvicorn then stops them all)."""
    options: dict[str, Any] = {
        "factory": True,
        "host": host,
        "port": port,
        "workers": workers,
        "log_config": _uvicorn_log_config(),
        # uvicorn kills a worker that doesn't answer its health ping in time, a new one too:
        # a worker spawned on a loaded host took longer than the default 5 s to answer its
        # first ping and was killed while starting (issue 40, finding 7).
        "timeout_worker_healthcheck": WORKER_HEALTHCHECK_SECONDS,
    }
    if workers == 1:
        try:
            uvicorn.run(app, **options)
        except SystemExit as stopped:  # uvicorn's STARTUP_FAILURE (3) when the worker failed to start
            return stopped.code if isinstance(stopped.code, int) else 1
        return 0
    config = uvicorn.Config(app, **options)
    if balances_connections():
        # Each worker on a socket of its own, so kept-alive connections spread over them all
        # (``api.workers``; uvicorn's one shared socket sent bursts of them to one worker).
        supervisor: SupervisedWorkers = BalancedWorkers(config)
    else:
        supervisor = SupervisedWorkers(config, sockets=[config.bind_socket()])
    supervisor.run()
    return STARTUP_FAILURE if supervisor.failed_to_start else 0


def project(args: argparse.Namespace, settings: Settings) -> int:
    """Keep the store's read models (the game list, the matches, the webhook outbox) in this
    process until SIGTERM or SIGINT: ``serve`` starts one (on PostgreSQL, ``Settings.runs_read_model_process``),
    or an operator runs one on a host of its own (docs/operations.md, The read models).

    Prints one line on stdout once it keeps them, or once it stands by because another process
    keeps them (``api.read_model_process``: ``serve`` waits for that line)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s", stream=sys.stderr)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    with opened(settings, create_tables=settings.create_tables) as service:
        deadline = time.monotonic() + args.wait
        keeps = service.keeps_read_models(0)
        while not keeps and not stop.is_set() and time.monotonic() < deadline:
            keeps = service.keeps_read_models(0.1)
        with contextlib.suppress(OSError):  # whoever started it no longer reads (serve stopped meanwhile)
            print(KEEPS if keeps else STANDS_BY, flush=True)
        freeze_startup_heap()  # its full collections too would walk the start-up heap (api.heap)
        while not stop.wait(1.0):
            if args.parent is not None and os.getppid() != args.parent:
                print("mtg-ledger project: serve has gone; stopping", file=sys.stderr, flush=True)
                break
    return 0
