"""Export files (NDJSON) and checking one before it is imported (docs/audit.md).

An export is a header line ``{"format": "mtg-ledger/1", "game_id", "events", "head",
"exported_at"}`` followed by one line per event in docs/api.md's Event shape. Checking a file means:

1. every line is a JSON object with the Event fields, versions 1, 2, ... in order;
2. the hash chain recomputes: each ``prev_hash`` is the previous line's ``hash`` (64 zeros for
   the first) and each ``hash`` is what ``store.hash_chain.seal`` gives its record;
3. the actions are whole: one action's events are consecutive lines and its id is not used
   again; ``GameStarted`` and each ``ActionsReverted`` are an action of their own;
4. the rules replay: the first event is ``GameStarted`` and ``domain.setup.game_started`` gives
   exactly its data again from the create body it describes; every later event is consistent
   with the state before it (``domain.audit.check_event``) and folds into it without error; each
   ``ActionsReverted`` lists exactly the versions it reverts (all but judge records) and its
   ``restored_state`` equals the replayed state at its ``to_version`` with the judge records
   before it; and each action ends settled (``domain.audit.check_settled``: no state-based action
   left, the game over exactly when one side is left), except the creation, an undo and an action
   of judge records and acknowledgements only;
5. the header's ``events`` and ``head`` match the lines;
6. every record is one the live server could have written (``check_as_written``): a known
   actor role that may make that event (a note or an undo by a judge or admin, a game created by
   a scorekeeper or above), the action id a UUID, one time per action, times in order and not in
   the future, and every string and list within the limits of a request body (no control
   characters, docs/api.md Limits; lists may be longer: a restored state may hold a zone larger
   than one request names).

Commands can't be re-decided from events in general (a mill from an unknown library records what
was revealed, not a request), so step 4 checks what can be checked without them. The first
failing line is named in an ``InvalidExport`` (code ``invalid_import``); a failure at the end of
an action names the action's last line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from domain import events as ev
from domain.audit import check_event, check_settled
from domain.cards.model import Card
from domain.commands.bodies.text import check_string, check_value
from domain.errors import GameError, IllegalAction
from domain.judging import with_judging
from domain.serialize import state_to_json
from domain.setup import game_started
from domain.undo import JUDGE_RECORDS
from store.aggregate import Game, project_game
from store.canonical_json import canonical
from store.hash_chain import GENESIS_HASH, Fact, seal
from store.records import GameEvent
from store.results import RecordedEvent

FORMAT = "mtg-ledger/1"
"""The ``format`` of an export file's header line."""
ACTOR_ROLES = frozenset({"admin", "head_judge", "judge", "scorekeeper", "player"})
"""Roles that record events (a spectator only reads)."""
JUDGE_ROLES = frozenset({"admin", "head_judge", "judge"})
"""Roles that write notes and undo (docs/api.md, Authentication and roles)."""
JUDGE_ONLY = frozenset(
    {ev.NOTE_ADDED, ev.ACTIONS_REVERTED, ev.JUDGE_CALL_ANSWERED, ev.PENALTY_GIVEN, ev.TIME_EXTENDED, ev.DECK_CHECKED}
)
CREATOR_ROLES = frozenset({"admin", "head_judge", "judge", "scorekeeper"})
CLOCK_SKEW = timedelta(minutes=5)
"""How far past the importing server's clock an event's ``recorded_at`` may be."""
KEEP_EVERY = 256
"""Versions between the replayed games an import keeps (an undo's target is replayed from one)."""
MAX_LINE = 16 * 1024 * 1024
"""Longest line of an export file, in bytes (a revert holds a whole state)."""


class InvalidExport(IllegalAction):
    """An export file that is damaged, tampered with or not replayable; names the first bad line."""

    default_code = "invalid_import"

    def __init__(self, line: int, message: str, version: int | None = None) -> None:
        super().__init__(f"line {line}: {message}", "invalid_import")
        self.line = line
        """1-based line number in the file (the header is line 1)."""
        self.version = version
        """The event version that line holds, or ``None`` for the header."""


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def export_lines(game_id: str, events: Sequence[RecordedEvent], exported_at: str) -> Iterator[str]:
    """The file's lines, without line ends: the header, then every event."""
    head = events[-1].hash if events else GENESIS_HASH
    yield _dumps(
        {"format": FORMAT, "game_id": game_id, "events": len(events), "head": head, "exported_at": exported_at}
    )
    for event in events:
        yield _dumps(event.to_json())


@dataclass(frozen=True, slots=True)
class CheckedGame:
    """A file that passed every check, ready to be stored as it is."""

    game_id: str
    records: list[GameEvent]
    """The events exactly as the file has them (versions, metadata, hashes)."""
    final: Game
    """The game at the last version."""
    checkpoints: list[Game]
    """The game at each multiple of the snapshot interval (for snapshots)."""


def _setup_resolver(ref: Any) -> Card:
    """Cards in a stored ``GameStarted`` are resolved card objects; re-read them as they are,
    never merged with today's catalog (which may have changed since)."""
    if isinstance(ref, Mapping):
        return Card.from_json(ref)
    raise IllegalAction(f"a stored card must be an object, got {ref!r}", "invalid_import")


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


def _recheck_setup(event: GameEvent) -> None:
    """Run the creation rules again on the body the event describes; they must agree."""
    again = game_started(create_body(event.data), event.originator_id, _setup_resolver)
    if canonical(again.data) != canonical(event.data) or again.rule != event.rule:
        raise ValueError("GameStarted does not match what the creation rules give for the game it describes")


def _str(raw: Mapping[str, Any], key: str, *, optional: bool = False) -> Any:
    value = raw.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise ValueError(f"{key!r} must be a non-empty string, got {value!r}")
    return value


def _event_from_line(raw: Any, game_id: str, version: int, prev_hash: str) -> GameEvent:
    """Parse one event line and check its place in the chain."""
    if not isinstance(raw, Mapping):
        raise ValueError("an event line must be a JSON object")
    if raw.get("version") != version or isinstance(raw.get("version"), bool):
        raise ValueError(f"expected version {version}, got {raw.get('version')!r}")
    type_ = _str(raw, "type")
    if type_ not in ev.EVENT_TYPES:
        raise ValueError(f"unknown event type {type_!r}")
    data = raw.get("data")
    if not isinstance(data, dict):
        raise ValueError(f"'data' must be an object, got {data!r}")
    rule = _str(raw, "rule", optional=True)
    action_id = _str(raw, "action_id")
    actor = raw.get("actor")
    if not isinstance(actor, Mapping) or set(actor) != {"name", "role"}:
        raise ValueError(f"'actor' must be {{'name', 'role'}}, got {actor!r}")
    actor_json = {"name": _str(actor, "name"), "role": _str(actor, "role")}
    recorded_at = _str(raw, "recorded_at")
    if datetime.fromisoformat(recorded_at.replace("Z", "+00:00")).tzinfo is None:
        raise ValueError(f"'recorded_at' must carry a time zone, got {recorded_at!r}")
    if raw.get("prev_hash") != prev_hash:
        raise ValueError(f"prev_hash {raw.get('prev_hash')!r} is not the previous event's hash {prev_hash!r}")
    (sealed,) = seal(
        game_id,
        [Fact(type_, data, rule)],
        after=version - 1,
        prev_hash=prev_hash,
        action_id=action_id,
        actor=actor_json,
        recorded_at=recorded_at,
    )
    if raw.get("hash") != sealed.hash:
        raise ValueError(f"hash {raw.get('hash')!r} does not match the event's content (expected {sealed.hash!r})")
    return sealed


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def check_as_written(event: GameEvent, previous: GameEvent | None, now: datetime) -> None:
    """What the live server would have written (see the module docstring, 6); ``ValueError``."""
    role = event.actor["role"]
    if role not in ACTOR_ROLES:
        raise ValueError(f"actor role {role!r} is not one that records events ({sorted(ACTOR_ROLES)})")
    if event.type in JUDGE_ONLY and role not in JUDGE_ROLES:
        raise ValueError(f"a {event.type} is recorded by a judge or an admin, not by a {role}")
    if event.type == ev.GAME_STARTED and role not in CREATOR_ROLES:
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


def _check_revert(event: GameEvent, state_at: Callable[[int], Game], head: Game, records: Sequence[GameEvent]) -> None:
    """A revert lists the versions after ``to_version`` but its judge records (which a backup
    never reverts; a file written before that rule lists them all), and restores the state at
    ``to_version`` with the judge records of the state before it (``domain.judging``)."""
    data = event.data
    to_version = data.get("to_version")
    version = event.originator_version
    if isinstance(to_version, bool) or not isinstance(to_version, int) or not 1 <= to_version < version:
        raise ValueError(f"to_version must be between 1 and {version - 1}, got {to_version!r}")
    every = list(range(to_version + 1, version))
    live = [v for v in every if records[v - 1].type not in JUDGE_RECORDS]
    if data.get("reverted_versions") not in (every, live):
        raise ValueError(f"reverted_versions must be {to_version + 1}..{version - 1} but the judge records")
    reason = data.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError("an undo needs its reason on the record")
    restored = with_judging(state_at(to_version).state, head.state)
    if canonical(data.get("restored_state")) != canonical(state_to_json(restored)):
        raise ValueError(f"restored_state is not the replayed state at version {to_version}")


#: Events that are an action of their own: the game's creation and an undo.
SOLE_EVENTS = frozenset({ev.GAME_STARTED, ev.ACTIONS_REVERTED})


def _check_action(event: GameEvent, previous: GameEvent, earlier: set[str]) -> None:
    """Each action is one run of consecutive events (one command and all it caused, stored in one
    save), and a game's creation or an undo is an action of its own."""
    if event.action_id == previous.action_id:
        if event.type in SOLE_EVENTS or previous.type in SOLE_EVENTS:
            sole = event.type if event.type in SOLE_EVENTS else previous.type
            raise ValueError(f"{sole} is an action of its own: it shares no action id with another event")
        return
    earlier.add(previous.action_id)
    if event.action_id in earlier:
        raise ValueError(
            f"action id {event.action_id!r} belongs to an earlier action: an action's events are consecutive"
        )


def _ends_action(event: GameEvent, following: Any) -> bool:
    """Whether ``event`` is the last of its action: the next line is another action's (or there
    is none). A next line that can't be read isn't taken as the end: that line is the bad one."""
    if following is None:
        return True
    if not isinstance(following, Mapping):
        return False
    return bool(following.get("action_id") != event.action_id)


def _check_action_end(last: GameEvent, before: Sequence[GameEvent], game: Game) -> None:
    """The state an action ends in is settled (``domain.audit.check_settled``), except where no
    command ran to settle it: the game's creation (taken as described), an undo (the state it
    restores may be any earlier one) and notes (they change nothing)."""
    if last.type in SOLE_EVENTS:
        return
    action = [last]
    for event in reversed(before):
        if event.action_id != last.action_id:
            break
        action.append(event)
    if all(e.type in JUDGE_RECORDS or e.type in (ev.REPORT_ACKNOWLEDGED, ev.REPORT_DISPUTED) for e in action):
        return
    reason = check_settled(game.state)
    if reason:
        raise ValueError(f"at the end of action {last.action_id}: {reason}")


def _lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """Non-blank lines as (line number, parsed JSON or the parse error)."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except ValueError as err:
            yield number, err


def check_export(
    lines: Iterable[str],
    *,
    snapshot_interval: int,
    on_header: Callable[[str], None] = lambda game_id: None,
    valid_game_id: Callable[[str], bool] = lambda game_id: True,
    now: datetime | None = None,
) -> CheckedGame:
    """Check a whole file (see the module docstring); ``on_header`` runs once the game id is
    known (the service refuses an existing id there, before replaying anything).

    The lines are read one at a time (a file or a request body streamed line by line): what is
    kept is the checked records (stored in one save afterwards) and the game every
    ``KEEP_EVERY`` versions, from which an undo's target state is replayed."""
    stream = _lines(lines)
    first = next(stream, None)
    if first is None:
        raise InvalidExport(1, "the file is empty: expected a header line and events")
    header_line, header = first
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidExport(header_line, f'the first line must be a header with "format": {FORMAT!r}')
    game_id = header.get("game_id")
    if not isinstance(game_id, str) or not valid_game_id(game_id):
        raise InvalidExport(header_line, f"invalid game_id {game_id!r}")
    on_header(game_id)
    at = now if now is not None else datetime.now(UTC)
    records: list[GameEvent] = []
    kept: dict[int, Game] = {}
    checkpoints: list[Game] = []
    game: Game | None = None
    prev_hash = GENESIS_HASH

    def state_at(version: int) -> Game:
        """The replayed game at ``version`` (before the current line): the nearest kept game at
        or below it, and the records after that folded again."""
        base = max(v for v in kept if v <= version)
        replayed = project_game(kept[base], records[base:version]) if version > base else kept[base]
        assert replayed is not None
        return replayed

    actions: set[str] = set()  # the action ids of the actions before the current one
    pending = next(stream, None)
    version = 0
    while pending is not None:
        number, raw = pending
        following = next(stream, None)
        version += 1
        try:
            if isinstance(raw, Exception):
                raise ValueError(f"not JSON: {raw}")
            event = _event_from_line(raw, game_id, version, prev_hash)
            domain_event = ev.Event.parse(event.type, event.data, event.rule)
            if version == 1:
                if event.type != ev.GAME_STARTED:
                    raise ValueError(f"the first event must be GameStarted, got {event.type}")
                _recheck_setup(event)
            else:
                assert game is not None
                _check_action(event, records[-1], actions)
                if event.type == ev.ACTIONS_REVERTED:
                    _check_revert(event, state_at, game, records)
                reason = check_event(game.state, domain_event)
                if reason:
                    raise ValueError(reason)
            check_as_written(event, records[-1] if records else None, at)
            game = project_game(game, (event,))
            assert game is not None
            if _ends_action(event, following[1] if following is not None else None):
                _check_action_end(event, records, game)
        except (GameError, ValueError, KeyError, TypeError, AttributeError, IndexError, StopIteration) as err:
            message = err.message_for(True) if isinstance(err, GameError) else str(err)
            raise InvalidExport(number, f"event {version}: {message or type(err).__name__}", version) from None
        records.append(event)
        prev_hash = event.hash
        if version == 1 or version % KEEP_EVERY == 0:
            kept[version] = game
        if snapshot_interval > 0 and version % snapshot_interval == 0:
            checkpoints.append(game)
        pending = following
    if game is None:
        raise InvalidExport(header_line, "the file has no events")
    if header.get("events") != len(records):
        raise InvalidExport(
            header_line, f"the header says {header.get('events')!r} events, the file has {len(records)}"
        )
    if header.get("head") != prev_hash:
        raise InvalidExport(header_line, f"the header's head {header.get('head')!r} is not the last hash {prev_hash!r}")
    return CheckedGame(game_id=game_id, records=records, final=game, checkpoints=checkpoints)
