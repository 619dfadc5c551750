"""The tournament's refusals: ordinary errors of ``domain.errors``, each with its stable code.

The codes are members of ``domain.errors.Code`` (its "Tournaments" section, plus
``unknown_player`` and ``invalid_command``, which games use too), so a refusal carries ``code``
like every other error and the API's error table lists them. ``refuse`` builds the error of the
code's own class (``NotFound``, ``Conflict``, ``InvalidCommand``, ``IllegalAction``).
"""

from __future__ import annotations

from domain.errors import Code, GameError

CODES: frozenset[Code] = frozenset(
    {
        Code.TOURNAMENT_NOT_CREATED,
        Code.UNKNOWN_PLAYER,
        Code.UNKNOWN_ROUND,
        Code.UNKNOWN_TABLE,
        Code.TOURNAMENT_ALREADY_CREATED,
        Code.PLAYER_ALREADY_REGISTERED,
        Code.WIZARDS_ID_ALREADY_REGISTERED,
        Code.INVALID_COMMAND,
        Code.INVALID_REL,
        Code.INVALID_KIND,
        Code.INVALID_ROUNDS,
        Code.INVALID_ROUND_LENGTH,
        Code.INVALID_TOP_CUT,
        Code.INVALID_POINTS,
        Code.INVALID_BEST_OF,
        Code.INVALID_SEED,
        Code.INVALID_RESULT,
        Code.INVALID_TIME,
        Code.REGISTRATION_CLOSED,
        Code.PLAYER_ALREADY_DROPPED,
        Code.NO_ROUND_IN_PLAY,
        Code.NOT_PAIRED_THIS_ROUND,
        Code.RESULTS_MISSING,
        Code.ALL_ROUNDS_PAIRED,
        Code.SWISS_FINISHED,
        Code.NOT_ENOUGH_PLAYERS,
        Code.PAIRING_IMPOSSIBLE,
        Code.NO_TOP_CUT,
        Code.SWISS_NOT_FINISHED,
        Code.TOP_CUT_FINISHED,
        Code.MATCH_ALREADY_REPORTED,
        Code.MATCH_NOT_REPORTED,
        Code.CORRECTION_CHANGES_NOTHING,
        Code.BRACKET_MOVED_ON,
        Code.DRAW_IN_SINGLE_ELIMINATION,
        Code.NO_SHOW_CANNOT_WIN,
        Code.ROUND_ALREADY_STARTED,
        Code.ROUND_NOT_STARTED,
        Code.ROUND_ALREADY_ENDED,
        Code.CLOCK_ALREADY_PAUSED,
        Code.CLOCK_NOT_PAUSED,
        Code.CLOCK_WENT_BACKWARDS,
        Code.TABLE_ALREADY_FEATURED,
        Code.PREVIOUS_GAME_NOT_OVER,
        Code.MATCH_DECIDED,
        Code.ALL_GAMES_PLAYED,
        Code.REPORT_PENDING,
        Code.RESULT_DISPUTED,
        Code.NO_REPORT_TO_CONFIRM,
        Code.NOT_YOUR_REPORT,
        Code.POD_REPORTED_BY_STAFF,
        Code.SETTLE_NEEDS_REASON,
    }
)
"""Every code the tournament kernel raises: stable, the API's problem+json ``code``."""


def refuse(message: str, code: Code) -> GameError:
    """The error to raise for ``code``: an instance of the code's class, carrying the code."""
    return code.kind(message, code)
