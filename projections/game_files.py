"""Export files (NDJSON) and checking one before it is imported (docs/audit.md).

An export is a header line ``{"format": "mtg-ledger/1", "game_id", "events", "head",
"exported_at"}`` followed by one line per event in docs/api.md's Event shape. Checking a file means:

1. every line is a JSON object with the Event fields, versions 1, 2, ... in order;
2. the hash chain recomputes: each ``prev_hash`` is the previous line's ``hash`` (64 zeros for
   the first) and each ``hash`` is what ``projections.hash_chain.seal`` gives its record;
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
5. the header's ``events`` and ``head`` match the lines.

Commands can't be re-decided from events in general (a mill from an unknown library records what
was revealed, not a request), so step 4 checks what can be checked without them. The first
failing line is named in an ``InvalidExport`` (code ``invalid_import``); a failure at the end of
an action names the action's last line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import rfc8785

from domain import events as ev
from domain.audit import check_event, check_settled
from domain.cards.model import Card
from domain.errors import GameError, IllegalAction
from domain.judging import with_judging
from domain.serialize import state_to_json
from domain.setup import game_started
from domain.undo import JUDGE_RECORDS
from projections.game_aggregate import Game, project_game
from projections.hash_chain import GENESIS_HASH, Fact, seal
from projections.results import RecordedEvent
from projections.stored_events import GameEvent

FORMAT = "mtg-ledger/1"
"""The ``format`` of an export file's header line."""


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


def _canonical(value: Any) -> bytes:
    return rfc8785.dumps(value)


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
    if _canonical(again.data) != _canonical(event.data) or again.rule != event.rule:
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


def _check_revert(event: GameEvent, states: Mapping[int, Game], head: Game, records: Sequence[GameEvent]) -> None:
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
    restored = with_judging(states[to_version].state, head.state)
    if _canonical(data.get("restored_state")) != _canonical(state_to_json(restored)):
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
) -> CheckedGame:
    """Check a whole file (see the module docstring); ``on_header`` runs once the game id is
    known (the service refuses an existing id there, before replaying anything)."""
    parsed = list(_lines(lines))
    if not parsed:
        raise InvalidExport(1, "the file is empty: expected a header line and events")
    header_line, header = parsed[0]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise InvalidExport(header_line, f'the first line must be a header with "format": {FORMAT!r}')
    game_id = header.get("game_id")
    if not isinstance(game_id, str) or not valid_game_id(game_id):
        raise InvalidExport(header_line, f"invalid game_id {game_id!r}")
    on_header(game_id)
    body = parsed[1:]
    # The states undo targets need, gathered before the replay so only those are kept.
    targets = {
        raw["data"].get("to_version")
        for _, raw in body
        if isinstance(raw, dict) and raw.get("type") == ev.ACTIONS_REVERTED and isinstance(raw.get("data"), dict)
    }
    records: list[GameEvent] = []
    kept: dict[int, Game] = {}
    checkpoints: list[Game] = []
    game: Game | None = None
    prev_hash = GENESIS_HASH
    actions: set[str] = set()  # the action ids of the actions before the current one
    for index, (number, raw) in enumerate(body):
        version = index + 1
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
                    _check_revert(event, kept, game, records)
                reason = check_event(game.state, domain_event)
                if reason:
                    raise ValueError(reason)
            game = project_game(game, (event,))
            assert game is not None
            if _ends_action(event, body[index + 1][1] if index + 1 < len(body) else None):
                _check_action_end(event, records, game)
        except (GameError, ValueError, KeyError, TypeError, AttributeError, IndexError, StopIteration) as err:
            message = err.message if isinstance(err, GameError) else str(err)
            raise InvalidExport(number, f"event {version}: {message or type(err).__name__}", version) from None
        records.append(event)
        prev_hash = event.hash
        if version in targets:
            kept[version] = game
        if snapshot_interval > 0 and version % snapshot_interval == 0:
            checkpoints.append(game)
    if game is None:
        raise InvalidExport(header_line, "the file has no events")
    if header.get("events") != len(records):
        raise InvalidExport(
            header_line, f"the header says {header.get('events')!r} events, the file has {len(records)}"
        )
    if header.get("head") != prev_hash:
        raise InvalidExport(header_line, f"the header's head {header.get('head')!r} is not the last hash {prev_hash!r}")
    return CheckedGame(game_id=game_id, records=records, final=game, checkpoints=checkpoints)
