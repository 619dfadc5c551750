"""The rules each record and each action of an imported game must meet (``ledger.export_checks``
checks a file with them; the numbers are those of its module docstring).

- 3: each action is one run of consecutive records (``check_action``);
- 4: the creation is what the creation rules give again for the game it describes
  (``recheck_setup``), an undo reverts what it says and restores the replayed state
  (``check_revert``), and an action ends settled (``check_action_end``);
- 6: each record is one the live server could have written (``check_as_written``).

Each raises ``ValueError`` with the reason; the file check names the line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from domain import events as ev
from domain.audit import check_settled
from domain.cards.model import Card
from domain.commands.bodies.text import MAX_NAME, OLD_EVENT_LINK_NAME, check_string, check_value
from domain.errors import Code, GameError, IllegalAction
from domain.judging import (
    acknowledgement,
    backup_needs_head_judge,
    rel,
    reported_state,
    side_changed,
    waiting_for,
    with_judging,
)
from domain.permissions import Grant, check_quick_undo
from domain.serialize import state_to_json
from domain.setup import game_started
from domain.state import GameState
from domain.undo import Entry, Undo, check_action_boundary, quick_undo_facts
from store.aggregate import Game
from store.canonical_json import canonical
from store.records import GameEvent

ACTOR_ROLES = frozenset({"admin", "head_judge", "judge", "scorekeeper", "player"})
"""Roles that record events (a spectator only reads)."""
JUDGE_ROLES = frozenset({"admin", "head_judge", "judge"})
"""Roles that write notes and undo (docs/api.md, Authentication and roles)."""
JUDGE_ONLY: frozenset[type[ev.DomainEvent]] = frozenset(
    {ev.NoteAdded, ev.ActionsReverted, ev.JudgeCallAnswered, ev.PenaltyGiven, ev.TimeExtended, ev.DeckChecked}
)
"""Events only a judge (or an admin) records."""
HEAD_JUDGE_ROLES = frozenset({"admin", "head_judge"})
"""Roles that back a game up at Competitive REL (``domain.permissions.check_backup``)."""
CREATOR_ROLES = frozenset({"admin", "head_judge", "judge", "scorekeeper"})
CLOCK_SKEW = timedelta(minutes=5)
"""How far past the importing server's clock an event's ``recorded_at`` may be."""


def _setup_resolver(ref: Any) -> Card:
    """Cards in a stored ``GameStarted`` are resolved card objects; re-read them as they are,
    never merged with today's catalog (which may have changed since)."""
    if isinstance(ref, Mapping):
        return Card.from_json(ref)
    raise IllegalAction(f"a stored card must be an object, got {ref!r}", Code.INVALID_IMPORT)


def create_body(data: Mapping[str, Any]) -> dict[str, Any]:
    """The create body a ``GameStarted`` event's data describes (the inverse of ``game_started``)."""
    players = [
        {
            "id": p["id"],
            "name": p["name"],
            "team": p.get("team"),
            "life": p["life"],
            "counters": p.get("counters") or {},
            "library": p.get("library") or [],
            "library_size": len(p.get("library") or []) + int(p.get("library_unknown") or 0),
            "hand": p.get("hand") or [],
            "hand_size": len(p.get("hand") or []) + int(p.get("hand_unknown") or 0),
            "graveyard": p.get("graveyard") or [],
            "exile": p.get("exile") or [],
            **({"commanders": p["commanders"]} if "commanders" in p else {}),
        }
        for p in data["players"]
    ]
    if data["variant"] == "two_headed_giant":
        for player in players:
            del player["life"]  # 810.9: life is the team's; a player's own is the default
    teams = {
        tid: {k: v for k, v in (("life", t.get("life")), ("counters", t.get("counters"))) if v is not None}
        for tid, t in (data.get("teams") or {}).items()
    }
    battlefield = [
        {
            "id": b["id"],
            "card": b["card"],
            "controller": b["controller"],
            "owner": b["owner"],
            "tapped": b.get("tapped", False),
            "counters": b.get("counters") or {},
            "entered_this_turn": not b.get("controlled_since_turn_began", True),
            "token": b.get("token", False),
        }
        for b in data.get("battlefield") or []
    ]
    turn = data["turn"]
    return {
        "variant": data["variant"],
        "rules_edition": data["rules_edition"],
        "tournament": data.get("tournament"),
        "players": players,
        "teams": teams,
        "battlefield": battlefield,
        "turn": {"number": turn["number"], "active_player": turn["active_player"], "step": turn["step"]},
        # The kinds were accepted when the game was created; the replay checks the rules, not them.
        "custom_kind": True,
    }


def recheck_setup(event: GameEvent) -> None:
    """Run the creation rules again on the body the event describes; they must agree."""
    again = game_started(create_body(event.data), event.originator_id, _setup_resolver)
    if canonical(again.data) != canonical(event.data) or again.rule != event.rule:
        raise ValueError("GameStarted does not match what the creation rules give for the game it describes")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def check_as_written(event: GameEvent, previous: GameEvent | None, now: datetime) -> None:
    """What the live server would have written (see the module docstring, 6); ``ValueError``."""
    role = event.actor["role"]
    if role not in ACTOR_ROLES:
        raise ValueError(f"actor role {role!r} is not one that records events ({sorted(ACTOR_ROLES)})")
    kind = event.event_class
    if kind in JUDGE_ONLY and role not in JUDGE_ROLES and not (kind is ev.ActionsReverted and role == "player"):
        raise ValueError(f"a {event.type} is recorded by a judge or an admin, not by a {role}")
    if kind is ev.GameStarted and role not in CREATOR_ROLES:
        raise ValueError(f"a game is created by a scorekeeper or above, not by a {role}")
    # What older servers wrote must import (issue 40): a player token's name may be an uncut
    # event-link name, and names (a player's, the token's) may hold the C1 controls a roster
    # file let in.
    old_link = role == "player"
    check_string(event.actor["name"], "actor.name", OLD_EVENT_LINK_NAME if old_link else MAX_NAME, old_name=old_link)
    if event.rule is not None:
        check_string(event.rule, "rule", MAX_NAME)
    try:
        if len(event.action_id) != 36 or str(UUID(event.action_id)) != event.action_id:
            raise ValueError
    except ValueError:
        raise ValueError(f"action_id must be a UUID as the server writes it, got {event.action_id[:40]!r}") from None
    at = _time(event.recorded_at)
    if at > now + CLOCK_SKEW:
        raise ValueError(f"recorded_at {event.recorded_at!r} is in the future")
    if previous is not None:
        if previous.action_id == event.action_id and previous.recorded_at != event.recorded_at:
            raise ValueError("the events of one action share one recorded_at")
        if at < _time(previous.recorded_at):
            raise ValueError(f"recorded_at {event.recorded_at!r} is before the previous event's")
    try:
        check_value(event.data, "data", lists=False, old_names=True)
    except GameError as err:
        raise ValueError(err.message) from None


def check_by_its_actor(event: GameEvent, state: GameState) -> None:
    """What the record's actor could have written on ``state`` (the state before it): the rules
    the live server decides by the token's role (``domain.permissions``), which a file names in
    ``actor.role``. A player's acknowledgement or dispute is of a report naming them (never as
    ``judge``), and at Competitive REL an undo is the head judge's (or an admin's), or a player's
    quick undo of its own last action (checked with the revert, ``check_revert``)."""
    role = event.actor["role"]
    kind = event.event_class
    if kind in (ev.ReportAcknowledged, ev.ReportDisputed):
        by = event.data.get("by")
        report = next((r for r in state.reports if r.get("report") == event.data.get("report")), None)
        players = report.get("players", ()) if report is not None else ()
        if by not in players and (role not in JUDGE_ROLES or by != "judge" or kind is ev.ReportDisputed):
            raise ValueError(f"a {role} can't answer a report as {by!r}: it is for {list(players)} (or a judge)")
    if kind is ev.ActionsReverted and backup_needs_head_judge(state) and role not in {*HEAD_JUDGE_ROLES, "player"}:
        raise ValueError(f"this game is played at {rel(state)} REL: a backup is the head judge's, not a {role}'s")


class PlayerActors:
    """Which player each player token acted as, and what its unreported actions changed: a
    player token's action that changed another player's side carries the report awaiting their
    acknowledgement (``domain.judging.acknowledgement``), exactly as the live server writes it.

    A record names its actor by the token's name and role, not by the player it acts as, so the
    player is learned from what the token's actions say of it: the ``reporter`` of its reports,
    the ``called_by`` of its judge calls, the ``by`` of its answers. An action without a report
    may change one player's side only, that token's own player's; two tokens of one name acting
    as different players leave the name's player unknown (then only "one player" is checked)."""

    def __init__(self) -> None:
        self._players: dict[str, set[str]] = {}
        self._unreported: list[tuple[str, str, int, int]] = []  # name, player, line, version

    def player_of(self, name: str) -> str | None:
        known = self._players.get(name, set())
        return next(iter(known)) if len(known) == 1 else None

    def observe(self, action: Sequence[GameEvent], before: GameState, after: GameState, line: int) -> None:
        """Check one action that ended on ``line`` (``ValueError``)."""
        first = action[0]
        if first.actor["role"] != "player":
            return
        name = first.actor["name"]
        for event in action:
            said = _player_said(event)
            if said is not None and said in before.players:
                self._players.setdefault(name, set()).add(said)
        if all(e.event_class in NOT_GAME_ACTIONS for e in action) or first.event_class in SOLE_EVENTS:
            return  # a player's quick undo is checked with the revert (``check_revert``)
        events = [e.event for e in action if e.event_class is not ev.ReportAwaitingAcknowledgement]
        reports = [e for e in action if e.event_class is ev.ReportAwaitingAcknowledgement]
        if reports:
            reporter = str(reports[-1].data.get("reporter"))
            named = reports[-1].data.get("players")
            pending = acknowledgement(before, events, after, reporter)
            expected = pending.data.get("players") if pending is not None else None
            # A record of the server before issue 30 waited on the whole action's changes.
            legacy = _whole_action_players(before, after, reporter)
            if len(reports) > 1 or named not in (expected, legacy):
                raise ValueError(
                    f"the report of action {first.action_id} names {named}, but the action's report changed "
                    f"{expected} besides {reporter!r}"
                )
            return
        at = reported_state(before, events, after)
        changed = [p for p in before.players if at is None or not waiting_for(before, at, p)]
        if not changed:
            raise ValueError(
                f"action {first.action_id} by a player token changed more than one player's side without the "
                "report awaiting their acknowledgement"
            )
        if len(changed) == 1:  # one player's side changed: it must be the token's own player's
            self._unreported.append((name, changed[0], line, first.originator_version + len(action) - 1))

    def unreported(self) -> UnreportedChange | None:
        """The first unreported action that changed a side not the token's own (as learned so far)."""
        for name, player, line, version in self._unreported:
            mine = self.player_of(name)
            if mine is not None and mine != player:
                return UnreportedChange(line, version, name, player, mine)
        return None


class UnreportedChange(ValueError):
    """A player token's action changed another player's side without its report."""

    def __init__(self, line: int, version: int, name: str, changed: str, mine: str) -> None:
        super().__init__(
            f"the token {name!r} acts as {mine!r}, but its action changed {changed!r}'s side without the report "
            "awaiting their acknowledgement"
        )
        self.line = line
        self.version = version


def _player_said(event: GameEvent) -> str | None:
    """The player a player token's record says it acts as, if it says."""
    kind = event.event_class
    key = None
    if kind is ev.ReportAwaitingAcknowledgement:
        key = "reporter"
    elif kind is ev.JudgeCallOpened:
        key = "called_by"
    elif kind in (ev.ReportAcknowledged, ev.ReportDisputed):
        key = "by"
    value = event.data.get(key) if key is not None else None
    return value if isinstance(value, str) else None


def _whole_action_players(before: GameState, after: GameState, reporter: str) -> list[str] | None:
    """Whom a report waited on before issue 30: every other player whose side the whole action
    changed (turn-based actions and consequences included). Exports of that server still import;
    such a report only asked more players to acknowledge than today's."""
    players = [p for p in before.players if p != reporter and side_changed(before, after, p)]
    return players or None


def check_revert(
    event: GameEvent,
    reverted: ev.ActionsReverted,
    state_at: Callable[[int], Game],
    head: Game,
    records: Sequence[GameEvent],
) -> None:
    """A revert (``reverted``: the payload of ``event``) lists the versions after ``to_version``
    but its judge records (which a backup never reverts; a file written before that rule lists
    them all), and restores the state at ``to_version`` with the judge records of the state
    before it (``domain.judging``). The payload's fields are as the file has them: their types
    are checked here."""
    to_version: Any = reverted.to_version
    version = event.originator_version
    if isinstance(to_version, bool) or not isinstance(to_version, int) or not 1 <= to_version < version:
        raise ValueError(f"to_version must be between 1 and {version - 1}, got {to_version!r}")
    every = list(range(to_version + 1, version))
    live = [v for v in every if records[v - 1].event_class not in ev.JUDGE_RECORDS]
    if reverted.reverted_versions not in (every, live):
        raise ValueError(f"reverted_versions must be {to_version + 1}..{version - 1} but the judge records")
    reason: Any = reverted.reason
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError("an undo needs its reason on the record")
    if event.actor["role"] == "player":
        check_quick_undo_record(event, to_version, records)
    restored = with_judging(state_at(to_version).state, head.state)
    if canonical(reverted.restored_state) != canonical(state_to_json(restored)):
        raise ValueError(f"restored_state is not the replayed state at version {to_version}")


QUICK_UNDO_SLACK = timedelta(seconds=5)
"""How much later than the live decision's clock a quick undo's ``recorded_at`` may be: the
decision reads the clock, the record's time is taken once it is decided (``ledger.write_path``)."""


def check_quick_undo_record(event: GameEvent, to_version: int, records: Sequence[GameEvent]) -> None:
    """A player token's revert is the quick undo the live server allows (``domain.permissions``,
    ``check_quick_undo``): of the action just before it, whole, recorded by the same token
    within ``QUICK_UNDO_WINDOW`` (and ``QUICK_UNDO_SLACK``) of the revert."""
    head = event.originator_version - 1
    window = [
        Entry(
            r.originator_version,
            r.event_class,
            r.action_id,
            data=r.data,
            actor=(r.actor["name"], r.actor["role"]),
            actor_token=r.actor.get("token"),
            recorded_at=_time(r.recorded_at),
        )
        for r in records[to_version - 1 : head]
    ]
    # The player the token acted as, where the undone action says (its report's reporter).
    reporters = [
        e.data.get("reporter") for e in window if e.version > to_version and e.kind is ev.ReportAwaitingAcknowledgement
    ]
    player = reporters[-1] if reporters and isinstance(reporters[-1], str) else None
    grant = Grant(event.actor["name"], "player", player_id=player, token_id=event.actor.get("token"))
    try:
        check_action_boundary(window, to_version)
        facts = quick_undo_facts(
            Undo("quick undo", actions=1), to_version, head, window, _time(event.recorded_at) - QUICK_UNDO_SLACK
        )
        check_quick_undo(grant, facts)
    except GameError as err:
        raise ValueError(f"a player's undo is a quick undo of its own last action: {err.message}") from None


#: Events that are an action of their own: the game's creation and an undo.
SOLE_EVENTS: frozenset[type[ev.DomainEvent]] = frozenset({ev.GameStarted, ev.ActionsReverted})
#: Events that are no game action: an action of only these ends where the one before it did.
NOT_GAME_ACTIONS = ev.JUDGE_RECORDS | ev.REPORT_ANSWERS


def check_action(event: GameEvent, previous: GameEvent, earlier: set[str]) -> None:
    """Each action is one run of consecutive events (one command and all it caused, stored in one
    save), and a game's creation or an undo is an action of its own."""
    if event.action_id == previous.action_id:
        if event.event_class in SOLE_EVENTS or previous.event_class in SOLE_EVENTS:
            sole = event.type if event.event_class in SOLE_EVENTS else previous.type
            raise ValueError(f"{sole} is an action of its own: it shares no action id with another event")
        return
    earlier.add(previous.action_id)
    if event.action_id in earlier:
        raise ValueError(
            f"action id {event.action_id!r} belongs to an earlier action: an action's events are consecutive"
        )


def check_action_end(last: GameEvent, before: Sequence[GameEvent], game: Game) -> None:
    """The state an action ends in is settled (``domain.audit.check_settled``), except where no
    command ran to settle it: the game's creation (taken as described), an undo (the state it
    restores may be any earlier one) and notes (they change nothing)."""
    if last.event_class in SOLE_EVENTS:
        return
    action = [last]
    for event in reversed(before):
        if event.action_id != last.action_id:
            break
        action.append(event)
    if all(e.event_class in NOT_GAME_ACTIONS for e in action):
        return
    reason = check_settled(game.state)
    if reason:
        raise ValueError(f"at the end of action {last.action_id}: {reason}")
