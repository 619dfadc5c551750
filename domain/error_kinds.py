"""The classes of the one error tree (``domain.errors`` has the tree, the codes, and re-exports
these): each class is a kind of refusal, and each ``Code`` belongs to exactly one of them. They
live apart from ``Code`` because ``Code``'s members name their class, so the classes come first."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from domain.errors import Code


class GameError(Exception):
    """Base of every error the ledger raises on purpose (always as one of its subclasses)."""

    default_code: Code
    """The code when none is given; ``domain.errors`` sets it for each class, after ``Code``."""
    code_named: ClassVar[Callable[[Code | str], Code]]
    """``domain.errors.code_named``, set there: ``Code``'s members name these classes, so the
    classes can't import ``Code`` (the domain's import graph has no cycle)."""

    def __init__(self, message: str, code: Code | str | None = None, *, hidden: str | None = None) -> None:
        super().__init__(message if hidden is None else f"{message} ({hidden})")
        self.message = message
        """What any caller may read: never the contents of a hidden zone."""
        self.code: Code = self.default_code if code is None else GameError.code_named(code)
        """The stable machine code; it belongs to this class (``Code.kind``)."""
        if not isinstance(self, self.code.kind):
            raise TypeError(f"code {self.code.value!r} is a {self.code.kind.__name__}, not a {type(self).__name__}")
        self.hidden = hidden
        """Details from hidden zones (a known hand, the top of a library), for judges and admins."""

    def message_for(self, sees_hidden: bool) -> str:
        """The message as a caller who does (or doesn't) see hidden zones may read it."""
        return self.message if self.hidden is None or not sees_hidden else f"{self.message} ({self.hidden})"


class InvalidCommand(GameError):
    """The request is malformed: a missing field, a wrong type, a value out of range."""


class UnknownName(GameError):
    """The request names something the server does not know: a field no model has, or a counter
    kind that is neither in the rules nor printed on a card (``domain/counter_kinds.py``)."""


class LimitExceeded(GameError):
    """A value is over a documented limit (docs/api.md, Limits)."""


class TooLarge(GameError):
    """A request body is over the size limit."""


class Unsupported(GameError):
    """The endpoint doesn't take the request in this form: the method, or the media type."""


class Unauthenticated(GameError):
    """No token was given, or the server doesn't know the one given (or it expired)."""


class Forbidden(GameError):
    """The caller may not make this request: a player token acting for another player, on a
    permanent it doesn't control, or doing what only judges do (``domain/permissions.py``)."""


class NotFound(GameError):
    """The request names an object (game, player, permanent, stack object) that does not exist."""


class IllegalAction(GameError):
    """Well-formed, but the rules or the game state forbid it; ``code`` says which."""


class InvalidExport(IllegalAction):
    """An export file that is damaged, tampered with or not replayable; names the first bad line."""

    def __init__(self, line: int, message: str, version: int | None = None) -> None:
        super().__init__(f"line {line}: {message}", "invalid_import")
        self.line = line
        """1-based line number in the file (the header is line 1)."""
        self.version = version
        """The event version that line holds, or ``None`` for the header."""


class Conflict(GameError):
    """The game's version differs from the one the caller expected, or an id is taken."""


class Busy(GameError):
    """The server is doing this kind of work for other callers; try again shortly."""

    def __init__(self, message: str, code: Code | str | None = None, *, retry_after: int = 1) -> None:
        super().__init__(message, code)
        self.retry_after = retry_after
        """Seconds the caller is asked to wait before it sends again."""


class Unavailable(GameError):
    """The event store could not be reached in time; the request stored nothing, try again."""


class InternalError(GameError):
    """The server failed to handle the request (a bug): logged with its traceback."""
