"""The one error tree of MTG Ledger, split by meaning, and every error ``code`` in one place.

Every refusal carries a stable machine ``code`` (the API's problem+json ``code``, a member of
``Code`` below) and a message that quotes the offending input. A refused command stores nothing:
``decide`` raises before any event leaves it, and the layers above raise before they save.

Each code belongs to exactly one class, so a code always means the same kind of refusal (and the
same HTTP status: the API maps classes to statuses in ``api/errors.py``; nothing here knows HTTP).
docs/api.md's error table is generated from ``Code`` and checked against it by a test.

A message never quotes a hidden zone (a known library or hand): what only judges may see goes in
``hidden``, which the API adds to the message for callers who see hidden zones anyway
(``api/errors.py``), as reads redact those zones for everyone else.

Exception tree::

    GameError                 base: ``code`` (a ``Code``), ``message``, ``hidden``
    ├── InvalidCommand        malformed request: missing field, bad type or value, bad header
    ├── UnknownName           a field or counter kind the server does not know
    ├── LimitExceeded         a value over a documented limit (a text, a list, a game's size)
    ├── TooLarge              a request body over the size limit
    ├── Unsupported           a request the endpoint can't take in that form (method, media type)
    ├── Unauthenticated       no token, or one the server doesn't know
    ├── Forbidden             the caller may not do this (domain/permissions.py decides)
    ├── NotFound              unknown game, player, permanent, stack object, token, ...
    ├── IllegalAction         well-formed but illegal by the rules or the game state
    │   └── InvalidExport     an export file that is damaged, tampered with or not replayable
    ├── Conflict              the game moved on (version), or an id or key is already taken
    ├── Busy                  the server is doing this kind of work for others: retry shortly
    ├── Unavailable           the event store can't be reached in time: retry shortly
    └── InternalError         a failure of the server itself (never raised on purpose)
"""

from __future__ import annotations

from enum import StrEnum

from domain.error_kinds import (
    Busy,
    Conflict,
    Forbidden,
    GameError,
    IllegalAction,
    InternalError,
    InvalidCommand,
    InvalidExport,
    LimitExceeded,
    NotFound,
    TooLarge,
    Unauthenticated,
    Unavailable,
    UnknownName,
    Unsupported,
)

__all__ = [
    "Busy",
    "Code",
    "Conflict",
    "Forbidden",
    "GameError",
    "IllegalAction",
    "InternalError",
    "InvalidCommand",
    "InvalidExport",
    "LimitExceeded",
    "NotFound",
    "TooLarge",
    "Unauthenticated",
    "Unavailable",
    "UnknownName",
    "Unsupported",
    "code_named",
]


class Code(StrEnum):
    """Every error code, each with the class it belongs to and what it means.

    A member's value is the wire code (``"unknown_game"``); ``kind`` is its class in the tree
    above; ``meaning`` is the line docs/api.md's error table shows. Codes of v1 never change
    meaning; new ones are added.
    """

    kind: type[GameError]
    meaning: str

    def __new__(cls, value: str, kind: type[GameError], meaning: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.kind = kind
        member.meaning = meaning
        return member

    # -- InvalidCommand ---------------------------------------------------------------------
    MALFORMED_JSON = "malformed_json", InvalidCommand, "the body is not valid JSON"
    MALFORMED_NDJSON = "malformed_ndjson", InvalidCommand, "a line of an NDJSON body is not valid JSON"
    INVALID_BODY = "invalid_body", InvalidCommand, "the body is not the object the endpoint takes"
    INVALID_COMMAND = "invalid_command", InvalidCommand, "a malformed command"
    UNKNOWN_ACTION = "unknown_action", InvalidCommand, "an action type the server doesn't know"
    MISSING_FIELD = "missing_field", InvalidCommand, "a required field is missing"
    INVALID_FIELD = "invalid_field", InvalidCommand, "a field has the wrong type or value"
    INVALID_AMOUNT = "invalid_amount", InvalidCommand, "an amount out of its range"
    INVALID_TARGET = "invalid_target", InvalidCommand, "a target that is neither a player nor a permanent"
    INVALID_STEP = "invalid_step", InvalidCommand, "a step or phase name the rules don't have"
    INVALID_ZONE = "invalid_zone", InvalidCommand, "a zone name the rules don't have"
    INVALID_VARIANT = "invalid_variant", InvalidCommand, "a game variant the server doesn't know"
    INVALID_WEBHOOK_URL = "invalid_webhook_url", InvalidCommand, "a webhook URL other than http(s)://host[:port]/path"
    WEBHOOK_ADDRESS_REFUSED = (
        "webhook_address_refused",
        InvalidCommand,
        "a webhook host that does not resolve to public addresses only (see MTG_LEDGER_WEBHOOK_ALLOW_PRIVATE)",
    )
    INVALID_PLAYERS = "invalid_players", InvalidCommand, "the players of a new game are not valid"
    INVALID_CARD = "invalid_card", InvalidCommand, "a card given in a form the server can't read"
    INVALID_PENALTY = "invalid_penalty", InvalidCommand, "a penalty the IPG doesn't give"
    UNKNOWN_INFRACTION = "unknown_infraction", InvalidCommand, "a penalty's `section` that is no IPG infraction"
    DUPLICATE_ID = "duplicate_id", InvalidCommand, "an id used twice"
    INVALID_GAME_ID = "invalid_game_id", InvalidCommand, "a game id outside the allowed characters"
    INVALID_ROLE = "invalid_role", InvalidCommand, "a role that doesn't exist"
    INVALID_IF_MATCH = "invalid_if_match", InvalidCommand, "an `If-Match` that is not a version"
    INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key", InvalidCommand, "an `Idempotency-Key` out of its form"
    INVALID_LAST_EVENT_ID = "invalid_last_event_id", InvalidCommand, "a `Last-Event-ID` that is not a version"
    INVALID_REQUEST = "invalid_request", InvalidCommand, "a declared query parameter with a bad value"
    UNKNOWN_PARAMETER = "unknown_parameter", InvalidCommand, "a query parameter the endpoint doesn't take"
    INVALID_CHARACTER = "invalid_character", InvalidCommand, "a control character in text"
    QR_TEXT_TOO_LONG = "qr_text_too_long", InvalidCommand, "the text doesn't fit in a QR code"
    VALUE_OUT_OF_RANGE = "value_out_of_range", InvalidCommand, "a number too large for the record"
    REASON_REQUIRED = "reason_required", InvalidCommand, "a backup or correction without its reason"
    BAD_REQUEST = "bad_request", InvalidCommand, "a request the server can't read"
    HTTP_ERROR = "http_error", InvalidCommand, "another refusal of the HTTP layer (its status says which)"
    # -- UnknownName ------------------------------------------------------------------------
    UNKNOWN_NAME = "unknown_name", UnknownName, "a name the server doesn't know"
    UNKNOWN_FIELD = "unknown_field", UnknownName, "a field the body doesn't have"
    UNKNOWN_COUNTER_KIND = "unknown_counter_kind", UnknownName, "see [Counter kinds](#counter-kinds)"
    # -- LimitExceeded, TooLarge, Unsupported -----------------------------------------------
    LIMIT_EXCEEDED = "limit_exceeded", LimitExceeded, "see [Limits](#limits)"
    PAYLOAD_TOO_LARGE = "payload_too_large", TooLarge, "a body over 4 MiB"
    METHOD_NOT_ALLOWED = "method_not_allowed", Unsupported, "the method is not allowed on that path"
    NOT_ACCEPTABLE = "not_acceptable", Unsupported, "no representation the `Accept` header allows"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", Unsupported, "a body of a media type the endpoint doesn't take"
    # -- Unauthenticated, Forbidden ---------------------------------------------------------
    UNAUTHORIZED = "unauthorized", Unauthenticated, "no token was given"
    INVALID_TOKEN = "invalid_token", Unauthenticated, "the token is unknown, revoked or expired"
    FORBIDDEN = "forbidden", Forbidden, "the token's role may not do this"
    WRONG_GAME = "wrong_game", Forbidden, "the token is for another game"
    NOT_YOUR_PLAYER = "not_your_player", Forbidden, "a player token acting for another player"
    PLAYER_DROPPED = "player_dropped", Forbidden, "an event link of a player who dropped from the event"
    NOT_YOUR_PERMANENT = "not_your_permanent", Forbidden, "a player token acting on a permanent it doesn't control"
    NOT_GAME_CREATOR = "not_game_creator", Forbidden, "only the scorekeeper who created the game may do this"
    HEAD_JUDGE_REQUIRED = "head_judge_required", Forbidden, "only a head judge may do this at this REL"
    QUICK_UNDO_LAST_ACTION_ONLY = (
        "quick_undo_last_action_only",
        Forbidden,
        'a player token undoes only its own last action (`{"actions": 1}`); a judge backs up further',
    )
    NOT_YOUR_ACTION = "not_your_action", Forbidden, "the game's last action is not the player token's own"
    NOT_THE_LAST_ACTION = (
        "not_the_last_action",
        Forbidden,
        "something was recorded after the player's action (an answer, a judge call): a judge backs it up",
    )
    QUICK_UNDO_EXPIRED = (
        "quick_undo_expired",
        Forbidden,
        "the player's action was recorded more than 30 seconds ago: a judge backs it up",
    )
    # -- NotFound ---------------------------------------------------------------------------
    NOT_FOUND = "not_found", NotFound, "no such resource"
    UNKNOWN_TOKEN = "unknown_token", NotFound, "no token with that id"
    UNKNOWN_GAME = "unknown_game", NotFound, "no game with that id"
    UNKNOWN_VERSION = "unknown_version", NotFound, "the game has no such version"
    UNKNOWN_PLAYER = "unknown_player", NotFound, "the game (or tournament) has no such player"
    UNKNOWN_PERMANENT = "unknown_permanent", NotFound, "no such permanent on the battlefield"
    UNKNOWN_STACK_OBJECT = "unknown_stack_object", NotFound, "no such object on the stack"
    UNKNOWN_CALL = "unknown_call", NotFound, "no such judge call"
    UNKNOWN_REPORT = "unknown_report", NotFound, "no such report"
    UNKNOWN_MATCH = "unknown_match", NotFound, "no such match"
    UNKNOWN_WEBHOOK = "unknown_webhook", NotFound, "no such webhook subscription"
    # -- Conflict ---------------------------------------------------------------------------
    CONFLICT = "conflict", Conflict, "the request conflicts with what is stored"
    VERSION_CONFLICT = "version_conflict", Conflict, "`If-Match` names an older version, or 5 clashes in a row: retry"
    GAME_EXISTS = "game_exists", Conflict, "a game with that id exists"
    TOKEN_EXISTS = "token_exists", Conflict, "a token with that secret exists"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused", Conflict, "the key was used for another request"
    IDEMPOTENCY_IN_PROGRESS = "idempotency_in_progress", Conflict, "a request with the key is still being answered"
    RESULT_CHANGED = "result_changed", Conflict, "the match result changed since it was read"
    # -- Busy, Unavailable, InternalError ---------------------------------------------------
    BUSY = "busy", Busy, "the server is busy with this kind of work: retry after `Retry-After` seconds"
    TOO_MANY_STREAMS = "too_many_streams", Busy, "too many event streams open: retry after `Retry-After` seconds"
    TOO_MANY_REQUESTS = "too_many_requests", Busy, "too many requests: retry after `Retry-After` seconds"
    VERIFY_BUSY = "verify_busy", Busy, "a long verify is running: retry after `Retry-After` seconds"
    STORE_UNAVAILABLE = (
        "store_unavailable",
        Unavailable,
        "the event store could not be reached in time (the database is down, its every connection stayed "
        "busy for the pool's timeout, or a SQLite file stayed locked past its `timeout`); `Retry-After: 1`. "
        "Send the same request again, with the same `Idempotency-Key`: a save is atomic, and the key makes "
        "sure the retry never acts twice even if a connection was lost during the commit",
    )
    INTERNAL_ERROR = "internal_error", InternalError, "a failure of the server itself (logged with its traceback)"
    # -- IllegalAction ----------------------------------------------------------------------
    ILLEGAL_ACTION = "illegal_action", IllegalAction, "the rules or the game state forbid it"
    UNPROCESSABLE = "unprocessable", IllegalAction, "a request the server understood but can't carry out"
    NOT_A_COMMANDER = "not_a_commander", IllegalAction, "only a commander goes to the command zone (CR 903.9)"
    ALREADY_DESIGNATED = "already_designated", IllegalAction, "the designation is already so"
    NOT_YOUR_PRIORITY = "not_your_priority", IllegalAction, "the player doesn't have priority"
    NOT_ENOUGH_COUNTERS = "not_enough_counters", IllegalAction, "fewer counters of that kind than asked for"
    ALREADY_TAPPED = "already_tapped", IllegalAction, "the permanent is tapped"
    ALREADY_UNTAPPED = "already_untapped", IllegalAction, "the permanent is untapped"
    ALREADY_ACTIVATED = "already_activated", IllegalAction, "the ability was activated as often as it may be"
    SUMMONING_SICK = "summoning_sick", IllegalAction, "the creature came under its controller's control this turn"
    STACK_NOT_EMPTY = "stack_not_empty", IllegalAction, "the stack must be empty"
    STACK_EMPTY = "stack_empty", IllegalAction, "the stack is empty"
    ILLEGAL_CHOICE = "illegal_choice", IllegalAction, "a choice the effect doesn't allow"
    ILLEGAL_TARGET = "illegal_target", IllegalAction, "a target the effect doesn't allow"
    CHOICE_REQUIRED = "choice_required", IllegalAction, "the effect needs a choice the request didn't make"
    TRIGGERS_PENDING = "triggers_pending", IllegalAction, "triggered abilities wait to be put on the stack"
    NOTHING_TO_ORDER = "nothing_to_order", IllegalAction, "no triggers wait to be ordered"
    GAME_OVER = "game_over", IllegalAction, "the game is over"
    UNKNOWN_CARD = "unknown_card", IllegalAction, "a card the catalog doesn't know"
    NO_COUNTER_TO_PROLIFERATE = "no_counter_to_proliferate", IllegalAction, "a chosen object has no counter"
    INSUFFICIENT_LIFE = "insufficient_life", IllegalAction, "not enough life to pay"
    WRONG_TIMING = "wrong_timing", IllegalAction, "not at this time (timing rules)"
    CARD_NOT_IN_HAND = "card_not_in_hand", IllegalAction, "the card is not in that hand"
    CARD_NOT_IN_ZONE = "card_not_in_zone", IllegalAction, "the card is not in that zone"
    LAND_ALREADY_PLAYED = "land_already_played", IllegalAction, "a land was played this turn"
    NOT_A_LAND = "not_a_land", IllegalAction, "the card is not a land"
    CANNOT_CAST_LAND = "cannot_cast_land", IllegalAction, "a land is played, not cast"
    ALREADY_DECLARED = "already_declared", IllegalAction, "attackers were declared this combat"
    NOT_CONTROLLER = "not_controller", IllegalAction, "the player doesn't control it"
    UNKNOWN_ABILITY = "unknown_ability", IllegalAction, "the permanent has no such ability"
    CARDS_REQUIRED = "cards_required", IllegalAction, "the action must name the cards it moves"
    WRONG_CARD_COUNT = "wrong_card_count", IllegalAction, "the action names the wrong number of cards"
    PLAYER_LEFT = "player_left", IllegalAction, "the player has left the game"
    NOTHING_TO_UNDO = "nothing_to_undo", IllegalAction, "no action to undo"
    INVALID_VERSION = "invalid_version", IllegalAction, "an undo target that is not a past version"
    INVALID_IMPORT = "invalid_import", IllegalAction, "the export file is damaged, tampered with or not replayable"
    DAMAGED_RECORD = "damaged_record", IllegalAction, "a stored record no longer verifies"
    NOT_AN_ACTION_BOUNDARY = "not_an_action_boundary", IllegalAction, "an undo target inside an action"
    PENALTY_STANDS = "penalty_stands", IllegalAction, "a game-ending penalty can't be backed up"
    NOT_YOUR_REPORT = "not_your_report", IllegalAction, "only the other player answers a report"
    CALL_CLOSED = "call_closed", IllegalAction, "the judge call is answered"
    DISPUTED = "disputed", IllegalAction, "the report is disputed"
    MATCH_NOT_OVER = "match_not_over", IllegalAction, "the match has no result yet"
    MATCH_COMPLETE = "match_complete", IllegalAction, "the match has its result: too late for an intentional draw"
    TOO_MANY_OPEN_CALLS = "too_many_open_calls", IllegalAction, "the player has the most open judge calls allowed"
    # -- The opening: first player and mulligans (CR 103.1, 103.5) ---------------------------
    TOO_LATE_TO_CHOOSE = (
        "too_late_to_choose",
        IllegalAction,
        "the first player is chosen once, before any mulligan and the first turn-based action (CR 103.1)",
    )
    TOO_LATE_TO_MULLIGAN = (
        "too_late_to_mulligan",
        IllegalAction,
        "mulligans and keeps are before the game's first turn-based action (CR 103.5)",
    )
    HAND_ALREADY_KEPT = "hand_already_kept", IllegalAction, "the player kept their hand: no more mulligans (CR 103.5)"
    MULLIGAN_PENDING = (
        "mulligan_pending",
        IllegalAction,
        "a player who took a mulligan has not kept a hand yet: `keep_hand` first (CR 103.5)",
    )
    # -- Tournaments (domain/tournament; docs/tournaments.md) --------------------------------
    TOURNAMENT_NOT_CREATED = "tournament_not_created", NotFound, "the tournament has not been created"
    UNKNOWN_ROUND = "unknown_round", NotFound, "the tournament has no such round"
    UNKNOWN_TABLE = "unknown_table", NotFound, "the round has no such table"
    UNKNOWN_TOURNAMENT = "unknown_tournament", NotFound, "no tournament with that id"
    TOURNAMENT_ALREADY_CREATED = "tournament_already_created", Conflict, "the tournament exists"
    PLAYER_ALREADY_REGISTERED = "player_already_registered", Conflict, "a player with that key is registered"
    WIZARDS_ID_ALREADY_REGISTERED = "wizards_id_already_registered", Conflict, "that Wizards id is registered"
    INVALID_REL = "invalid_rel", InvalidCommand, "a Rules Enforcement Level the MTR doesn't have (1.12)"
    INVALID_KIND = "invalid_kind", InvalidCommand, "an event kind other than `two_player` or `commander`"
    INVALID_ROUNDS = "invalid_rounds", InvalidCommand, "a number of Swiss rounds out of range"
    INVALID_ROUND_LENGTH = "invalid_round_length", InvalidCommand, "a round length out of range"
    INVALID_TOP_CUT = "invalid_top_cut", InvalidCommand, "a top cut other than 8, 4 or 2 (two-player events)"
    INVALID_BEST_OF = "invalid_best_of", InvalidCommand, "a match length other than best of 1, 3 or 5 (MTR 2.1)"
    INVALID_POINTS = "invalid_points", InvalidCommand, "match points that aren't win > draw >= 0"
    INVALID_SEED = "invalid_seed", InvalidCommand, "a pairing seed that is not an integer 0 <= seed < 2**53"
    INVALID_RESULT = "invalid_result", InvalidCommand, "a match result that can't happen (MTR 2.1)"
    INVALID_TIME = "invalid_time", InvalidCommand, "a time that is not ISO 8601 with a UTC offset"
    INVALID_TOURNAMENT_ID = "invalid_tournament_id", InvalidCommand, "an id outside `[A-Za-z0-9][A-Za-z0-9_-]{0,63}`"
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
    BRACKET_MOVED_ON = "bracket_moved_on", IllegalAction, "the bracket moved on: paired with this winner, cut or seeds"
    DRAW_IN_SINGLE_ELIMINATION = "draw_in_single_elimination", IllegalAction, "no draw in single elimination (MTR 2.4)"
    NO_SHOW_CANNOT_WIN = "no_show_cannot_win", IllegalAction, "a player who didn't show up can't win the pod"
    ROUND_ALREADY_STARTED = "round_already_started", IllegalAction, "the round's clock has started"
    ROUND_NOT_STARTED = "round_not_started", IllegalAction, "the round's clock has not started"
    ROUND_ALREADY_ENDED = "round_already_ended", IllegalAction, "the round has ended"
    CLOCK_ALREADY_PAUSED = "clock_already_paused", IllegalAction, "the round's clock is paused"
    CLOCK_NOT_PAUSED = "clock_not_paused", IllegalAction, "the round's clock is running"
    CLOCK_WENT_BACKWARDS = "clock_went_backwards", IllegalAction, "a clock change before the clock's last one"
    TABLE_ALREADY_FEATURED = "table_already_featured", IllegalAction, "the table is already (un)featured as asked"
    PREVIOUS_GAME_NOT_OVER = "previous_game_not_over", IllegalAction, "the match's latest game has not finished"
    MATCH_DECIDED = "match_decided", IllegalAction, "a player has won the games the match needs (MTR 2.1)"
    ALL_GAMES_PLAYED = "all_games_played", IllegalAction, "the match has as many games as it is best of"
    # -- Players' match reports (domain/tournament/decide_reports.py) --
    NOT_YOUR_MATCH = "not_your_match", Forbidden, "the event link's player does not play at this table"
    REPORT_BY_DROPPED_PLAYER = "report_by_dropped_player", Forbidden, "a dropped player's link reports nothing"
    REPORT_PENDING = "report_pending", Conflict, "a player's report waits for the opponent's confirmation"
    RESULT_DISPUTED = "result_disputed", Conflict, "the report is disputed: the scorekeeper or a judge settles it"
    NO_REPORT_TO_CONFIRM = "no_report_to_confirm", IllegalAction, "the match has no player's report waiting"
    POD_REPORTED_BY_STAFF = "pod_reported_by_staff", IllegalAction, "a Commander pod's result is the scorekeeper's"
    SETTLE_NEEDS_REASON = "settle_needs_reason", InvalidCommand, "settling a disputed result needs a reason"
    # -- Decklists (issue 42) ----------------------------------------------------------------
    DECKLIST_UNREADABLE = "decklist_unreadable", InvalidCommand, "a decklist line is not `<count> <card name>`"
    DECKLIST_TOO_LONG = "decklist_too_long", InvalidCommand, "a decklist over the size limit"
    DECKLIST_UNKNOWN_CARD = "decklist_unknown_card", IllegalAction, "a decklist names a card not in the catalog"
    DECKLIST_ILLEGAL = "decklist_illegal", IllegalAction, "a decklist breaks deck construction (CR 100.2a, 903.5)"
    DECKLIST_DEADLINE_PASSED = "decklist_deadline_passed", IllegalAction, "the decklist deadline has passed"
    DECKLISTS_LOCKED = "decklists_locked", IllegalAction, "the scorekeeper locked decklist submission"
    DECKLIST_LOCK_UNCHANGED = "decklist_lock_unchanged", IllegalAction, "submission is already locked or unlocked"
    UNKNOWN_DECKLIST = "unknown_decklist", NotFound, "the player has registered no decklist"
    DECKLISTS_ALREADY_PUBLISHED = "decklists_already_published", IllegalAction, "the lists are already published"
    EVENT_NOT_OVER = "event_not_over", IllegalAction, "lists are published after the event's last round"
    INVALID_DECK_CHECK = "invalid_deck_check", InvalidCommand, "a deck check's tables or outcome are not valid"


def code_named(value: Code | str) -> Code:
    """The member of ``Code`` whose value is ``value``; an unregistered code is a bug here."""
    if isinstance(value, Code):
        return value
    member = Code._value2member_map_.get(value)
    if not isinstance(member, Code):
        raise ValueError(f"{value!r} is not an error code of domain.errors.Code")
    return member


GameError.code_named = staticmethod(code_named)
InvalidCommand.default_code = Code.INVALID_COMMAND
UnknownName.default_code = Code.UNKNOWN_NAME
LimitExceeded.default_code = Code.LIMIT_EXCEEDED
TooLarge.default_code = Code.PAYLOAD_TOO_LARGE
Unsupported.default_code = Code.METHOD_NOT_ALLOWED
Unauthenticated.default_code = Code.UNAUTHORIZED
Forbidden.default_code = Code.FORBIDDEN
NotFound.default_code = Code.NOT_FOUND
IllegalAction.default_code = Code.ILLEGAL_ACTION
InvalidExport.default_code = Code.INVALID_IMPORT
Conflict.default_code = Code.CONFLICT
Busy.default_code = Code.BUSY
Unavailable.default_code = Code.STORE_UNAVAILABLE
InternalError.default_code = Code.INTERNAL_ERROR
