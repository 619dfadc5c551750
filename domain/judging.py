"""Judging: calls, rulings, penalties, time extensions, deck checks, and reports that affect an
opponent (docs/judges.md). Pure, like ``domain.decide``.

- Judge records (``domain.events.judging``) are never reverted by a backup; the state a revert
  restores keeps the head's records (``with_judging``).
- A Game Loss, Match Loss or Disqualification ends the game: the penalised player loses
  (``PlayerLost`` with reason ``penalty``), and a backup can't go back past it
  (``penalty_stands``).
- A player token's report that changes an opponent's life, counters, permanents or stack
  objects stands, but is unacknowledged (``acknowledgement``) until that player, or a judge,
  acknowledges it; the player may dispute it instead, which opens a judge call. Only the
  player's own report counts (``reported``): never a turn-based action, a resolution, or the
  consequences the server works out (triggers, state-based actions).
- At Competitive (or Professional) REL a backup is the head judge's (``backup_needs_head_judge``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import reduce
from typing import Any

from domain import events as ev
from domain.builder import Builder
from domain.commands.bodies.text import MAX_STRING
from domain.commands.judging import (
    GAME_ENDING_PENALTIES,
    INFRACTIONS,
    PENALTIES,
    Acknowledge,
    AnswerCall,
    CallJudge,
    CheckDecks,
    Dispute,
    ExtendTime,
    GivePenalty,
    JudgingCommand,
)
from domain.errors import Code, IllegalAction, InvalidCommand, NotFound
from domain.evolve import evolve
from domain.rules.sba import leave_game
from domain.state import GameState, StackObject, replace

#: Rules Enforcement Levels where a backup is the head judge's call (docs/judges.md).
HEAD_JUDGE_RELS = frozenset({"competitive", "professional"})
GAME_LOSS_RULE = "IPG 1.1 (penalty)"
MAX_OPEN_CALLS = 5
"""Most open judge calls one caller may have in one game (``too_many_open_calls``)."""


def rel(state: GameState) -> str:
    """The game's Rules Enforcement Level (``regular`` unless its tournament says otherwise)."""
    value = (state.tournament or {}).get("rel")
    return value if isinstance(value, str) else "regular"


def backup_needs_head_judge(state: GameState) -> bool:
    return rel(state) in HEAD_JUDGE_RELS


def with_judging(restored: GameState, head: GameState) -> GameState:
    """The state a backup restores: the game at its target, the judge records of the head."""
    return replace(restored, judging=head.judging)


def check_no_game_ending_penalty(
    events: Iterable[tuple[int, type[ev.DomainEvent] | None, Mapping[str, Any]]], target: int
) -> None:
    """A game ended by a penalty stays ended: a backup past it is ``penalty_stands``."""
    for version, kind, data in events:
        if version > target and kind is ev.PenaltyGiven and data.get("penalty") in GAME_ENDING_PENALTIES:
            raise IllegalAction(
                f"undo: version {version} is a {data.get('penalty')} for {data.get('player')!r}, which ended the "
                f"game; a backup can't go back past it (choose a version from {version} on)",
                Code.PENALTY_STANDS,
            )


def lost_by_penalty(state: GameState, player: str, reason: object) -> str | None:
    """Why a ``PlayerLost`` by ``GAME_LOSS_RULE`` is not what ``_penalty`` writes (``None``: it
    is): the game's last penalty must be a game-ending one for that player, just given (IPG 1.1,
    2.5, 4.1 ...: Game Loss, Match Loss, Disqualification)."""
    last = state.judging.penalties[-1] if state.judging.penalties else None
    if reason != "penalty" or last is None or last.get("player") != player:
        return f"{player!r} lost by {GAME_LOSS_RULE} without a penalty given to them just before"
    if last.get("penalty") not in GAME_ENDING_PENALTIES:
        return f"{player!r} lost by {GAME_LOSS_RULE}, but their penalty {last.get('penalty')!r} doesn't end the game"
    return None


def _text(name: str, value: str, limit: int = 2000) -> str:
    if not value.strip():
        raise InvalidCommand(f"{name} must not be blank", Code.MISSING_FIELD)
    if len(value) > limit:
        raise InvalidCommand(f"{name} must be at most {limit} characters, got {len(value)}", Code.INVALID_FIELD)
    return value


def _room_for_a_call(state: GameState, called_by: str) -> None:
    """At most ``MAX_OPEN_CALLS`` open calls by one caller: each call is in every answer of the
    game's state, so a player's flood of calls made every read of the game long (2.2 KB to 270
    KB after 1,000); a judge answers one before another is made."""
    mine = [c.get("call") for c in state.judging.calls if c.get("open", True) and c.get("called_by") == called_by]
    if len(mine) >= MAX_OPEN_CALLS:
        raise IllegalAction(
            f"{called_by!r} has {len(mine)} open judge calls ({', '.join(map(str, mine))}), the most allowed; "
            "a judge answers one before another is made",
            Code.TOO_MANY_OPEN_CALLS,
        )


def _call(state: GameState, call: str) -> Mapping[str, Any]:
    found = next((c for c in state.judging.calls if c.get("call") == call), None)
    if found is None:
        known = [c.get("call") for c in state.judging.calls]
        raise NotFound(f"there is no judge call {call!r} in this game (calls: {known})", Code.UNKNOWN_CALL)
    return found


def _report(state: GameState, report: str) -> Mapping[str, Any]:
    found = next((r for r in state.reports if r.get("report") == report), None)
    if found is None:
        known = [r.get("report") for r in state.reports]
        raise NotFound(f"there is no unacknowledged report {report!r} (unacknowledged: {known})", Code.UNKNOWN_REPORT)
    return found


def _table(state: GameState) -> int | None:
    table = (state.tournament or {}).get("table")
    return table if isinstance(table, int) and not isinstance(table, bool) else None


def decide_judging(b: Builder, cmd: JudgingCommand) -> None:
    """The events of one judging command (``domain.decide`` dispatches here)."""
    state = b.state
    match cmd:
        case CallJudge():
            _room_for_a_call(state, cmd.called_by)
            call = f"call-{len(state.judging.calls) + 1}"
            b.emit(
                ev.JudgeCallOpened(
                    call=call, called_by=cmd.called_by, question=_text("question", cmd.question), table=_table(state)
                ),
                "IPG 1 (judge call)",
            )
        case AnswerCall():
            found = _call(state, cmd.call)
            if not found.get("open", True):
                raise IllegalAction(f"judge call {cmd.call!r} was answered already", Code.CALL_CLOSED)
            b.emit(ev.JudgeCallAnswered(call=cmd.call, ruling=_text("ruling", cmd.ruling, 10_000)))
        case GivePenalty():
            _penalty(b, cmd)
        case ExtendTime():
            if not 1 <= cmd.minutes <= 60:
                raise InvalidCommand(f"minutes must be 1-60, got {cmd.minutes}", Code.INVALID_AMOUNT)
            if cmd.call is not None:
                _call(state, cmd.call)
            b.emit(ev.TimeExtended(minutes=cmd.minutes, reason=_text("reason", cmd.reason), call=cmd.call))
        case CheckDecks():
            if not cmd.players:
                raise InvalidCommand("a deck check names at least one player", Code.MISSING_FIELD)
            for player in cmd.players:
                _player(state, player)
            b.emit(ev.DeckChecked(players=list(cmd.players), result=_text("result", cmd.result)))
        case Acknowledge():
            report = _report(state, cmd.report)
            if not cmd.as_judge and cmd.by not in report.get("players", ()):
                raise IllegalAction(
                    f"report {cmd.report!r} is for {report.get('players')} to acknowledge, not {cmd.by!r}",
                    Code.NOT_YOUR_REPORT,
                )
            b.emit(ev.ReportAcknowledged(report=cmd.report, by=cmd.by))
        case Dispute():
            report = _report(state, cmd.report)
            if cmd.by not in report.get("players", ()):
                raise IllegalAction(
                    f"report {cmd.report!r} is for {report.get('players')} to dispute, not {cmd.by!r}",
                    Code.NOT_YOUR_REPORT,
                )
            if report.get("disputed"):
                raise IllegalAction(f"report {cmd.report!r} is disputed already ({report['disputed']})", Code.DISPUTED)
            reason = _text("reason", cmd.reason)
            b.emit(ev.ReportDisputed(report=cmd.report, by=cmd.by, reason=reason))
            call = f"call-{len(b.state.judging.calls) + 1}"
            question = f"{cmd.by} disputes {cmd.report} ({report.get('summary')}): {reason}"
            b.emit(
                ev.JudgeCallOpened(
                    call=call, called_by=cmd.by, question=question[:2000], table=_table(state), report=cmd.report
                ),
                "IPG 1 (judge call)",
            )


def _player(state: GameState, player: str) -> None:
    if player not in state.players:
        raise NotFound(f"there is no player {player!r} in this game", Code.UNKNOWN_PLAYER)


def _penalty(b: Builder, cmd: GivePenalty) -> None:
    state = b.state
    _player(state, cmd.player)
    name = INFRACTIONS.get(cmd.section)
    if name is None:
        raise InvalidCommand(
            f"section {cmd.section!r} is not an infraction of the IPG; known: {sorted(INFRACTIONS)}",
            Code.UNKNOWN_INFRACTION,
        )
    if cmd.penalty not in PENALTIES:
        raise InvalidCommand(f"penalty must be one of {list(PENALTIES)}, got {cmd.penalty!r}", Code.INVALID_PENALTY)
    if cmd.call is not None:
        _call(state, cmd.call)
    b.emit(
        ev.PenaltyGiven(
            player=cmd.player,
            section=cmd.section,
            infraction=name,
            penalty=cmd.penalty,
            reason=cmd.reason,
            call=cmd.call,
        ),
        f"IPG {cmd.section}",
    )
    if cmd.penalty in GAME_ENDING_PENALTIES and state.status == "in_progress" and not state.players[cmd.player].lost:
        b.emit(ev.PlayerLost(player=cmd.player, rule=GAME_LOSS_RULE, reason="penalty"), f"IPG {cmd.section}")
        leave_game(b, cmd.player)


def ends_game(cmd: JudgingCommand, state: GameState) -> bool:
    """Whether the command must be settled (a penalty that ends the game runs the SBA check
    that ends it, CR 104.2a)."""
    return isinstance(cmd, GivePenalty) and cmd.penalty in GAME_ENDING_PENALTIES and state.status == "in_progress"


# -- reports that affect an opponent ------------------------------------------------------------
#: Events the server makes by itself, never a player's report: the turn-based actions of the
#: start and end of steps (CR 500.1, 106.4, 502.3, 504.1) and what it does each time a player
#: would receive priority (CR 117.5): triggered abilities put on the stack or waiting for their
#: order (CR 603.3, 603.3b), a team's loss and the end of the game (CR 704.6, 104.2a, 104.4a).
TURN_BASED: frozenset[type[ev.DomainEvent]] = frozenset({ev.StepBegan, ev.TurnBegan, ev.ManaPoolEmptied})
AUTOMATIC_EVENTS = TURN_BASED | {ev.TriggerPutOnStack, ev.TriggersPending, ev.TeamLost, ev.GameEnded}
#: Rules whose events the server performs by itself: state-based actions (CR 704, the deathtouch
#: kill of 704.5h included) and a player leaving a multiplayer game (CR 800.4a).
AUTOMATIC_RULES = ("CR 704.", "CR 800.4a")


def _automatic(event: ev.Event) -> bool:
    rule = event.rule or ""
    return type(event.payload) in AUTOMATIC_EVENTS or rule.startswith(AUTOMATIC_RULES)


def _resolution(event: ev.Event) -> bool:
    """The top of the stack resolving (CR 608.2; with every target illegal, 608.2b)."""
    e = event.payload
    return isinstance(e, ev.StackObjectResolved) or (
        isinstance(e, ev.StackObjectCountered) and event.rule == "CR 608.2b"
    )


def reported(events: Sequence[ev.Event]) -> list[ev.Event]:
    """The part of one action's events that is its player's own report (docs/judges.md), told
    from the events alone so that an import (``ledger.import_rules``) reads the record as written.
    A resolution reports nothing: every player passed (CR 117.4, 608.1) and its effects are the
    server's (608.2). Otherwise the report ends at the first event the server makes by itself
    (an advance and an ordering of triggers start with one; state-based actions and triggers
    follow a report, ``domain.rules.stack.settle``)."""
    if any(_resolution(e) for e in events):
        return []
    for i, event in enumerate(events):
        if _automatic(event):
            return list(events[:i])
    return list(events)


def _opponents(state: GameState, reporter: str) -> list[str]:
    """The reporter's opponents: every other player, but a teammate in a team game (CR 102.2,
    102.3; in Two-Headed Giant one's own life loss is the team's, CR 810.9)."""
    team = state.players[reporter].team if reporter in state.players and state.shared_turns else None
    return [pid for pid, p in state.players.items() if pid != reporter and (team is None or p.team != team)]


def _seen_by(state: GameState, player: str) -> dict[str, Any]:
    """What of ``state`` belongs to ``player``: what a report must not change unannounced."""
    p = state.players[player]
    return {
        "life": state.life_of(player),
        "counters": state.counters_of_player(player),
        "lost": p.lost,
        "permanents": {
            pid: (perm.to_json(), perm.damage) for pid, perm in state.battlefield.items() if perm.controller == player
        },
        "stack": {o.id: o.to_json() for o in state.stack if o.controller == player},
    }


def player_name(state: GameState, player: str) -> str:
    """A player as people call them: their name, or their id when they have no other."""
    p = state.players.get(player)
    return p.name if p is not None and p.name.strip() else player


def _with_names(text: str, state: GameState) -> str:
    """A server-written description (``"P1 casts Shock"``) with its player ids as names."""
    names = {pid: player_name(state, pid) for pid in state.players}
    ids = "|".join(re.escape(pid) for pid in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])(?:{ids})(?![\w-])", lambda m: names[m.group(0)], text) if ids else text


def _object_name(obj: StackObject, state: GameState) -> str:
    """A stack object by its card: a spell by its name, an ability by its source's; one without
    a card (the rad trigger) by its description up to its first colon."""
    if obj.card is not None:
        return obj.card.name if obj.kind == "spell" else f"{obj.card.name} {obj.kind}"
    return _with_names(obj.description.split(":")[0], state)


def _listed(names: Iterable[str]) -> str:
    """Names in order, each once, with how many when more than one: ``Ornithopter (2), Throne of Geth``."""
    return ", ".join(name if n == 1 else f"{name} ({n})" for name, n in sorted(Counter(names).items()))


def _changed(was: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    return sorted(k for k in {*was, *now} if was.get(k) != now.get(k))


def _changes(before: GameState, after: GameState, player: str) -> list[str]:
    """What changed of ``player``'s side, by name."""
    was, now = _seen_by(before, player), _seen_by(after, player)
    out = [f"life {was['life']} -> {now['life']}"] if was["life"] != now["life"] else []
    for kind in _changed(was["counters"], now["counters"]):
        out.append(f"{kind} counters {was['counters'].get(kind, 0)} -> {now['counters'].get(kind, 0)}")
    if was["lost"] != now["lost"]:
        out.append("lost the game")
    if permanents := _changed(was["permanents"], now["permanents"]):
        cards = [(after.battlefield.get(pid) or before.battlefield[pid]).card.name for pid in permanents]
        out.append(f"permanents {_listed(cards)}")
    if objects := _changed(was["stack"], now["stack"]):
        by_id = {o.id: o for o in (*before.stack, *after.stack)}
        out.append(f"stack objects {_listed(_object_name(by_id[i], after) for i in objects)}")
    return out


def _shortened(summary: str) -> str:
    """A summary within the one limit of a stored string (``MAX_STRING``), which an import
    checks too: a proliferate over hundreds of permanents names them all otherwise."""
    if len(summary) <= MAX_STRING:
        return summary
    cut = summary[: MAX_STRING - 40]
    return f"{cut}… ({len(summary) - len(cut)} more characters)"


def reported_state(before: GameState, events: Sequence[ev.Event], after: GameState) -> GameState | None:
    """The state once the report part of an action (``reported``) has happened, from ``before``
    (``after``: the state after all of ``events``); ``None`` when the action reports nothing."""
    part = reported(events)
    if not part:
        return None
    return after if len(part) == len(events) else reduce(evolve, part, before)


def side_changed(before: GameState, after: GameState, player: str) -> bool:
    """Whether ``player``'s side (``_seen_by``) differs between the two states."""
    return _seen_by(before, player) != _seen_by(after, player)


def waiting_for(before: GameState, reported_at: GameState, reporter: str) -> list[str]:
    """The opponents of ``reporter`` whose side a report changed, from ``before`` to the state
    the report left (``reported_state``): who must acknowledge it."""
    return [p for p in _opponents(before, reporter) if side_changed(before, reported_at, p)]


def acknowledgement(before: GameState, events: Sequence[ev.Event], after: GameState, reporter: str) -> ev.Event | None:
    """The ``ReportAwaitingAcknowledgement`` the action of ``events`` (from ``before`` to
    ``after``) needs when ``reporter``'s player token made it, or ``None``: its report
    (``reported``) changed nothing of an opponent's (their life, counters, permanents, stack
    objects, or that they lost). The summary names players and cards by name."""
    at = reported_state(before, events, after)
    if at is None:
        return None
    affected = waiting_for(before, at, reporter)
    if not affected:
        return None
    summary = [f"{player_name(before, p)}: {'; '.join(_changes(before, at, p))}" for p in affected]
    report = ev.ReportAwaitingAcknowledgement(
        report=f"report-{after.next_seq}", reporter=reporter, players=affected, summary=_shortened(" | ".join(summary))
    )
    return ev.Event(report)
