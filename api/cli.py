"""The ``mtg-ledger`` command line.

Each subcommand is a function ``(args, settings) -> exit status`` registered in ``build_parser``
with ``set_defaults(handler=...)``; adding one (``verify``, ``export``, ``import``, ``token``,
``cards``) means adding a parser and a handler.

Every command that opens the event store first says which one on stderr (``store: sqlite
/abs/path`` or the PostgreSQL URL without its password): a token made in one store is unknown to
a server on another. A bad argument, a file that cannot be read or written, a store that cannot
be opened and a refusal by the ledger are one line on stderr and exit status 2, never a
traceback; a traceback means a bug.
"""

import argparse
import contextlib
import copy
import json
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import uvicorn
from pydantic import ValidationError

from api.bodies import expiry_time
from api.heap import freeze_startup_heap
from api.read_model_process import KEEPS, STANDS_BY, ReadModelProcess
from api.settings import Settings
from api.workers import BalancedWorkers, balances_connections
from domain.errors import GameError, NotFound
from ledger.service import Actor, LedgerService
from store.database_url import without_password
from store.errors import StoreError

USAGE_ERROR = 2
"""Exit status of every one-line error (argparse's own for bad arguments)."""


class CliError(Exception):
    """What the user must fix (an argument, a file, the store's URL): printed on one line."""


class _Parser(argparse.ArgumentParser):
    """argparse with its error on one line (usage stays behind ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: {message} (see {self.prog} --help)\n")


Handler = Callable[[argparse.Namespace, Settings], int]
"""A subcommand: takes the parsed arguments and the settings, returns the exit status."""


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
    starts; the workers then start with table creation off, so they never race (DESIGN.md).
    """
    from api.app import bootstrap_admin

    host: str = args.host or settings.host
    port: int = args.port or settings.port
    workers: int = args.workers or settings.workers
    with _opened(settings) as service:
        generated = bootstrap_admin(settings, service)
    base = f"http://{_url_host(host)}:{port}"
    print(f"MTG Ledger serving on {base} (store: {settings.store_description}, workers: {workers})")
    print(f"  web page: {base}/   API docs: {base}/docs   health: {base}/v1/health")
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
        _run_workers(host, port, workers)
    finally:
        if projector is not None:
            projector.stop()
    return 0


def _run_workers(host: str, port: int, workers: int) -> None:
    options: dict[str, Any] = {
        "factory": True,
        "host": host,
        "port": port,
        "workers": workers,
        "log_config": _uvicorn_log_config(),
    }
    if workers > 1 and balances_connections():
        # Each worker on a socket of its own, so kept-alive connections spread over them all
        # (``api.workers``; uvicorn's one shared socket sent bursts of them to one worker).
        BalancedWorkers(uvicorn.Config("api.app:create_served_app", **options)).run()
        return
    uvicorn.run("api.app:create_served_app", **options)


def project(args: argparse.Namespace, settings: Settings) -> int:
    """Keep the store's read models (the game list, the matches, the webhook outbox) in this
    process until SIGTERM or SIGINT: ``serve`` starts one (``MTG_LEDGER_READ_MODEL_PROCESS``),
    or an operator runs one on a host of its own (docs/operations.md, The read models).

    Prints one line on stdout once it keeps them, or once it stands by because another process
    keeps them (``api.read_model_process``: ``serve`` waits for that line)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(name)s: %(message)s", stream=sys.stderr)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    with _opened(settings, create_tables=settings.create_tables) as service:
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


@contextmanager
def _opened(settings: Settings, *, create_tables: bool = True) -> Iterator[LedgerService]:
    """The event store, named on stderr first; a store that cannot be opened is a ``CliError``."""
    from api.app import build_service

    where = settings.store_description
    print(f"store: {where}", file=sys.stderr, flush=True)
    try:
        # No head watch: ``serve`` passes its worker count to ``mtg-ledger project`` too, and a
        # watch there read and folded every event for actions it never decides (16% of that
        # process's CPU with 2 workers, docs/performance.md, issue 15, tenth pass).
        service = build_service(settings, create_tables=create_tables, serving=False)
    except (StoreError, OSError, ValueError) as err:
        # The URL's own messages quote it whole; never echo its password.
        reason = _first_line(err).replace(settings.database_url, without_password(settings.database_url))
        raise CliError(f"cannot open the store {where}: {reason}") from err
    try:
        yield service
    finally:
        service.close()


def _first_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0]


def _read_lines(name: str) -> list[str]:
    """The lines of a UTF-8 text file (an export); unreadable is a ``CliError``."""
    try:
        return Path(name).read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise CliError(f"cannot read {name}: {err.strerror or _first_line(err)}") from err
    except UnicodeDecodeError as err:
        raise CliError(f"cannot read {name}: not UTF-8 text ({err.reason} at byte {err.start})") from err


def token_create(args: argparse.Namespace, settings: Settings) -> int:
    """Create a token and print its secret once (on stdout, alone, for scripts)."""
    bound = args.game is not None or args.player is not None
    if args.role == "player" and (args.game is None or args.player is None):
        raise CliError("a player token needs --game GAME and --player PLAYER")
    if args.role != "player" and bound:
        raise CliError(f"--game and --player bind only player tokens, not --role {args.role}")
    with _opened(settings) as service:
        if args.role == "player":
            _check_player(service, settings, args.game, args.player)
        expires = None
        if args.expires_at is not None:
            try:
                expires = expiry_time(args.expires_at)
            except ValueError as err:
                raise CliError(f"--expires-at: {err}") from None
        secret = service.tokens.create(args.name, args.role, args.game, args.player, expires_at=expires)
    print(secret)
    return 0


def _check_player(service: LedgerService, settings: Settings, game: str, player: str) -> None:
    """A player token for a game this store does not hold would be refused by every server that
    uses this store: most likely the server runs on another one."""
    try:
        _, state = service.state_at(game)
    except NotFound as err:
        raise CliError(
            f"no game {game!r} in {settings.store_description}; "
            "is the server using another store (MTG_LEDGER_DATABASE_URL)?"
        ) from err
    if player not in state.players:
        raise CliError(f"game {game!r} has no player {player!r}; its players: {', '.join(state.players)}")


def verify(args: argparse.Namespace, settings: Settings) -> int:
    """Verify a stored game's hash chain, or an export file (chain and rules replay)."""
    path = Path(args.target)
    lines = _read_lines(args.target) if path.exists() else None
    with _opened(settings) as service:
        if lines is not None:
            report = service.verify_export(lines)
        else:
            try:
                report = service.verify(args.target)
            except NotFound as err:
                raise CliError(f"{args.target!r} is neither a file nor a game in this store") from err
    print(
        json.dumps(
            {
                "ok": report.ok,
                "events": report.events,
                "head": report.head,
                "first_bad_version": report.first_bad_version,
            }
        )
    )
    return 0 if report.ok else 1


def export(args: argparse.Namespace, settings: Settings) -> int:
    """Write a game's NDJSON export to stdout or ``--output``."""
    with _opened(settings) as service:
        # Before the output is opened: an unknown game leaves no empty file behind.
        lines = service.export(args.game)
        if not args.output:
            _write_lines(lines, sys.stdout)
            return 0
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                _write_lines(lines, out)
        except OSError as err:
            raise CliError(f"cannot write {args.output}: {err.strerror or _first_line(err)}") from err
    return 0


def _write_lines(lines: Iterator[str], out: Any) -> None:
    for line in lines:
        out.write(line if line.endswith("\n") else line + "\n")


def _stream_lines(name: str) -> Iterator[str]:
    """The lines of a UTF-8 text file, read one at a time (a large export is never held whole);
    unreadable is a ``CliError``, also part-way through."""
    try:
        with open(name, encoding="utf-8", newline="") as source:
            for line in source:
                yield line.rstrip("\r\n")
    except OSError as err:
        raise CliError(f"cannot read {name}: {err.strerror or _first_line(err)}") from err
    except UnicodeDecodeError as err:
        raise CliError(f"cannot read {name}: not UTF-8 text ({err.reason})") from err


def import_(args: argparse.Namespace, settings: Settings) -> int:
    """Verify an export file and store its game (the file is read line by line)."""
    try:
        open(args.file, "rb").close()
    except OSError as err:
        raise CliError(f"cannot read {args.file}: {err.strerror or _first_line(err)}") from err
    with _opened(settings) as service:
        result = service.import_game(_stream_lines(args.file), Actor("mtg-ledger import", "admin"))
    print(json.dumps({"game_id": result.game_id, "version": result.version}))
    return 0


def cards_import(args: argparse.Namespace, settings: Settings) -> int:
    """Load Scryfall "oracle cards" bulk JSON into the catalog (no network)."""
    from api.catalog_store import import_scryfall

    target = settings.imported_cards_path.resolve()
    try:
        read, skipped = import_scryfall(Path(args.file), target)
    except OSError as err:
        raise CliError(f"{err.filename or args.file}: {err.strerror or _first_line(err)}") from err
    except ValueError as err:  # not JSON, or not Scryfall's card list
        raise CliError(f"{args.file}: {_first_line(err)}") from err
    print(f"imported {read} card(s) into {target} ({skipped} skipped)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with one subparser per subcommand."""
    parser = _Parser(
        prog="mtg-ledger",
        description="Audited, event-sourced game-state server for Magic: The Gathering.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve_parser = commands.add_parser(
        "serve",
        help="serve the HTTP API",
        description="Serve the HTTP API. Defaults come from MTG_LEDGER_* settings and .env.",
    )
    serve_parser.add_argument("--host", help="bind address (default: MTG_LEDGER_HOST)")
    serve_parser.add_argument("--port", type=int, help="TCP port (default: MTG_LEDGER_PORT)")
    serve_parser.add_argument("--workers", type=int, help="uvicorn worker processes (default: MTG_LEDGER_WORKERS)")
    serve_parser.set_defaults(handler=serve, prog=serve_parser.prog)

    token = commands.add_parser("token", help="manage API tokens").add_subparsers(dest="token_command", required=True)
    create = token.add_parser("create", help="create a token and print its secret once")
    create.add_argument("--name", required=True)
    create.add_argument(
        "--role", required=True, choices=["spectator", "player", "scorekeeper", "judge", "head_judge", "admin"]
    )
    create.add_argument("--game", help="game id (player tokens)")
    create.add_argument("--player", help="player id (player tokens)")
    create.add_argument("--expires-at", help="RFC 3339 time with a zone after which the token is refused")
    create.set_defaults(handler=token_create, prog=create.prog)

    verify_parser = commands.add_parser("verify", help="verify a stored game or an export file")
    verify_parser.add_argument("target", metavar="GAME_OR_FILE")
    verify_parser.set_defaults(handler=verify, prog=verify_parser.prog)

    export_parser = commands.add_parser("export", help="export a game as NDJSON")
    export_parser.add_argument("game", metavar="GAME")
    export_parser.add_argument("-o", "--output", help="file to write (default: stdout)")
    export_parser.set_defaults(handler=export, prog=export_parser.prog)

    import_parser = commands.add_parser("import", help="import an exported NDJSON file")
    import_parser.add_argument("file", metavar="FILE")
    import_parser.set_defaults(handler=import_, prog=import_parser.prog)

    project_parser = commands.add_parser(
        "project",
        help="keep the read models (game list, matches, webhook outbox) in this process",
        description="Keep the store's read models in this process until SIGTERM or SIGINT; the servers' "
        "workers stand by (docs/operations.md, The read models).",
    )
    project_parser.add_argument(
        "--wait", type=float, default=2.0, help="seconds to wait to be elected before saying it stands by (default 2)"
    )
    project_parser.add_argument(
        "--parent", type=int, metavar="PID", help="stop once process PID (the serve that started it) has ended"
    )
    project_parser.set_defaults(handler=project, prog=project_parser.prog)

    cards = commands.add_parser("cards", help="card catalog").add_subparsers(dest="cards_command", required=True)
    cards_imp = cards.add_parser("import", help="load Scryfall oracle-cards bulk JSON into the catalog")
    cards_imp.add_argument("file", metavar="FILE")
    cards_imp.set_defaults(handler=cards_import, prog=cards_imp.prog)

    return parser


def _settings_error(error: ValidationError) -> str:
    """Pydantic's report on one line: ``MTG_LEDGER_PORT: Input should be ...; ...``."""
    problems = []
    for item in error.errors():
        name = "MTG_LEDGER_" + "_".join(str(part) for part in item["loc"]).upper()
        message = str(item["msg"])
        if isinstance(item.get("input"), str) and item["input"]:
            message = message.replace(item["input"], without_password(item["input"]))  # a URL's password
        problems.append(f"{name}: {message}")
    return "; ".join(problems)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mtg-ledger`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    prog: str = args.prog
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"{prog}: invalid settings (environment or .env): {_settings_error(error)}", file=sys.stderr)
        return USAGE_ERROR
    handler: Handler = args.handler
    try:
        return handler(args, settings)
    except CliError as err:
        print(f"{prog}: {err}", file=sys.stderr)
    except GameError as err:
        print(f"{prog}: {err.message_for(True)} ({err.code})", file=sys.stderr)
    return USAGE_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
