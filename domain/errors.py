"""The one error root of the rules kernel, split by meaning.

Every refusal carries a stable machine ``code`` (the API's problem+json ``code``) and a message
that quotes the offending input. A refused command stores nothing: ``decide`` raises before any
event leaves it.

A message never quotes a hidden zone (a known library or hand): what only judges may see goes in
``hidden``, which the API adds to the message for callers who see hidden zones anyway
(``api.errors``), as reads redact those zones for everyone else.

Exception tree::

    GameError                 base; ``code`` and ``status`` (the HTTP status the API maps it to)
    ├── InvalidCommand        400: malformed or unknown command, bad field types or values
    ├── UnknownName           422: a field or counter kind the server does not know
    │                              (``unknown_field``, ``unknown_counter_kind``)
    ├── Forbidden             403: a player token reaching beyond its own player or permanents
    ├── NotFound              404: unknown game, player, team, permanent or stack object
    ├── IllegalAction         422: well-formed but illegal by the rules or the game state
    └── Conflict              409: the game moved on (version) or an id is already taken
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every error the kernel raises on purpose."""

    status: int = 400
    default_code: str = "game_error"

    def __init__(self, message: str, code: str | None = None, *, hidden: str | None = None) -> None:
        super().__init__(message if hidden is None else f"{message} ({hidden})")
        self.message = message
        """What any caller may read: never the contents of a hidden zone."""
        self.code = code or self.default_code
        self.hidden = hidden
        """Details from hidden zones (a known hand, the top of a library), for judges and admins."""

    def message_for(self, sees_hidden: bool) -> str:
        """The message as a caller who does (or doesn't) see hidden zones may read it."""
        return self.message if self.hidden is None or not sees_hidden else f"{self.message} ({self.hidden})"


class InvalidCommand(GameError):
    """The request is malformed: a missing field, a wrong type, a value out of range."""

    status = 400
    default_code = "invalid_command"


class UnknownName(GameError):
    """The request names something the server does not know: a field no model has, or a counter
    kind that is neither in the rules nor printed on a card (``domain.counter_kinds``)."""

    status = 422
    default_code = "unknown_name"


class Forbidden(GameError):
    """The caller may not make this request: a player token acting for another player, on a
    permanent it doesn't control, or doing what only judges do (``domain.permissions``)."""

    status = 403
    default_code = "forbidden"


class NotFound(GameError):
    """The request names an object (game, player, permanent, stack object) that does not exist."""

    status = 404
    default_code = "not_found"


class IllegalAction(GameError):
    """Well-formed, but the rules or the game state forbid it; ``code`` says which."""

    status = 422
    default_code = "illegal_action"


class Conflict(GameError):
    """The game's version differs from the one the caller expected, or an id is taken."""

    status = 409
    default_code = "conflict"
