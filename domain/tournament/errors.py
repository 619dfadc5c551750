"""The tournament's refusals: the ordinary error classes of ``domain.errors``, each with a stable
tournament code.

``TournamentCode`` lists the codes in the shape of ``domain.errors.Code`` (value, class,
meaning), so that its members can move into ``Code`` as they are: ``domain.errors`` is the one
place of every code, and a code it doesn't know yet can't be given to a ``GameError``. Until a
code is there, the error carries its class's default ``code`` (``illegal_action``, ...) and the
tournament code in ``tournament_code``; once it is, ``code`` is that member too. Callers and tests
read ``tournament_code``, which is the same either way.
"""

from __future__ import annotations

from enum import StrEnum

from domain.errors import Code, Conflict, GameError, IllegalAction, InvalidCommand, NotFound


class TournamentCode(StrEnum):
    """Every code the tournament kernel raises, with its class and what it means."""

    kind: type[GameError]
    meaning: str

    def __new__(cls, value: str, kind: type[GameError], meaning: str) -> TournamentCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.kind = kind
        member.meaning = meaning
        return member

    # -- NotFound ---------------------------------------------------------------------------
    TOURNAMENT_NOT_CREATED = "tournament_not_created", NotFound, "the tournament has not been created"
    UNKNOWN_PLAYER = "unknown_player", NotFound, "the tournament has no such player"
    UNKNOWN_ROUND = "unknown_round", NotFound, "the tournament has no such round"
    UNKNOWN_TABLE = "unknown_table", NotFound, "the round has no such table"
    # -- Conflict ---------------------------------------------------------------------------
    TOURNAMENT_ALREADY_CREATED = "tournament_already_created", Conflict, "the tournament exists"
    PLAYER_ALREADY_REGISTERED = "player_already_registered", Conflict, "a player with that key is registered"
    WIZARDS_ID_ALREADY_REGISTERED = "wizards_id_already_registered", Conflict, "that Wizards id is registered"
    # -- InvalidCommand ---------------------------------------------------------------------
    INVALID_COMMAND = "invalid_command", InvalidCommand, "a malformed command"
    INVALID_REL = "invalid_rel", InvalidCommand, "a Rules Enforcement Level the MTR doesn't have (1.12)"
    INVALID_KIND = "invalid_kind", InvalidCommand, "an event kind other than `two_player` or `commander`"
    INVALID_ROUNDS = "invalid_rounds", InvalidCommand, "a number of Swiss rounds out of range"
    INVALID_ROUND_LENGTH = "invalid_round_length", InvalidCommand, "a round length out of range"
    INVALID_TOP_CUT = "invalid_top_cut", InvalidCommand, "a top cut other than 8, 4 or 2 (two-player events)"
    INVALID_POINTS = "invalid_points", InvalidCommand, "match points that aren't win > draw >= 0"
    INVALID_SEED = "invalid_seed", InvalidCommand, "a pairing seed that is not an integer 0 <= seed < 2**63"
    INVALID_RESULT = "invalid_result", InvalidCommand, "a match result that can't happen (MTR 2.1)"
    INVALID_TIME = "invalid_time", InvalidCommand, "a time that is not ISO 8601 with a UTC offset"
    # -- IllegalAction ----------------------------------------------------------------------
    REGISTRATION_CLOSED = "registration_closed", IllegalAction, "every Swiss round has been paired"
    PLAYER_ALREADY_DROPPED = "player_already_dropped", IllegalAction, "the player has dropped (MTR 2.10)"
    NO_ROUND_IN_PLAY = "no_round_in_play", IllegalAction, "no round has been paired"
    NOT_PAIRED_THIS_ROUND = "not_paired_this_round", IllegalAction, "the player has no table this round"
    RESULTS_MISSING = "results_missing", IllegalAction, "the current round has matches without a result"
    ALL_ROUNDS_PAIRED = "all_rounds_paired", IllegalAction, "every announced Swiss round has been paired"
    SWISS_FINISHED = "swiss_finished", IllegalAction, "the top cut has begun"
    NOT_ENOUGH_PLAYERS = "not_enough_players", IllegalAction, "too few players to pair (or to fill the cut)"
    PAIRING_IMPOSSIBLE = "pairing_impossible", IllegalAction, "no pairing avoids a rematch or a second bye"
    NO_TOP_CUT = "no_top_cut", IllegalAction, "the event has no top cut"
    SWISS_NOT_FINISHED = "swiss_not_finished", IllegalAction, "the top cut waits for the last Swiss round"
    TOP_CUT_FINISHED = "top_cut_finished", IllegalAction, "the final has been played"
    MATCH_ALREADY_REPORTED = "match_already_reported", IllegalAction, "the match has a result: correct it instead"
    MATCH_NOT_REPORTED = "match_not_reported", IllegalAction, "the match has no result to correct"
    CORRECTION_CHANGES_NOTHING = "correction_changes_nothing", IllegalAction, "the correction is the result"
    BRACKET_MOVED_ON = "bracket_moved_on", IllegalAction, "the bracket's next round is paired with the winner"
    DRAW_IN_SINGLE_ELIMINATION = (
        "draw_in_single_elimination",
        IllegalAction,
        "single-elimination matches may not end in a draw (MTR 2.4)",
    )
    NO_SHOW_CANNOT_WIN = "no_show_cannot_win", IllegalAction, "a player who didn't show up can't win the pod"
    ROUND_ALREADY_STARTED = "round_already_started", IllegalAction, "the round's clock has started"
    ROUND_NOT_STARTED = "round_not_started", IllegalAction, "the round's clock has not started"
    ROUND_ALREADY_ENDED = "round_already_ended", IllegalAction, "the round has ended"
    CLOCK_ALREADY_PAUSED = "clock_already_paused", IllegalAction, "the round's clock is paused"
    CLOCK_NOT_PAUSED = "clock_not_paused", IllegalAction, "the round's clock is running"
    CLOCK_WENT_BACKWARDS = "clock_went_backwards", IllegalAction, "a clock change before the clock's last one"


class TournamentRefusal(GameError):
    """Mixed into the class of the code's kind: the refusal with its tournament code."""

    tournament_code: TournamentCode

    def __init__(self, message: str, code: TournamentCode) -> None:
        registered = Code._value2member_map_.get(code.value)
        super().__init__(message, registered if isinstance(registered, Code) else None)
        self.tournament_code = code
        """The stable tournament code (``results_missing``, ``unknown_player``, ...)."""


class TournamentNotFound(TournamentRefusal, NotFound):
    pass


class TournamentConflict(TournamentRefusal, Conflict):
    pass


class TournamentInvalidCommand(TournamentRefusal, InvalidCommand):
    pass


class TournamentIllegalAction(TournamentRefusal, IllegalAction):
    pass


_CLASSES: dict[type[GameError], type[TournamentRefusal]] = {
    NotFound: TournamentNotFound,
    Conflict: TournamentConflict,
    InvalidCommand: TournamentInvalidCommand,
    IllegalAction: TournamentIllegalAction,
}


def refuse(message: str, code: TournamentCode) -> TournamentRefusal:
    """The error to raise for ``code``: an instance of the code's class (``NotFound``, ...)."""
    return _CLASSES[code.kind](message, code)
