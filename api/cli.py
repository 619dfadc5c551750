"""The ``mtg-ledger`` command line.

Each subcommand is a function ``(args, settings) -> exit status`` registered in ``build_parser``
with ``set_defaults(handler=...)``; adding one (``verify``, ``export``, ``import``, ``token``,
``cards``) means adding a parser and a handler.
"""

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import uvicorn
from pydantic import ValidationError

from api.settings import Settings
from domain.errors import GameError
from projections.service import Actor, LedgerService

Handler = Callable[[argparse.Namespace, Settings], int]
"""A subcommand: takes the parsed arguments and the settings, returns the exit status."""


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def serve(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the HTTP API with uvicorn, on the host, port and workers from the settings.

    Tables are created (and the bootstrap admin token made) once, here, before any worker
    starts; the workers then start with table creation off, so they never race (DESIGN.md).
    """
    from api.app import bootstrap_admin, build_service

    host: str = args.host or settings.host
    port: int = args.port or settings.port
    workers: int = args.workers or settings.workers
    service = build_service(settings, create_tables=True)
    try:
        generated = bootstrap_admin(settings, service)
    finally:
        service.close()
    sqlite_path = settings.sqlite_path
    where = f"SQLite at {sqlite_path}" if sqlite_path is not None else settings.store
    base = f"http://{_url_host(host)}:{port}"
    print(f"MTG Ledger serving on {base} (store: {where}, workers: {workers})")
    print(f"  web page: {base}/   API docs: {base}/docs   health: {base}/v1/health")
    if generated is not None:
        print(f"  bootstrap admin token (shown once, only its hash is stored): {generated}")
    os.environ["MTG_LEDGER_CREATE_TABLES"] = "0"
    uvicorn.run("api.app:create_app", factory=True, host=host, port=port, workers=workers)
    return 0


def _service(settings: Settings) -> LedgerService:
    from api.app import build_service

    return build_service(settings, create_tables=True)


def token_create(args: argparse.Namespace, settings: Settings) -> int:
    """Create a token and print its secret once."""
    service = _service(settings)
    try:
        secret = service.tokens.create(args.name, args.role, args.game, args.player)
    finally:
        service.close()
    print(secret)
    return 0


def verify(args: argparse.Namespace, settings: Settings) -> int:
    """Verify a stored game's hash chain, or an export file (chain and rules replay)."""
    path = Path(args.target)
    service = _service(settings)
    try:
        if path.exists():
            report = service.verify_export(path.read_text(encoding="utf-8").splitlines())
        else:
            report = service.verify(args.target)
    except GameError as err:
        print(f"mtg-ledger verify: {err.message} ({err.code})", file=sys.stderr)
        return 2
    finally:
        service.close()
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
    service = _service(settings)
    try:
        out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
        try:
            for line in service.export(args.game):
                out.write(line if line.endswith("\n") else line + "\n")
        finally:
            if args.output:
                out.close()
    except GameError as err:
        print(f"mtg-ledger export: {err.message} ({err.code})", file=sys.stderr)
        return 2
    finally:
        service.close()
    return 0


def import_(args: argparse.Namespace, settings: Settings) -> int:
    service = _service(settings)
    try:
        result = service.import_game(
            Path(args.file).read_text(encoding="utf-8").splitlines(), Actor("mtg-ledger import", "admin")
        )
    except GameError as err:
        print(f"mtg-ledger import: {err.message} ({err.code})", file=sys.stderr)
        return 2
    finally:
        service.close()
    print(json.dumps({"game_id": result.game_id, "version": result.version}))
    return 0


def cards_import(args: argparse.Namespace, settings: Settings) -> int:
    """Load Scryfall "oracle cards" bulk JSON into the catalog (no network)."""
    from api.catalog_store import import_scryfall

    try:
        read, skipped = import_scryfall(Path(args.file), settings.imported_cards_path)
    except (OSError, ValueError) as err:
        print(f"mtg-ledger cards import: {err}", file=sys.stderr)
        return 2
    print(f"imported {read} card(s) into {settings.imported_cards_path} ({skipped} skipped)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with one subparser per subcommand."""
    parser = argparse.ArgumentParser(
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
    serve_parser.set_defaults(handler=serve)

    token = commands.add_parser("token", help="manage API tokens").add_subparsers(dest="token_command", required=True)
    create = token.add_parser("create", help="create a token and print its secret once")
    create.add_argument("--name", required=True)
    create.add_argument("--role", required=True, choices=["spectator", "player", "scorekeeper", "judge", "admin"])
    create.add_argument("--game", help="game id (player tokens)")
    create.add_argument("--player", help="player id (player tokens)")
    create.set_defaults(handler=token_create)

    verify_parser = commands.add_parser("verify", help="verify a stored game or an export file")
    verify_parser.add_argument("target", metavar="GAME_OR_FILE")
    verify_parser.set_defaults(handler=verify)

    export_parser = commands.add_parser("export", help="export a game as NDJSON")
    export_parser.add_argument("game", metavar="GAME")
    export_parser.add_argument("-o", "--output", help="file to write (default: stdout)")
    export_parser.set_defaults(handler=export)

    import_parser = commands.add_parser("import", help="import an exported NDJSON file")
    import_parser.add_argument("file", metavar="FILE")
    import_parser.set_defaults(handler=import_)

    cards = commands.add_parser("cards", help="card catalog").add_subparsers(dest="cards_command", required=True)
    cards_imp = cards.add_parser("import", help="load Scryfall oracle-cards bulk JSON into the catalog")
    cards_imp.add_argument("file", metavar="FILE")
    cards_imp.set_defaults(handler=cards_import)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mtg-ledger`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        parser.exit(2, f"mtg-ledger: invalid settings (MTG_LEDGER_* or .env):\n{error}\n")
    handler: Handler = args.handler
    return handler(args, settings)


if __name__ == "__main__":
    raise SystemExit(main())
