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
from domain.commands.bodies.text import check_string, check_value
from domain.errors import Code, GameError, IllegalAction
from domain.judging import with_judging
from domain.serialize import state_to_json
from domain.setup import game_started
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
    if kind in JUDGE_ONLY and role not in JUDGE_ROLES:
        raise ValueError(f"a {event.type} is recorded by a judge or an admin, not by a {role}")
    if kind is ev.GameStarted and role not in CREATOR_ROLES:
        raise ValueError(f"a game is created by a scorekeeper or above, not by a {role}")
    check_string(event.actor["name"], "actor.name", 200)
    if event.rule is not None:
        check_string(event.rule, "rule", 200)
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
        check_value(event.data, "data", lists=False)
    except GameError as err:
        raise ValueError(err.message) from None


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
    restored = with_judging(state_at(to_version).state, head.state)
    if canonical(reverted.restored_state) != canonical(state_to_json(restored)):
        raise ValueError(f"restored_state is not the replayed state at version {to_version}")


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
