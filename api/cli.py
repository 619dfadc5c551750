"""The ``mtg-ledger`` command line.

Each subcommand is a function ``(args, settings) -> exit status`` registered in ``build_parser``
with ``set_defaults(handler=...)``; adding one (``verify``, ``export``, ``import``, ``token``,
``cards``) means adding a parser and a handler.
"""

import argparse
from collections.abc import Callable, Sequence

import uvicorn
from pydantic import ValidationError

from api.settings import Settings

Handler = Callable[[argparse.Namespace, Settings], int]
"""A subcommand: takes the parsed arguments and the settings, returns the exit status."""


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def serve(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the HTTP API with uvicorn, on the host, port and workers from the settings."""
    host: str = args.host or settings.host
    port: int = args.port or settings.port
    workers: int = args.workers or settings.workers
    sqlite_path = settings.sqlite_path
    if sqlite_path is not None:
        sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        where = f"SQLite at {sqlite_path}"
    else:
        where = settings.store
    base = f"http://{_url_host(host)}:{port}"
    print(f"MTG Ledger serving on {base} (store: {where}, workers: {workers})")
    print(f"  API docs: {base}/docs   health: {base}/v1/health")
    uvicorn.run("api.app:create_app", factory=True, host=host, port=port, workers=workers)
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
    serve_parser.add_argument(
        "--workers", type=int, help="uvicorn worker processes (default: MTG_LEDGER_WORKERS)"
    )
    serve_parser.set_defaults(handler=serve)

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
