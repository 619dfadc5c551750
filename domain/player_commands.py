"""What a player token may ask for in its own game (``check_player_command``), as its own player;
``domain.permissions`` asks it on the state the command is decided on (see that module's docstring
for the rules, one by one)."""

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
from domain.state import GameState

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
