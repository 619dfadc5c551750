"""The ``mtg-ledger`` command line.

Each subcommand is a function ``(args, settings) -> exit status`` registered in ``build_parser``
with ``set_defaults(handler=...)``; adding one (``verify``, ``export``, ``import``, ``token``,
``cards``) means adding a parser and a handler.

The handlers live by what they do: ``api.cli_serve`` (``serve``, ``project``) and
``api.cli_records`` (``token create``, ``verify``, ``export``, ``import``, ``cards import``); each
opens the store the one way ``api.cli_store`` says (named on stderr first). A bad argument, a
file that cannot be read or written, a store that cannot be opened and a refusal by the ledger
are one line on stderr and exit status 2, never a traceback; a traceback means a bug.
"""

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from pydantic import ValidationError

from api.cli_records import cards_import, export, import_, token_create, verify
from api.cli_serve import project, serve
from api.cli_store import USAGE_ERROR, CliError
from api.settings import Settings
from domain.errors import GameError
from store.database_url import without_password


class _Parser(argparse.ArgumentParser):
    """argparse with its error on one line (usage stays behind ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: {message} (see {self.prog} --help)\n")


Handler = Callable[[argparse.Namespace, Settings], int]
"""A subcommand: takes the parsed arguments and the settings, returns the exit status."""


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
    create.add_argument(
        "--link",
        action="store_true",
        help="print the page's address carrying the token (MTG_LEDGER_PUBLIC_URL/#token=...; a player's "
        "game page) instead of the bare secret",
    )
    create.add_argument(
        "--qr", action="store_true", help="with --link: also draw the link as a QR code in the terminal"
    )
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
