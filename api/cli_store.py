"""How a ``mtg-ledger`` command opens the event store, and what it says when it can't.

Every command that opens the store first says which one on stderr (``store: sqlite /abs/path`` or
the PostgreSQL URL without its password): a token made in one store is unknown to a server on
another. What the user must fix is a ``CliError``: one line on stderr, exit status 2.
"""

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from api.app import build_service
from api.settings import Settings
from ledger.service import LedgerService
from store.database_url import without_password
from store.errors import StoreError

USAGE_ERROR = 2
"""Exit status of every one-line error (argparse's own for bad arguments)."""


class CliError(Exception):
    """What the user must fix (an argument, a file, the store's URL): printed on one line."""


@contextmanager
def opened(settings: Settings, *, create_tables: bool = True) -> Iterator[LedgerService]:
    """The event store, named on stderr first; a store that cannot be opened is a ``CliError``."""
    where = settings.store_description
    print(f"store: {where}", file=sys.stderr, flush=True)
    try:
        # No head watch: ``serve`` passes its worker count to ``mtg-ledger project`` too, and a
        # watch there read and folded every event for actions it never decides (16% of that
        # process's CPU with 2 workers, docs/performance.md, issue 15, tenth pass).
        service = build_service(settings, create_tables=create_tables, serving=False)
    except (StoreError, OSError, ValueError) as err:
        # The URL's own messages quote it whole; never echo its password.
        reason = first_line(err).replace(settings.database_url, without_password(settings.database_url))
        raise CliError(f"cannot open the store {where}: {reason}") from err
    try:
        yield service
    finally:
        service.close()


def first_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0]
