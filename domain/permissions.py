"""Who may do what (docs/api.md, Authentication and roles): every 403 the server answers is
decided here. The API turns a bearer token into a ``Grant`` and asks; the ledger asks again inside
each decision, on the state the command is decided on (``domain.decide.run_as``, ``domain.undo``).

Roles form a ladder: ``spectator < player < scorekeeper < judge < head_judge < admin``
(``require_role``: ``403 forbidden``). A ``player`` token is bound to one game and one player
(``check_game``, ``bound_player``: ``403 wrong_game``), or is an event link: bound to a tournament
and acting only in the games where its player is seated, until the player drops
(``seat_refusal``: ``403 wrong_game``, ``player_dropped``). Beyond the ladder:

- a note on the record is for judges, from any role (``403 forbidden``);
- at Competitive REL a backup is the head judge's (``check_backup``: ``403 head_judge_required``);
  a player token may undo only its own last action, quickly (``check_undo``, ``domain.undo``);
- a full verify is for judges (``full_verify``), player links for the game's creator or a judge
  (``check_player_links``: ``403 not_game_creator``); judge calls, acknowledgements, disputes and
  match confirmations are made as the token's own player (``judge_caller``, ``acknowledger``,
  ``disputer``, ``match_player``).

What a player token may ask for (``check_player_command``): its own decisions, as its own player.
It dispatches on the command's type, so a new command is refused or allowed here on purpose
rather than by a string that happens to match:

- a note on the record is for judges (``403 forbidden``);
- a command that names a player (life, mill, draw, proliferate, cast, play a land, activate,
  attack, concede) must name the token's own player, and ``enter`` must put the permanent under
  its control (``403 not_your_player``);
- tapping, untapping, moving or sacrificing a permanent needs it to be the player's own
  (``403 not_your_permanent``); for ``activate`` the rules check control (``not_controller``);
  a commander goes to the command zone by its owner's choice (CR 903.9), so moving one there
  needs the token's player to own it, whoever controls it;
- the opening: a mulligan and a kept hand are the token's own player's (``403 not_your_player``);
  who plays first may be asked of the server at random, or reported as chosen, by any player of
  the game (the player who chooses may choose either player, CR 103.1);
- designations: a player reports becoming the monarch, taking the initiative or getting the city's
  blessing themselves (their own cards' "you become the monarch", "you take the initiative",
  ascend), never for another player (``403 not_your_player``); and that it becomes day or night
  only while it is neither (a daybound or nightbound permanent of theirs, CR 702.145d, 702.145g):
  afterwards it changes by the untap-step check (CR 731.2), and a report changing it is a
  judge's (``403 forbidden``);
- decisions that belong to one player (CR 117, 601.2, 603.3b, 608.2) are that player's: ending a
  step (the active player's), ordering pending triggers (their controller's), choices for the top
  of the stack (its controller's); otherwise ``422 not_your_priority``.

Direct reports (counters, damage, countering a stack object) are allowed: they are recorded with
the token as the actor, for a judge to review. A judge call, an acknowledgement and a dispute are
made as the token's own player (``403 not_your_player``). A command type this function doesn't name is
refused (``403 forbidden``): a new command is for judges until it is given a rule here.
"""

from __future__ import annotations

from domain.commands import (
    Activate,
    AddCounters,
    Advance,
    Attack,
    Cast,
    ChangeLife,
    Choices,
    ChooseFirstPlayer,
    Command,
    Concede,
    CounterObject,
    Damage,
    Designate,
    Draw,
    Enter,
    KeepHand,
    Mill,
    Move,
    Mulligan,
    Note,
    OrderTriggers,
    PlayLand,
    Proliferate,
    RemoveCounters,
    Resolve,
    Sacrifice,
    Tap,
)
from domain.commands.judging import Acknowledge, CallJudge, Dispute
from domain.errors import Code, Forbidden, IllegalAction
from domain.grants import RANK as RANK
from domain.grants import ROLES as ROLES
from domain.grants import Grant as Grant
from domain.grants import QuickUndo as QuickUndo
from domain.grants import Role as Role
from domain.judging import backup_needs_head_judge, rel
from domain.state import GameState


# -- the ladder and the game a player token is bound to ---------------------------------------
def require_role(grant: Grant, role: Role) -> None:
    """``403 forbidden`` unless ``grant`` holds ``role`` or above."""
    if not grant.at_least(role):
        raise Forbidden(f"role {grant.role!r} may not do this; it needs {role!r} or above", Code.FORBIDDEN)


TOURNAMENT_BINDING = "_tournament/"
"""An event link (a player token of a whole tournament) is bound to ``_tournament/<id>`` (no game
id starts with ``_``); it acts in a game only by its ``Grant.seat`` there (``seat_refusal``)."""


def seat_refusal(grant: Grant, game_id: str) -> Forbidden | None:
    """Why a player token may not act in ``game_id``, or ``None``: the one check of where a
    player token acts. A game link acts in its own game; an event link only in the games of its
    event at its own player's table (``Grant.seat``: never a game whose id merely starts with the
    event's), and not at all once its player has dropped (``403 player_dropped``)."""
    bound = grant.game_id
    if bound is None or not bound.startswith(TOURNAMENT_BINDING):
        return None if bound == game_id else Forbidden(f"this player token is bound to game {bound!r}", Code.WRONG_GAME)
    event, seat = bound.removeprefix(TOURNAMENT_BINDING), grant.seat
    if seat is None or (seat.tournament_id, seat.game_id, seat.player) != (event, game_id, grant.player_id):
        return Forbidden(
            f"this event link's player {grant.player_id!r} is not seated in game {game_id!r} of event {event!r}",
            Code.WRONG_GAME,
        )
    if seat.dropped:
        return Forbidden(
            f"player {seat.player!r} dropped from event {event!r}: the link no longer acts", Code.PLAYER_DROPPED
        )
    return None


def event_player(grant: Grant, tournament_id: str) -> str:
    """The player an event link of ``tournament_id`` is (for its own reads, a dropped player's
    too); another token is ``403 wrong_game`` (a player token) or ``403 forbidden``."""
    if grant.role != "player":
        raise Forbidden("this is an event link's own view (a scorekeeper reads the event)", Code.FORBIDDEN)
    if grant.game_id != TOURNAMENT_BINDING + tournament_id or grant.player_id is None:
        raise Forbidden(f"this player token is not an event link of {tournament_id!r}", Code.WRONG_GAME)
    return grant.player_id


def in_game(grant: Grant, game_id: str) -> bool:
    """Whether the player token acts in ``game_id`` (``seat_refusal``)."""
    return seat_refusal(grant, game_id) is None


def check_game(grant: Grant, game_id: str) -> None:
    """A player token acts only in its own game: refused before its request is even parsed, so a
    token learns nothing about another game's bodies (or whether that game exists)."""
    refusal = seat_refusal(grant, game_id) if grant.role == "player" else None
    if refusal is not None:
        raise refusal


def bound_player(grant: Grant, game_id: str) -> str:
    """The player a player token acts as in ``game_id``, or ``403 wrong_game`` (``player_dropped``)."""
    refusal = seat_refusal(grant, game_id)
    if refusal is not None:
        raise refusal
    if grant.player_id is None:
        raise Forbidden(f"this player token is bound to game {grant.game_id!r}", Code.WRONG_GAME)
    return grant.player_id


# -- actions and backups ------------------------------------------------------------------------
def check_command(grant: Grant, game_id: str, command: Command, state: GameState | None = None) -> None:
    """May ``grant`` give ``command`` in game ``game_id``? Without ``state``, what the grant and the
    command alone decide (the API asks before it reads anything); with it, also what the state
    decides, on the very state the command is decided on (``domain.decide.run_as``)."""
    check_game(grant, game_id)
    if grant.role != "player":
        if isinstance(command, Note) and not grant.at_least("judge"):
            raise Forbidden("notes on the record are for judges (role judge or above)", Code.FORBIDDEN)
        return
    me = bound_player(grant, game_id)
    if state is not None:
        if me not in state.players:  # a game at the event's id that isn't the table's
            raise Forbidden(f"game {game_id!r} has no player {me!r}", Code.NOT_YOUR_PLAYER)
        check_player_command(me, command, state)


def check_undo(grant: Grant, game_id: str) -> None:
    """Who may undo: a judge or above (a backup, ``check_backup``), or a player token in its own
    game (a quick undo of its own last action, ``check_quick_undo``); anyone else is
    ``403 forbidden``, a player token of another game ``403 wrong_game``."""
    if grant.role == "player":
        bound_player(grant, game_id)
        return
    require_role(grant, "judge")


def check_quick_undo(grant: Grant, undo: QuickUndo) -> None:
    """A player token's undo: only its own last action (``{"actions": 1}``), and only while it is
    the game's head (nothing recorded after it: no acknowledgement, dispute or judge call, so no
    one has acted on it) and at most ``undo.window`` old. Refused with ``403``
    ``quick_undo_last_action_only``, ``not_your_action``, ``not_the_last_action`` or
    ``quick_undo_expired``, in that order; a judge can still back the game up."""
    if not undo.single:
        raise Forbidden(
            'a player token undoes only its own last action ({"actions": 1}); a judge backs the game up further',
            Code.QUICK_UNDO_LAST_ACTION_ONLY,
        )
    # "Own" is the token, never its name (two players named "Alex" are two actors); only a record
    # and a grant that both lack an id (an export from before ids were recorded) compare names.
    by_player = undo.actor is not None and undo.actor[1] == "player"
    same = (
        undo.actor_token == grant.token_id
        if (undo.actor_token or grant.token_id)
        else undo.actor == (grant.name, "player")
    )
    mine = by_player and same and all(r == grant.player_id for r in undo.reporters)
    if not mine:
        who = f"{undo.actor[0]!r} ({undo.actor[1]})" if undo.actor is not None else "another caller"
        raise Forbidden(
            f"the game's last action (versions {undo.first}..{undo.last}) was recorded by {who}, not by this "
            "player token: a player undoes only its own last action (a judge backs the game up)",
            Code.NOT_YOUR_ACTION,
        )
    if undo.last != undo.head:
        raise Forbidden(
            f"versions {undo.last + 1}..{undo.head} were recorded after this player's action (versions "
            f"{undo.first}..{undo.last}): it was answered or acted on, so a judge backs it up",
            Code.NOT_THE_LAST_ACTION,
        )
    if undo.age is None or undo.age > undo.window:
        when = f"{undo.age.total_seconds():.0f} seconds ago" if undo.age is not None else "at an unknown time"
        raise Forbidden(
            f"this player's action was recorded {when}: a player takes back its own action within "
            f"{undo.window.seconds} seconds; later a judge backs the game up",
            Code.QUICK_UNDO_EXPIRED,
        )


def check_backup(grant: Grant, state: GameState) -> None:
    """At Competitive (or Professional) REL a backup is the head judge's call (docs/judges.md)."""
    if backup_needs_head_judge(state) and not grant.at_least("head_judge"):
        raise Forbidden(
            f"this game is played at {rel(state)} REL: a backup needs the head judge (role head_judge)",
            Code.HEAD_JUDGE_REQUIRED,
        )


def reporter(grant: Grant | None) -> str | None:
    """The player whose report a command is, when a player token sends it (its action may need
    the other players' acknowledgement, ``domain.judging.acknowledgement``)."""
    return grant.player_id if grant is not None and grant.role == "player" else None


# -- the record ---------------------------------------------------------------------------------
def full_verify(grant: Grant, asked: bool | None) -> bool:
    """Whether a verify recomputes the whole chain: judges and admins by default; ``?full=true``
    from a lower role is ``403 forbidden`` (docs/audit.md, Verify)."""
    whole = grant.at_least("judge") if asked is None else asked
    if whole and not grant.at_least("judge"):
        raise Forbidden("a full verify (?full=true) is for judges and admins", Code.FORBIDDEN)
    return whole


def check_player_links(grant: Grant, game_id: str, creator: tuple[str, str, str | None], what: str = "game") -> None:
    """Player links of a game (or an event's links, ``what="event"``) are for the scorekeeper who
    created it (its first event's actor: ``(name, role, token id)``, the token where the record
    has one, so two scorekeepers of one name are two) and for any judge or admin
    (``403 not_game_creator``)."""
    creator_name, creator_role, creator_token = creator
    same = creator_token == grant.token_id if creator_token is not None else creator_name == grant.name
    if grant.at_least("judge") or (same and creator_role == grant.role):
        return
    raise Forbidden(
        f"{what} {game_id!r} was created by {creator_name!r} ({creator_role}); a scorekeeper gets player links "
        f"only for the {what}s it created (a judge or admin for any {what})",
        Code.NOT_GAME_CREATOR,
    )


# -- judging ------------------------------------------------------------------------------------
def judge_caller(grant: Grant, called_by: str | None) -> str:
    """Who calls the judge: a player token calls as its own player (``403 not_your_player``),
    other roles as the name they give, or their own."""
    if grant.role == "player":
        if called_by not in (None, grant.player_id):
            raise Forbidden(f"this token calls as {grant.player_id!r}", Code.NOT_YOUR_PLAYER)
        return str(grant.player_id)
    return called_by or grant.name


def acknowledger(grant: Grant) -> str:
    """Who acknowledges a report: a player token's player, or ``judge`` (judge or above)."""
    if grant.role == "player":
        return str(grant.player_id)
    require_role(grant, "judge")
    return "judge"


def acknowledges_as_judge(grant: Grant) -> bool:
    """Whether an acknowledgement is a judge's (any report) or a player's (their own reports
    only): by the token's role, never by the ``by`` string, which a player's id can equal."""
    return grant.role != "player" and grant.at_least("judge")


def disputer(grant: Grant) -> str:
    """Who disputes a report: only the player it affects, by their player token."""
    if grant.role != "player":
        raise Forbidden("a report is disputed by the player it affects (a judge acknowledges it)", Code.FORBIDDEN)
    return str(grant.player_id)


def match_player(grant: Grant, games: list[str], players: list[str]) -> str:
    """The player a token confirms a match result (or an intentional draw) for: its own, in a
    game of that match; a scorekeeper enters the result instead."""
    if grant.role != "player":
        raise Forbidden("this is the players' to do (a scorekeeper enters the result instead)", Code.FORBIDDEN)
    bound = grant.game_id or ""
    event = bound.removeprefix(TOURNAMENT_BINDING) + "." if bound.startswith(TOURNAMENT_BINDING) else None
    mine = any(g.startswith(event) if event is not None else g == bound for g in games)
    if not mine or grant.player_id not in players:
        raise Forbidden("this player token is for a game of another match", Code.WRONG_GAME)
    return str(grant.player_id)


# -- a player token's commands -------------------------------------------------------------------


def _as_me(me: str, named: str) -> None:
    if named != me:
        raise Forbidden(f"this token acts as {me!r}, not {named!r}", Code.NOT_YOUR_PLAYER)


def _my_permanent(me: str, permanent: str, state: GameState) -> None:
    perm = state.battlefield.get(permanent)
    if perm is not None and perm.controller != me:
        raise Forbidden(f"{permanent!r} is controlled by {perm.controller!r}", Code.NOT_YOUR_PERMANENT)


def _my_commander(me: str, permanent: str, state: GameState) -> None:
    perm = state.battlefield.get(permanent)
    if perm is not None and perm.owner != me:
        raise Forbidden(
            f"{permanent!r} is owned by {perm.owner!r}: its owner chooses (CR 903.9)", Code.NOT_YOUR_PERMANENT
        )


def _my_designation(me: str, command: Designate, state: GameState) -> None:
    if command.player is not None:
        _as_me(me, command.player)
    elif state.day_night is not None:
        raise Forbidden(
            f"it is already {state.day_night}: it changes as each untap step checks the previous turn (CR 731.2); "
            "a report changing it is for judges",
            Code.FORBIDDEN,
        )


def check_player_command(me: str, command: Command, state: GameState) -> None:
    """Refuse ``command`` from the player token of player ``me`` if it isn't theirs to give."""
    match command:
        case Note():
            raise Forbidden("notes on the record are for judges", Code.FORBIDDEN)
        case ChangeLife() | Mill() | Draw() | Proliferate() | Concede() | Cast() | PlayLand() | Activate() | Attack():
            _as_me(me, command.player)
        case Mulligan() | KeepHand():
            _as_me(me, command.player)  # each player decides on their own hand (CR 103.5)
        case ChooseFirstPlayer():
            pass  # a random pick is the server's; a chosen one is the choosing player's to report (CR 103.1)
        case Enter():
            _as_me(me, command.controller)
        case Move(permanent=None, player=str(owner)):
            _as_me(me, owner)
        case Move(permanent=str(perm_id), to="command"):
            _my_commander(me, perm_id, state)
        case Move(permanent=str(perm_id)) | Tap(permanent=perm_id) | Sacrifice(permanent=perm_id):
            _my_permanent(me, perm_id, state)
        case Designate():
            _my_designation(me, command, state)
        case OrderTriggers():
            if state.pending:
                side = state.pending[0].controller
                team = state.players[me].team if me in state.players else None
                if side not in (me, team):
                    raise IllegalAction(
                        f"the triggers waiting are {side!r}'s to order, not {me!r}'s", Code.NOT_YOUR_PRIORITY
                    )
        case Resolve():
            if command.choices != Choices() and state.stack and state.stack[-1].controller != me:
                top = state.stack[-1]
                raise IllegalAction(
                    f"the choices for {top.id} ({top.description}) are {top.controller!r}'s to make",
                    Code.NOT_YOUR_PRIORITY,
                )
        case Advance():
            if me not in state.active_players():
                raise IllegalAction(
                    f"only the active player reports the end of a step; {me!r} is not active", Code.NOT_YOUR_PRIORITY
                )
        case AddCounters() | RemoveCounters() | Damage() | CounterObject():
            pass  # reports, recorded with the token as the actor
        case CallJudge():
            _as_me(me, command.called_by)
        case Acknowledge(as_judge=True):
            raise Forbidden("a player token acknowledges as its own player, not as a judge", Code.FORBIDDEN)
        case Acknowledge() | Dispute():
            _as_me(me, command.by)  # the report's players are checked by the rules (not_your_report)
        case _:
            raise Forbidden(f"a player token may not report {type(command).__name__}", Code.FORBIDDEN)
