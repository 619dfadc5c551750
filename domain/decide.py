"""``decide(state, command) -> events``: the pure decision of what a command causes.

Small named checks come first, so a refused command raises before anything is emitted and
stores nothing. Every command ends where a player would receive priority: state-based actions,
then waiting triggers (``settle``). ``run_as`` is the decision for a caller: what it may ask
(``domain.permissions``) is checked first, on the same state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain import commands as c
from domain import events as ev
from domain.builder import Builder
from domain.cards import library  # noqa: F401  (builds the card registry, once)
from domain.commands import judging as j
from domain.errors import Code, IllegalAction, InvalidCommand
from domain.evolve import evolve
from domain.judging import acknowledgement, decide_judging, ends_game
from domain.permissions import Grant, check_command, reporter
from domain.rules import lookup
from domain.rules.activate import activate
from domain.rules.combat import declare_attackers, report_damage
from domain.rules.commander import move_to_command
from domain.rules.counters import add_counters, remove_counters
from domain.rules.designations import designate
from domain.rules.life import gain_life, lose_life, pay_life
from domain.rules.opening import choose_first_player, keep_hand, mulligan
from domain.rules.proliferate import proliferate
from domain.rules.sba import leave_game
from domain.rules.spells import cast, play_land
from domain.rules.stack import counter, order_triggers, resolve_top, settle
from domain.rules.triggers import detect_triggers
from domain.rules.turns import advance
from domain.rules.zones import (
    draw,
    enter_battlefield,
    enters_with_counters,
    leave_battlefield,
    mill,
    slug,
)
from domain.state import GameState, Permanent

#: Commands of judges and of players answering reports (``domain.judging``).
JUDGING = (j.CallJudge, j.AnswerCall, j.GivePenalty, j.ExtendTime, j.CheckDecks, j.Acknowledge, j.Dispute)


#: Commands allowed after the game ended (judges may still annotate the record).
ALLOWED_WHEN_FINISHED = (c.Note, *JUDGING)
ALLOWED_WHILE_ORDERING = (c.OrderTriggers, c.Note, c.Concede, *JUDGING)


def _cause(source: str | None) -> str:
    return source or "manual"


def _guard(state: GameState, command: c.Command) -> None:
    if state.status == "finished" and not isinstance(command, ALLOWED_WHEN_FINISHED):
        raise IllegalAction("the game is over: only notes can be added", Code.GAME_OVER)
    if state.pending and not isinstance(command, ALLOWED_WHILE_ORDERING):
        group = state.pending[0]
        raise IllegalAction(
            f"{group.controller!r} must first order their triggers {[t.id for t in group.triggers]} "
            "with order_triggers (CR 603.3b)",
            Code.TRIGGERS_PENDING,
        )


def _add_counters(b: Builder, cmd: c.AddCounters) -> None:
    lookup.target_exists(b.state, cmd.target)
    if "player" in cmd.target:
        lookup.player_in_game(b.state, cmd.target["player"])
    add_counters(b, cmd.target, cmd.kind, cmd.amount, _cause(cmd.source))


def _remove_counters(b: Builder, cmd: c.RemoveCounters) -> None:
    lookup.target_exists(b.state, cmd.target)
    remove_counters(b, cmd.target, cmd.kind, cmd.amount, _cause(cmd.source), up_to=cmd.up_to)


def _life(b: Builder, cmd: c.ChangeLife) -> None:
    lookup.player_in_game(b.state, cmd.player)
    if cmd.how == "lose_life":
        lose_life(b, cmd.player, cmd.amount, _cause(cmd.source), "CR 119.3")
    elif cmd.how == "gain_life":
        gain_life(b, cmd.player, cmd.amount, _cause(cmd.source), "CR 119.3")
    else:
        pay_life(b, cmd.player, cmd.amount, _cause(cmd.source))


def _damage(b: Builder, cmd: c.Damage) -> None:
    if "player" in cmd.target:
        lookup.player_in_game(b.state, cmd.target["player"])  # not to a player who left (800.4a, 800.4e)
    report_damage(b, cmd)


def _mill(b: Builder, cmd: c.Mill) -> None:
    lookup.player_in_game(b.state, cmd.player)
    mill(b, cmd.player, cmd.count, _cause(cmd.source), cmd.cards, nonland_count=cmd.nonland_count)


def _draw(b: Builder, cmd: c.Draw) -> None:
    """A draw goes to a hidden hand (CR 400.2, 121.1): from an unknown library it moves unknown
    cards, unnamed, as the draw step does; ``cards`` may name them (checked against the known top)."""
    lookup.player_in_game(b.state, cmd.player)
    draw(b, cmd.player, cmd.count, _cause(cmd.source), cmd.cards)


def _move(b: Builder, cmd: c.Move) -> None:
    if cmd.to == "command":
        move_to_command(b, cmd)  # 903.9
        return
    assert cmd.permanent is not None  # the body names a permanent unless it moves a card to the command zone
    lookup.permanent(b.state, cmd.permanent)
    leave_battlefield(b, cmd.permanent, cmd.to, "moved", "CR 400.7")


def _sacrifice(b: Builder, cmd: c.Sacrifice) -> None:
    lookup.permanent(b.state, cmd.permanent)
    leave_battlefield(b, cmd.permanent, "graveyard", "sacrifice", "CR 701.21a")


def _tap(b: Builder, cmd: c.Tap) -> None:
    perm = lookup.permanent(b.state, cmd.permanent)
    if cmd.untap:
        if not perm.tapped:
            raise IllegalAction(f"{perm.id!r} ({perm.card.name}) is already untapped", Code.ALREADY_UNTAPPED)
        b.emit(ev.PermanentUntapped(permanent=perm.id, cause="manual"), "CR 701.26b")
    else:
        if perm.tapped:
            raise IllegalAction(f"{perm.id!r} ({perm.card.name}) is already tapped", Code.ALREADY_TAPPED)
        b.emit(ev.PermanentTapped(permanent=perm.id, cause="manual"), "CR 701.26a")


def _enter(b: Builder, cmd: c.Enter) -> None:
    lookup.player_in_game(b.state, cmd.controller)
    seq = b.next_seq()
    perm_id = cmd.id or f"{slug(cmd.card.name)}-{seq}"
    if perm_id in b.state.battlefield:
        raise InvalidCommand(f"a permanent {perm_id!r} is already on the battlefield", Code.DUPLICATE_ID)
    perm = Permanent(
        id=perm_id,
        card=cmd.card,
        owner=cmd.controller,
        controller=cmd.controller,
        tapped=cmd.tapped,
        counters=enters_with_counters(b, cmd.card, cmd.controller, cmd.counters, cmd.x),
        controlled_since_turn_began=False,
        token=cmd.token,
    )
    enter_battlefield(b, perm, seq=seq, rule="CR 614.1c" if perm.counters else None)


def _concede(b: Builder, cmd: c.Concede) -> None:
    """A player may concede at any time (104.3a); in a game that goes on they leave it (800.4a)."""
    lookup.player_in_game(b.state, cmd.player)
    b.emit(ev.PlayerLost(player=cmd.player, rule="CR 104.3a", reason="conceded"), "CR 104.3a")
    leave_game(b, cmd.player)


def _note(b: Builder, cmd: c.Note) -> None:
    b.emit(ev.NoteAdded(text=cmd.text))


_HANDLERS: dict[type[Any], Callable[[Builder, Any], None]] = {
    c.Advance: lambda b, cmd: advance(b, cmd.to),
    c.Resolve: lambda b, cmd: resolve_top(b, cmd.choices),
    c.OrderTriggers: lambda b, cmd: order_triggers(b, cmd.resolve_first),
    c.AddCounters: _add_counters,
    c.RemoveCounters: _remove_counters,
    c.ChangeLife: _life,
    c.Damage: _damage,
    c.Mill: _mill,
    c.Draw: _draw,
    c.Proliferate: lambda b, cmd: proliferate(b, cmd.player, cmd.choose, _cause(cmd.source)),
    c.Move: _move,
    c.Sacrifice: _sacrifice,
    c.Tap: _tap,
    c.Enter: _enter,
    c.Concede: _concede,
    c.Note: _note,
    c.CounterObject: lambda b, cmd: counter(b, cmd.object_id, _cause(cmd.source)),
    c.Cast: cast,
    c.PlayLand: play_land,
    c.Activate: activate,
    c.Attack: declare_attackers,
    c.Designate: designate,
    c.ChooseFirstPlayer: choose_first_player,
    c.Mulligan: lambda b, cmd: mulligan(b, cmd.player),
    c.KeepHand: lambda b, cmd: keep_hand(b, cmd.player, cmd.bottom),
    **{kind: decide_judging for kind in JUDGING},
}
#: Commands whose handler already ends with ``settle`` (it must run once, at the end).
_SETTLES_ITSELF = (c.Advance, c.Resolve, c.OrderTriggers, c.Cast, c.PlayLand, c.Activate, c.CounterObject)


def decide(state: GameState, command: c.Command) -> list[ev.Event]:
    """The events ``command`` causes in ``state``; raises a ``GameError`` and emits nothing if
    it is malformed or illegal."""
    return run(state, command)[0]


def run(state: GameState, command: c.Command) -> tuple[list[ev.Event], GameState]:
    """``decide`` and the state after its events (what the Builder already folded)."""
    _guard(state, command)
    b = Builder(state, detect_triggers)
    choices = command.choices if isinstance(command, c.Resolve) else None
    b.replacement_order = getattr(choices or command, "replacement_order", ())
    _HANDLERS[type(command)](b, command)
    if isinstance(command, JUDGING):
        if ends_game(command, state):
            settle(b)
    elif not isinstance(command, _SETTLES_ITSELF) and not isinstance(command, c.Note):
        settle(b)
    return b.events, b.state


def run_as(grant: Grant | None, state: GameState, command: c.Command) -> tuple[list[ev.Event], GameState]:
    """``run`` for the caller ``grant`` (``None``: a caller the ledger trusts, e.g. the CLI).

    The permission check (``domain.permissions.check_command``) reads the very state the command
    is decided on. A player token's report that changes an opponent's side (their life,
    counters, permanents, stack objects) stands, but waits for that player's acknowledgement
    (``domain.judging.acknowledgement``): read from the events, as an import reads them, so
    that turn-based actions, resolutions and the consequences the server works out never wait."""
    if grant is not None:
        check_command(grant, state.game_id, command, state)
    events, after = run(state, command)
    player = reporter(grant)
    if player is not None and not isinstance(command, JUDGING):
        pending = acknowledgement(state, events, after, player)
        if pending is not None:
            events, after = [*events, pending], evolve(after, pending)
    return events, after
