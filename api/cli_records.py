"""The ``mtg-ledger`` commands that work on the record: ``token create``, ``verify``, ``export``,
``import`` and ``cards import``."""

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import segno

from api.bodies import expiry_time
from api.catalog_store import import_scryfall
from api.cli_store import CliError, first_line, opened
from api.settings import Settings
from domain.errors import NotFound
from ledger.service import Actor, LedgerService


def _read_lines(name: str) -> list[str]:
    """The lines of a UTF-8 text file (an export), split at ``\n`` only: an NDJSON line ends
    there, and ``str.splitlines()`` also breaks at U+2028, U+2029 and U+0085, which a note or a
    judge call may hold (issue 40). Unreadable is a ``CliError``."""
    return list(_stream_lines(name))


def token_create(args: argparse.Namespace, settings: Settings) -> int:
    """Create a token and print its secret once (on stdout, alone, for scripts); with
    ``--link``, the page's address carrying it instead (``--qr``: drawn as a QR code too), so a
    scorekeeper or a player opens it on their own device without typing the secret."""
    bound = args.game is not None or args.player is not None
    if args.role == "player" and (args.game is None or args.player is None):
        raise CliError("a player token needs --game GAME and --player PLAYER")
    if args.role != "player" and bound:
        raise CliError(f"--game and --player bind only player tokens, not --role {args.role}")
    if args.qr and not args.link:
        raise CliError("--qr draws the --link: give both")
    if args.link and settings.public_url is None:
        # Checked before the token is made: a link on 127.0.0.1 opens on no other device.
        raise CliError(
            "--link needs MTG_LEDGER_PUBLIC_URL, the address other devices reach the server at "
            "(e.g. http://192.168.1.20:8000; docs/operations.md, At a venue)"
        )
    with opened(settings) as service:
        if args.role == "player":
            _check_player(service, settings, args.game, args.player)
        expires = None
        if args.expires_at is not None:
            try:
                expires = expiry_time(args.expires_at)
            except ValueError as err:
                raise CliError(f"--expires-at: {err}") from None
        secret = service.create_token(args.name, args.role, args.game, args.player, expires_at=expires)
    if not args.link:
        print(secret)
        return 0
    assert settings.public_url is not None
    link = token_link(settings.public_url, secret, args.game if args.role == "player" else None, args.role)
    print(link)
    if args.qr:
        # On stderr, so that stdout stays the one line a script reads.
        segno.make(link, error="m", micro=False).terminal(out=sys.stderr, compact=True)
    return 0


def token_link(public_url: str, secret: str, game: str | None, role: str | None = None) -> str:
    """The page's address carrying ``secret`` in its fragment (which browsers never send to a
    server, and the page moves out of the address bar at once: docs/web.md, Tokens): a player's
    game page, a scorekeeper's events list (where events are created and run: issue 38), or the
    front page (the games list) for the other roles."""
    home = "/tournaments" if role == "scorekeeper" else "/"
    page = f"/games/{quote(game, safe='')}" if game is not None else home
    return f"{public_url}{page}#token={secret}"


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
    with opened(settings) as service:
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
    with opened(settings) as service:
        # Before the output is opened: an unknown game leaves no empty file behind.
        lines = service.export(args.game)
        if not args.output:
            _write_lines(lines, sys.stdout)
            return 0
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                _write_lines(lines, out)
        except OSError as err:
            raise CliError(f"cannot write {args.output}: {err.strerror or first_line(err)}") from err
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
        raise CliError(f"cannot read {name}: {err.strerror or first_line(err)}") from err
    except UnicodeDecodeError as err:
        raise CliError(f"cannot read {name}: not UTF-8 text ({err.reason})") from err


def import_(args: argparse.Namespace, settings: Settings) -> int:
    """Verify an export file and store its game (the file is read line by line)."""
    try:
        open(args.file, "rb").close()
    except OSError as err:
        raise CliError(f"cannot read {args.file}: {err.strerror or first_line(err)}") from err
    with opened(settings) as service:
        result = service.import_game(_stream_lines(args.file), Actor("mtg-ledger import", "admin"))
    print(json.dumps({"game_id": result.game_id, "version": result.version}))
    return 0


def cards_import(args: argparse.Namespace, settings: Settings) -> int:
    """Load Scryfall "oracle cards" bulk JSON into the catalog (no network)."""
    target = settings.imported_cards_path.resolve()
    try:
        read, skipped = import_scryfall(Path(args.file), target)
    except OSError as err:
        raise CliError(f"{err.filename or args.file}: {err.strerror or first_line(err)}") from err
    except ValueError as err:  # not JSON, or not Scryfall's card list
        raise CliError(f"{args.file}: {first_line(err)}") from err
    print(f"imported {read} card(s) into {target} ({skipped} skipped)")
    return 0
