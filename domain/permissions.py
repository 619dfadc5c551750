"""What a player token may ask for (docs/api.md, Authentication and roles): its own decisions, as its own player.

``check_player_command`` dispatches on the command's type, so a new command is refused or allowed
here on purpose rather than by a string that happens to match. Judges, scorekeepers and admins are
not limited by it; that the token is bound to this game is checked by the API before.

- a note on the record is for judges (``403 forbidden``);
- a command that names a player (life, mill, draw, proliferate, cast, play a land, activate,
  attack, concede) must name the token's own player, and ``enter`` must put the permanent under
  its control (``403 not_your_player``);
- tapping, untapping, moving or sacrificing a permanent needs it to be the player's own
  (``403 not_your_permanent``); for ``activate`` the rules check control (``not_controller``);
  a commander goes to the command zone by its owner's choice (CR 903.9), so moving one there
  needs the token's player to own it, whoever controls it;
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
the token as the actor, for a judge to review. A command type this function doesn't name is
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
    Command,
    Concede,
    CounterObject,
    Damage,
    Designate,
    Draw,
    Enter,
    Mill,
    Move,
    Note,
    OrderTriggers,
    PlayLand,
    Proliferate,
    RemoveCounters,
    Resolve,
    Sacrifice,
    Tap,
)
from domain.errors import Forbidden, IllegalAction
from domain.state import GameState


def _as_me(me: str, named: str) -> None:
    if named != me:
        raise Forbidden(f"this token acts as {me!r}, not {named!r}", "not_your_player")


def _my_permanent(me: str, permanent: str, state: GameState) -> None:
    perm = state.battlefield.get(permanent)
    if perm is not None and perm.controller != me:
        raise Forbidden(f"{permanent!r} is controlled by {perm.controller!r}", "not_your_permanent")


def _my_commander(me: str, permanent: str, state: GameState) -> None:
    perm = state.battlefield.get(permanent)
    if perm is not None and perm.owner != me:
        raise Forbidden(f"{permanent!r} is owned by {perm.owner!r}: its owner chooses (CR 903.9)", "not_your_permanent")


def _my_designation(me: str, command: Designate, state: GameState) -> None:
    if command.player is not None:
        _as_me(me, command.player)
    elif state.day_night is not None:
        raise Forbidden(
            f"it is already {state.day_night}: it changes as each untap step checks the previous turn (CR 731.2); "
            "a report changing it is for judges",
            "forbidden",
        )


def check_player_command(me: str, command: Command, state: GameState) -> None:
    """Refuse ``command`` from the player token of player ``me`` if it isn't theirs to give."""
    match command:
        case Note():
            raise Forbidden("notes on the record are for judges", "forbidden")
        case ChangeLife() | Mill() | Draw() | Proliferate() | Concede() | Cast() | PlayLand() | Activate() | Attack():
            _as_me(me, command.player)
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
                        f"the triggers waiting are {side!r}'s to order, not {me!r}'s", "not_your_priority"
                    )
        case Resolve():
            if command.choices != Choices() and state.stack and state.stack[-1].controller != me:
                top = state.stack[-1]
                raise IllegalAction(
                    f"the choices for {top.id} ({top.description}) are {top.controller!r}'s to make",
                    "not_your_priority",
                )
        case Advance():
            if me not in state.active_players():
                raise IllegalAction(
                    f"only the active player reports the end of a step; {me!r} is not active", "not_your_priority"
                )
        case AddCounters() | RemoveCounters() | Damage() | CounterObject():
            pass  # reports, recorded with the token as the actor
        case _:
            raise Forbidden(f"a player token may not report {type(command).__name__}", "forbidden")
